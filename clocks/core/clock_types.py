"""The clock's vocabulary: sides, statuses, reasons, errors and the records a clock keeps.

Split from ``clocks/core/clock.py`` so that the state machine module holds only the machine;
``clocks.core.clock`` re-exports every name here, which is how callers import them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "AdjustKind", "AlreadyStartedError", "ArbiterAction", "ClockError", "ClockFinishedError",
    "Command", "CommandKind", "Dated", "Finish", "FinishKind", "IgnoredReason",
    "InvalidAmountError", "MissingArgumentError", "NegativeTimeError", "NotPausedError",
    "NotRunningError", "NotStartedError", "NothingToCorrectError", "Press", "PressResult",
    "Reconciliation",
    "Side", "SideClock", "SideFlaggedError", "Status", "TurnRecord", "UnknownChoiceError",
]  # fmt: skip


class Side(StrEnum):
    """``A`` plays first, ``B`` second (the seats of the game record)."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class Status(StrEnum):
    """What a clock shows; derived from the stored fields, never stored itself."""

    NOT_STARTED = "not_started"
    RUNNING_A = "running_a"
    RUNNING_B = "running_b"
    PAUSED = "paused"
    A_FLAGGED = "a_flagged"  # A's time ran out, B plays alone
    B_FLAGGED = "b_flagged"  # B's time ran out, A plays alone
    BOTH_FLAGGED = "both_flagged"
    FINISHED = "finished"


class IgnoredReason(StrEnum):
    """Why a press changed nothing: normal network races, so reported, not raised."""

    FINISHED = "finished"
    NOT_STARTED = "not_started"
    PAUSED = "paused"
    STALE = "stale"  # the client saw an older press number: a duplicate or a delayed press
    AHEAD = "ahead"  # the client claims a press number the server has not reached
    FLAGGED = "flagged"  # the pressing side's time has run out
    NOT_YOUR_TURN = "not_your_turn"
    # reported only for presses that carry the device's measurement (the board page's protocol)
    DUPLICATE = "duplicate"  # this press was counted already: its copy changes nothing
    ARBITER = "arbiter"  # the arbiter changed the clock after the device's last snapshot


class Dated(StrEnum):
    """Where a measured press was dated on the server's timeline, and why."""

    DEVICE = "device"  # where the device saw it: the gap is explained and within the budget
    ARRIVAL = "arrival"  # the device measured no less than the server saw pass: nothing to move
    BUDGET = "budget"  # later than the device saw it (on arrival at worst): the budget ran out
    HEARD = "heard"  # later than the device saw it: the server heard the device after that, so
    # it is credited only the silence the server observed (or the transport allowance)


class CommandKind(StrEnum):
    """An arbiter's command, as a clock keeps it until the next press (``Command``)."""

    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    ADJUST = "adjust"
    CORRECT = "correct"
    FINISH = "finish"


class AdjustKind(StrEnum):
    ADD = "add"
    SUBTRACT = "subtract"
    SET = "set"


class FinishKind(StrEnum):
    COMPLETED = "completed"
    RESIGNED = "resigned"
    ARBITER = "arbiter"


class ClockError(Exception):
    """An illegal clock command (arbiter or programming error); the message says why."""


class AlreadyStartedError(ClockError):
    """``start`` on a clock that has already started."""


class NotStartedError(ClockError):
    """A command that needs a started clock (a correction, handing over the turn)."""


class NotRunningError(ClockError):
    """``pause`` when no clock runs (not started, paused, both flagged)."""


class NotPausedError(ClockError):
    """``resume`` when the clock is not paused."""


class ClockFinishedError(ClockError):
    """Any command after ``finish``: a finished clock is final."""


class NegativeTimeError(ClockError):
    """An adjustment that would leave a side with less than zero time."""


class InvalidAmountError(ClockError, ValueError):
    """An adjustment amount that is not a whole number of milliseconds from 0 to one day."""


class UnknownChoiceError(ClockError, ValueError):
    """A side, adjustment kind or finish kind that does not exist (``"C"``, ``"explode"``)."""


class MissingArgumentError(ClockError, ValueError):
    """A reason, the side to move or the resigning side was required but not given."""


class SideFlaggedError(ClockError):
    """The turn was given to a side whose time has run out (add time to it first)."""


class NothingToCorrectError(ClockError):
    """A correction giving the turn to the side that already has it."""


@dataclass(frozen=True, slots=True)
class SideClock:
    """One side's ledger: remaining = base + increments + adjustments - used - current turn."""

    used_ms: int = 0  # time charged for finished (or interrupted) turns
    increments_ms: int = 0  # Fischer increments granted
    adjustments_ms: int = 0  # net arbiter adjustments (negative when time was taken away)
    flagged_at_ms: int | None = None
    credited_ms: int = 0  # how much earlier than their arrival this side's presses were dated


@dataclass(frozen=True, slots=True)
class Press:
    """A completed turn: the press number it produced and the side's time left after it."""

    number: int
    side: Side
    at_ms: int
    remaining_ms: int


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """How a press measured by the board's device was placed: ``late_ms`` is how much earlier
    than its arrival it was dated (0 on arrival: the credit the press got), ``cost_ms`` how
    much of the game's budget that took (presses queued in one outage share its time: see
    ``clocks.core.reconcile.Reconciling.budget_cost``). ``claimed_ms`` is the credit the device's
    measurement asked for (``late_ms`` when nothing bounded it), ``before_commands`` how many
    arbiter commands the device had not seen and the press was placed before. ``before_flag``:
    a press refused because its side's flag had fallen, which the device made before the
    deadline within what the server observed (the flag stands: the arbiter judges)."""

    measured_ms: int
    late_ms: int
    dated: Dated
    cost_ms: int = 0
    claimed_ms: int = 0
    before_commands: int = 0
    before_flag: bool = False


@dataclass(frozen=True, slots=True)
class PressResult:
    """The outcome of a press: accepted with its ``Press`` record, or ignored with the reason;
    for a press the device measured, how it was placed on the server's timeline."""

    state: ClockState  # noqa: F821 (clocks.core.clock's; annotations are not evaluated)
    press: Press | None
    ignored: IgnoredReason | None
    reconciled: Reconciliation | None = None

    @property
    def accepted(self) -> bool:
        return self.ignored is None


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """The turn a flag ended, kept until the next change so that a late press measured by the
    device can show that the side pressed in time (the flag stands; the arbiter is told)."""

    side: Side
    started_ms: int  # start of the turn's last running stretch
    elapsed_ms: int  # the turn's time before that stretch
    press_number: int


@dataclass(frozen=True, slots=True)
class Command:
    """An arbiter's command as given, kept until the next press so that it can be given again
    after a press the device made before it (``clocks.core.reconcile``): its kind, when, and
    its arguments (``adjust``: side, kind, amount, turn; ``correct``: turn; ``finish``: kind,
    side; ``reason`` for the three)."""

    kind: CommandKind
    at_ms: int
    side: Side | None = None
    adjust: AdjustKind | None = None
    amount_ms: int = 0
    turn: Side | None = None
    finish: FinishKind | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Finish:
    kind: FinishKind
    at_ms: int
    side: Side | None  # who resigned; for an arbiter decision the side concerned, if any
    reason: str


@dataclass(frozen=True, slots=True)
class ArbiterAction:
    """An adjustment (``add``/``subtract``/``set``) or a ``correct``ion, kept with its reason."""

    kind: str
    at_ms: int
    side: Side | None  # the side whose time changed (None for a correction)
    delta_ms: int  # the change of that side's remaining time
    turn: Side | None  # the side to move afterwards
    reason: str
