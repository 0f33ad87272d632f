"""The pure board clock: events in, new states out, time always passed in by the caller.

Store, not tick: a state keeps, per side, the time used in finished turns (plus increments and
arbiter adjustments), whose turn it is and when the turn's running stretch began. Remaining time
is derived from the ``now_ms`` the caller passes, so the state only changes on events and any
process can compute the same answer. Flags are derived too: a state looked at at or after a
side's deadline shows that side flagged at exactly the deadline (``at``). docs/clock.md has the
state diagram and the rules decisions.

>>> clock = ClockState.new(TimeControl.parse("600+5")).start(0)
>>> result = clock.press(Side.A, 0, 12_000)
>>> result.press
Press(number=1, side=<Side.A: 'A'>, at_ms=12000, remaining_ms=593000)
>>> result.state.snapshot(20_000)["remaining_ms"]
{'A': 593000, 'B': 592000}
>>> result.state.at(612_000).status
<Status.B_FLAGGED: 'b_flagged'>
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeVar

from clocks.core.clock_types import (
    AdjustKind,
    AlreadyStartedError,
    ArbiterAction,
    ClockError,
    ClockFinishedError,
    Command,
    CommandKind,
    Dated,
    Finish,
    FinishKind,
    IgnoredReason,
    InvalidAmountError,
    MissingArgumentError,
    NegativeTimeError,
    NothingToCorrectError,
    NotPausedError,
    NotRunningError,
    NotStartedError,
    Press,
    PressResult,
    Reconciliation,
    Side,
    SideClock,
    SideFlaggedError,
    Status,
    TurnRecord,
    UnknownChoiceError,
)
from clocks.core.hearing import Silence
from clocks.core.reconcile import Reconciling
from clocks.core.timecontrol import DEFAULT_TIME_CONTROL, MAX_SECONDS, TimeControl, TimeControlError

__all__ = [
    "MAX_ADJUST_MS",
    "AdjustKind", "AlreadyStartedError", "ArbiterAction", "ClockError", "ClockFinishedError",
    "ClockState", "Command", "CommandKind", "Dated", "Finish", "FinishKind", "IgnoredReason",
    "InvalidAmountError", "MissingArgumentError", "NegativeTimeError", "NotPausedError",
    "NotRunningError", "NotStartedError", "NothingToCorrectError", "Press", "PressResult",
    "RecentCommands", "Reconciliation", "Side", "SideClock", "SideFlaggedError", "Status",
    "TimeControl", "TimeControlError", "TurnRecord", "UnknownChoiceError",
]  # fmt: skip

_E = TypeVar("_E", bound=StrEnum)

#: The largest amount an arbiter may add, subtract or set in one adjustment: one day, the
#: time-control grammar's own limit. Larger amounts are typing errors (or attacks): an amount
#: of 10**300 ms would make every later deadline too large for the database's 64 bits.
MAX_ADJUST_MS = MAX_SECONDS * 1000


@dataclass(frozen=True, slots=True)
class RecentCommands:
    """The arbiter's commands since the clock's last press, and the state before the first of
    them: a press the board's device made before a command it had not seen yet is placed
    there and the commands are given again after it (``Reconciling._rebase``).
    ``before`` shares its ``presses`` with the clock (no press came since) and its ``log`` is
    the clock's but for the entries these commands added (one per adjustment or correction)."""

    before: ClockState
    commands: tuple[Command, ...]


_FRESH = SideClock()


@dataclass(frozen=True, slots=True)
class ClockState(Reconciling):
    """An immutable clock. Every event method takes ``now_ms`` and returns a new state.

    A ``now_ms`` earlier than the last change is treated as the time of the last change: server
    processes may disagree by a few milliseconds, and time never runs backwards inside a clock.
    """

    time_control: TimeControl = DEFAULT_TIME_CONTROL
    a: SideClock = _FRESH
    b: SideClock = _FRESH
    turn: Side | None = None  # the side to move; None before start, when both flagged, finished
    paused: bool = False
    turn_started_ms: int | None = None  # start of the turn's current running stretch
    turn_elapsed_ms: int = 0  # the turn's time before that stretch (a pause splits a turn)
    started_at_ms: int | None = None
    updated_ms: int | None = None  # time of the last change
    press_number: int = 0  # completed turns: what a client sends with a press
    version: int = 0  # every change: what clients order snapshots by
    epoch: int = 0  # arbiter commands (start, pause, resume, adjust, correct, finish) so far
    compensated_ms: int = 0  # the budget measured presses have used (``Reconciling.budget_cost``)
    compensated_to_ms: int | None = None  # the latest arrival of a press dated earlier
    flag_turn: TurnRecord | None = None  # the turn the last flag ended, until the next change
    recent_commands: RecentCommands | None = None  # the arbiter's, since the last press
    presses: tuple[Press, ...] = ()
    log: tuple[ArbiterAction, ...] = ()
    finished: Finish | None = None

    @classmethod
    def new(cls, time_control: TimeControl | str = DEFAULT_TIME_CONTROL) -> ClockState:
        """A clock not started yet, with a ``TimeControl`` or its notation (``'600d10'``)."""
        if isinstance(time_control, str):
            time_control = TimeControl.parse(time_control)
        return cls(time_control=time_control)

    # -- derived views -------------------------------------------------------------------------

    @property
    def running(self) -> Side | None:
        """The side whose clock runs now (as stored: call ``at`` first to apply due flags)."""
        return None if self.paused else self.turn

    @property
    def status(self) -> Status:
        if self.finished is not None:
            return Status.FINISHED
        if self.started_at_ms is None:
            return Status.NOT_STARTED
        if self.paused:
            return Status.PAUSED
        a_flag, b_flag = self.a.flagged_at_ms is not None, self.b.flagged_at_ms is not None
        if a_flag or b_flag:
            return (
                Status.BOTH_FLAGGED
                if a_flag and b_flag
                else (Status.A_FLAGGED if a_flag else Status.B_FLAGGED)
            )
        return Status.RUNNING_A if self.turn is Side.A else Status.RUNNING_B

    def side(self, side: Side | str) -> SideClock:
        if side is Side.A:  # the members first: every press asks a few times
            return self.a
        if side is Side.B:
            return self.b
        return self.a if Side(side) is Side.A else self.b

    def flagged(self, side: Side | str) -> bool:
        return self.side(side).flagged_at_ms is not None

    def remaining_ms(self, side: Side | str, now_ms: int) -> int:
        """``side``'s time left at ``now_ms`` (never negative: due flags are applied first)."""
        state, now = self._prepare(now_ms)
        return state._remaining(Side(side), now)

    def next_deadline_ms(self) -> int | None:
        """When the running side flags unless something happens first: the flag timer's alarm.

        None when no clock runs. May lie in the past for a stored state nobody has looked at
        since: the caller then applies the flag with ``at``.
        """
        if self.running is None or self.turn_started_ms is None:
            return None
        left = self._allowance(self.running) - self.side(self.running).used_ms
        budget = left + self.time_control.delay_ms - self.turn_elapsed_ms
        return self.turn_started_ms + max(0, budget)

    def at(self, now_ms: int) -> ClockState:
        """This clock as seen at ``now_ms``: every flag due by then applied at its exact deadline.

        Deterministic whoever asks and whenever: the flag time is the deadline, not the moment
        of asking, and each flag counts as one change (version + 1).
        """
        return self._prepare(now_ms)[0]

    def snapshot(self, now_ms: int) -> dict[str, Any]:
        """A JSON-able view for broadcasting; clients display it and interpolate until the next."""
        state, now = self._prepare(now_ms)
        finish = state.finished
        return {
            "version": state.version,
            "server_time_ms": now,
            "status": state.status.value,
            "started_at_ms": state.started_at_ms,
            "running": _value(state.running),
            "turn": _value(state.turn),
            "paused": state.paused,
            "press_number": state.press_number,
            "epoch": state.epoch,
            "turn_elapsed_ms": state._turn_elapsed(now) if state.turn is not None else 0,
            "compensated_ms": state.compensated_ms,
            "credited_ms": {"A": state.a.credited_ms, "B": state.b.credited_ms},
            "remaining_ms": {"A": state._remaining(Side.A, now),
                             "B": state._remaining(Side.B, now)},
            "delay_left_ms": max(0, state.time_control.delay_ms - state._turn_elapsed(now))
            if state.turn is not None else 0,
            "deadline_ms": state.next_deadline_ms(),
            "flags": {"A": state.a.flagged_at_ms, "B": state.b.flagged_at_ms},
            "finished": None if finish is None else {
                "kind": finish.kind.value, "at_ms": finish.at_ms,
                "side": _value(finish.side), "reason": finish.reason,
            },
            "time_control": str(state.time_control),
        }  # fmt: skip

    # -- events --------------------------------------------------------------------------------

    def start(self, now_ms: int) -> ClockState:
        """Start the game: A's clock runs first."""
        state, now = self._prepare(now_ms)
        state._require_open()
        if state.started_at_ms is not None:
            raise AlreadyStartedError(f"the clock started at {state.started_at_ms} ms already")
        started = replace(state, started_at_ms=now, turn=Side.A, turn_started_ms=now)
        return started._command(now, Command(CommandKind.START, now), state)

    def press(
        self,
        side: Side | str,
        press_number: int,
        now_ms: int,
        *,
        measured_ms: int | None = None,
        epoch: int | None = None,
        budget_ms: int = 0,
        silence: Silence | None = None,
        cap_ms: int | None = None,
    ) -> PressResult:
        """``side`` ends its turn; ``press_number`` is the press number its client last saw.

        A duplicate, delayed or out-of-turn press returns this very state with the reason, since
        such presses are normal network races. An accepted press completes a turn: the increment
        or delay applies, the press number goes up and the turn passes to the opponent, or stays
        with ``side`` (a new turn) while the opponent is flagged.

        ``measured_ms`` is the turn's running time as the board's device measured it, ``epoch``
        the arbiter epoch of the device's last snapshot: the press is then dated where the
        device saw it (``clocks.core.reconcile``), so that a press that waited in the device's
        queue through a Wi-Fi outage costs its side nothing more, but never more than the
        ``silence`` the server observed on the device's link allows (None: none, the transport
        allowance only; ``clocks.core.hearing``); ``budget_ms`` bounds the game's total
        compensation. ``cap_ms`` is for a player's own device (an online seat), which
        cannot keep the game's time: at most that much is credited per press (lichess's lag
        compensation), and its flags stand.
        """
        side = Side(side)
        if type(press_number) is not int:
            raise TypeError(f"press_number must be an int, got {press_number!r}")
        if measured_ms is not None and (type(measured_ms) is not int or measured_ms < 0):
            raise InvalidAmountError(f"measured_ms must be a whole, non-negative number of ms, "
                                     f"got {measured_ms!r}")
        state, now = self._prepare(now_ms)
        if measured_ms is None:
            ignored = state._press_refusal(side, press_number)
            if ignored is not None:
                return PressResult(self, None, ignored)
            return state._complete_turn(side, now, now, None)
        return state._measured_press(self, side, press_number, now, measured_ms, epoch,
                                     budget_ms, silence, cap_ms)

    def pause(self, now_ms: int) -> ClockState:
        """Stop the running clock, remembering whose turn resumes (and how much of it is gone)."""
        state, now = self._prepare(now_ms)
        state._require_open()
        if state.running is None or state.turn_started_ms is None:
            raise NotRunningError(f"cannot pause: no clock is running ({state.status.value})")
        paused = replace(
            state, paused=True, turn_started_ms=None, turn_elapsed_ms=state._turn_elapsed(now)
        )
        return paused._command(now, Command(CommandKind.PAUSE, now), state)

    def resume(self, now_ms: int) -> ClockState:
        """Restart the paused side's clock where its turn left off."""
        state, now = self._prepare(now_ms)
        state._require_open()
        if not state.paused:
            raise NotPausedError(f"cannot resume: the clock is not paused ({state.status.value})")
        resumed = replace(state, paused=False, turn_started_ms=now)
        return resumed._command(now, Command(CommandKind.RESUME, now), state)

    def adjust(
        self,
        side: Side | str,
        kind: AdjustKind | str,
        amount_ms: int,
        now_ms: int,
        *,
        reason: str,
        turn: Side | str | None = None,
    ) -> ClockState:
        """Add, subtract or set ``side``'s remaining time (arbiter), with a reason.

        Adding time to a flagged side un-flags it; the arbiter must then say with ``turn`` which
        side is to move afterwards. ``turn`` may also be given without an un-flag.
        """
        side, kind = _choice(Side, side, "side"), _choice(AdjustKind, kind, "adjustment kind")
        if turn is not None:
            turn = _choice(Side, turn, "side")
        state, now = self._prepare(now_ms)
        state._require_open()
        reason = _require_reason(reason, "an adjustment")
        if type(amount_ms) is not int or not 0 <= amount_ms <= MAX_ADJUST_MS:
            raise InvalidAmountError(f"the amount must be a whole number of ms from 0 to "
                                     f"{MAX_ADJUST_MS}, got {_shown(amount_ms)}")
        before = state._remaining(side, now)
        after = {"add": before + amount_ms, "subtract": before - amount_ms, "set": amount_ms}[kind]
        if after < 0:
            raise NegativeTimeError(
                f"cannot {kind.value} {amount_ms} ms: {side.value} has {before} ms left"
            )
        clock = state.side(side)
        clock = replace(clock, adjustments_ms=clock.adjustments_ms + after - before)
        unflags = clock.flagged_at_ms is not None and after > 0
        if unflags:
            clock = replace(clock, flagged_at_ms=None)
        if unflags and turn is None:
            raise MissingArgumentError(
                f"un-flagging {side.value} needs the side to move afterwards (turn='A' or 'B')"
            )
        adjusted = state._with(side, clock)
        if turn is not None:
            adjusted = adjusted._hand_turn(Side(turn), now)
        entry = ArbiterAction(kind.value, now, side, after - before, adjusted.turn, reason)
        command = Command(CommandKind.ADJUST, now, side, kind, amount_ms,
                          None if turn is None else Side(turn), reason=reason)
        return replace(adjusted, log=(*adjusted.log, entry))._command(now, command, state)

    def correct(self, turn: Side | str, now_ms: int, *, reason: str) -> ClockState:
        """Give the turn to ``turn`` from now on (a wrong press). Counters are not rewound."""
        turn = _choice(Side, turn, "side")
        state, now = self._prepare(now_ms)
        state._require_open()
        reason = _require_reason(reason, "a correction")
        if turn is state.turn:
            raise NothingToCorrectError(f"{turn.value} already has the turn")
        return state._hand_turn(turn, now)._correction(now, turn, reason, state)

    def _recorded_correction(self, command: Command) -> ClockState:
        """A correction given again to a clock where its side already has the turn
        (``Reconciling.replayed``): kept in the log and counted as the arbiter's command."""
        state, now = self._prepare(command.at_ms)
        state._require_open()
        return state._correction(now, command.turn, command.reason, state)

    def _correction(self, now: int, turn: Side, reason: str, before: ClockState) -> ClockState:
        entry = ArbiterAction("correct", now, None, 0, turn, reason)
        command = Command(CommandKind.CORRECT, now, turn=turn, reason=reason)
        return replace(self, log=(*self.log, entry))._command(now, command, before)

    def finish(
        self,
        kind: FinishKind | str,
        now_ms: int,
        *,
        reason: str = "",
        side: Side | str | None = None,
    ) -> ClockState:
        """Stop the clock for good: the game is completed, ``side`` resigned, or the arbiter ended
        it (a reason is then required). The running turn's time is charged, with no increment."""
        kind = _choice(FinishKind, kind, "finish kind")
        if side is not None:
            side = _choice(Side, side, "side")
        state, now = self._prepare(now_ms)
        state._require_open()
        if kind is FinishKind.RESIGNED and side is None:
            raise MissingArgumentError("a resignation needs the side that resigned")
        if kind is FinishKind.ARBITER:
            reason = _require_reason(reason, "an arbiter's decision")
        ended = state._end_turn(now)
        side = None if side is None else Side(side)
        finish = Finish(kind, now, side, reason.strip())
        command = Command(CommandKind.FINISH, now, side, finish=kind, reason=reason.strip())
        return replace(ended, paused=False, finished=finish)._command(now, command, state)

    # -- persistence ---------------------------------------------------------------------------

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """Everything needed to rebuild this state (``from_dict``), as JSON-able values.

        ``history`` off leaves out the append-only ``presses`` and ``log`` lists, which only
        grow, and the recent commands (a log entry's states: ``clocks.models.compact``),
        instead of building them to be thrown away. The recent commands' state before them is
        kept without its history: it shares the clock's (``RecentCommands``)."""
        data = {
            "time_control": str(self.time_control),
            "a": _fields(self.a), "b": _fields(self.b),
            "turn": _value(self.turn), "paused": self.paused,
            "turn_started_ms": self.turn_started_ms, "turn_elapsed_ms": self.turn_elapsed_ms,
            "started_at_ms": self.started_at_ms, "updated_ms": self.updated_ms,
            "press_number": self.press_number, "version": self.version,
            "epoch": self.epoch, "compensated_ms": self.compensated_ms,
            "compensated_to_ms": self.compensated_to_ms,
            "flag_turn": None if self.flag_turn is None else _fields(self.flag_turn),
        }  # fmt: skip
        if history:
            data["presses"] = [_press_fields(p) for p in self.presses]
            data["log"] = [_fields(e) for e in self.log]
            recent = self.recent_commands
            data["recent_commands"] = None if recent is None else {
                "before": recent.before.to_dict(history=False),
                "commands": [_fields(c) for c in recent.commands],
            }
        data["finished"] = None if self.finished is None else _fields(self.finished)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, history: ClockState | None = None,
                  ) -> ClockState:
        """Rebuild a state saved with ``to_dict`` (KeyError/ValueError on a damaged one).

        States stored before reconciliation existed lack ``epoch``, ``compensated_ms`` and
        ``flag_turn`` and ``compensated_to_ms``, and those stored before the credit bound lack
        ``credited_ms`` and ``recent_commands``: they read as none so far. ``history``: the
        clock whose ``presses`` and ``log`` a state saved without them shares (the state
        before the recent commands)."""
        finish, flag_turn = data["finished"], data.get("flag_turn")
        state = cls(
            time_control=TimeControl.parse(data["time_control"]),
            a=SideClock(**data["a"]), b=SideClock(**data["b"]),
            turn=_side_or_none(data["turn"]), paused=bool(data["paused"]),
            turn_started_ms=data["turn_started_ms"], turn_elapsed_ms=data["turn_elapsed_ms"],
            started_at_ms=data["started_at_ms"], updated_ms=data["updated_ms"],
            press_number=data["press_number"], version=data["version"],
            epoch=data.get("epoch", 0), compensated_ms=data.get("compensated_ms", 0),
            compensated_to_ms=data.get("compensated_to_ms"),
            flag_turn=None if flag_turn is None else TurnRecord(
                **{**flag_turn, "side": Side(flag_turn["side"])}),
            presses=history.presses if history is not None else tuple(
                Press(p["number"], _SIDES[p["side"]], p["at_ms"], p["remaining_ms"])
                for p in data["presses"]),
            log=history.log if history is not None else tuple(
                ArbiterAction(**{**e, "side": _side_or_none(e["side"]),
                                 "turn": _side_or_none(e["turn"])})
                for e in data["log"]
            ),
            finished=None if finish is None else Finish(
                FinishKind(finish["kind"]), finish["at_ms"], _side_or_none(finish["side"]),
                finish["reason"],
            ),
        )  # fmt: skip
        recent = None if history is not None else data.get("recent_commands")
        if recent is None:
            return state
        commands = tuple(_command_from(c) for c in recent["commands"])
        logged = sum(c.kind in (CommandKind.ADJUST, CommandKind.CORRECT) for c in commands)
        if not commands or logged > len(state.log):
            raise ValueError("recent_commands: the commands do not match the clock's log")
        kept = replace(state, log=state.log[:len(state.log) - logged])
        before = cls.from_dict(recent["before"], history=kept)
        return replace(state, recent_commands=RecentCommands(before, commands))

    # -- internals -----------------------------------------------------------------------------

    def _prepare(self, now_ms: int) -> tuple[ClockState, int]:
        """Check and clamp ``now_ms``, then apply every flag due by then."""
        if type(now_ms) is not int:
            raise TypeError(f"now_ms must be an int (milliseconds), got {now_ms!r}")
        now = now_ms if self.updated_ms is None else max(now_ms, self.updated_ms)
        state = self
        while state.running is not None and state.finished is None:
            deadline = state.next_deadline_ms()
            if deadline is None or deadline > now:
                break
            state = state._flag(state.running, deadline)
        return state, now

    def _flag(self, side: Side, at_ms: int) -> ClockState:
        """``side`` runs out at ``at_ms``: its turn ends at zero; the opponent plays alone."""
        clock = self.side(side)
        clock = replace(clock, used_ms=self._allowance(side), flagged_at_ms=at_ms)
        flagged = self._with(side, clock)
        alone = None if flagged.flagged(side.other) else side.other
        started = at_ms if self.turn_started_ms is None else self.turn_started_ms
        record = TurnRecord(side, started, self.turn_elapsed_ms, self.press_number)
        return replace(
            flagged, turn=alone, turn_started_ms=None if alone is None else at_ms,
            turn_elapsed_ms=0,
        )._changed(at_ms, record)  # fmt: skip

    def _hand_turn(self, turn: Side, now: int) -> ClockState:
        """Arbiter: ``turn`` is to move from ``now``; an interrupted turn is charged, no bonus."""
        if self.started_at_ms is None:
            raise NotStartedError("the clock has not started: start() gives A the first turn")
        if self.flagged(turn):
            raise SideFlaggedError(f"{turn.value} is flagged: add time to it before its turn")
        if turn is self.turn:
            return self
        ended = self._end_turn(now)
        return replace(ended, turn=turn, turn_started_ms=None if self.paused else now)

    def _end_turn(self, now: int) -> ClockState:
        """Charge the current turn's cost to its side; nobody's turn is in progress afterwards."""
        ended = self
        if self.turn is not None:
            clock = self.side(self.turn)
            ended = self._with(
                self.turn, replace(clock, used_ms=clock.used_ms + self._turn_cost(now))
            )
        return replace(ended, turn=None, turn_started_ms=None, turn_elapsed_ms=0)

    def _complete_turn(self, side: Side, at: int, now: int,
                       reconciled: Reconciliation | None) -> PressResult:
        """``side``'s turn ends at ``at`` (``now``, or earlier for a reconciled press; never
        before the turn's running stretch began); the next turn starts there too."""
        tc = self.time_control
        clock = self.side(side)
        late = 0 if reconciled is None else reconciled.late_ms
        clock = replace(
            clock,
            used_ms=clock.used_ms + self._turn_cost(at),
            increments_ms=clock.increments_ms + tc.increment_ms,
            credited_ms=clock.credited_ms + late,
        )
        number = self.press_number + 1
        press = Press(number, side, at, self._allowance(side) - clock.used_ms + tc.increment_ms)
        after = replace(
            self._with(side, clock), press_number=number, presses=(*self.presses, press),
            turn=side if self.flagged(side.other) else side.other,
            turn_started_ms=at, turn_elapsed_ms=0, recent_commands=None,
        )  # fmt: skip
        if reconciled is not None and reconciled.late_ms:
            after = replace(after, compensated_ms=self.compensated_ms + reconciled.cost_ms,
                            compensated_to_ms=now)
        return PressResult(after._changed(now), press, None, reconciled)

    def _press_refusal(self, side: Side, press_number: int) -> IgnoredReason | None:
        if self.finished is not None:
            return IgnoredReason.FINISHED
        if self.started_at_ms is None:
            return IgnoredReason.NOT_STARTED
        if self.paused:
            return IgnoredReason.PAUSED
        if press_number != self.press_number:
            return IgnoredReason.STALE if press_number < self.press_number else IgnoredReason.AHEAD
        if self.flagged(side):
            return IgnoredReason.FLAGGED
        return None if side is self.running else IgnoredReason.NOT_YOUR_TURN

    def _require_open(self) -> None:
        if self.finished is not None:
            raise ClockFinishedError(
                f"the clock finished at {self.finished.at_ms} ms ({self.finished.kind.value})"
            )

    def _allowance(self, side: Side) -> int:
        clock = self.side(side)
        return self.time_control.base_ms + clock.increments_ms + clock.adjustments_ms

    def _turn_elapsed(self, now: int) -> int:
        running = 0 if self.turn_started_ms is None else now - self.turn_started_ms
        return self.turn_elapsed_ms + running

    def _turn_cost(self, now: int) -> int:
        """The Bronstein delay makes the first ``delay_ms`` of every turn free."""
        return max(0, self._turn_elapsed(now) - self.time_control.delay_ms)

    def _remaining(self, side: Side, now: int) -> int:
        current = self._turn_cost(now) if side is self.turn else 0
        return self._allowance(side) - self.side(side).used_ms - current

    def _with(self, side: Side, clock: SideClock) -> ClockState:
        return replace(self, a=clock) if side is Side.A else replace(self, b=clock)

    def _changed(self, now: int, flag_turn: TurnRecord | None = None) -> ClockState:
        """Count the change, then apply any flag it made due at once (e.g. a side set to 0).

        Only a flag keeps a ``flag_turn`` (its own): after any other change a late press can no
        longer show that the flagged side pressed in time."""
        changed = replace(self, version=self.version + 1, updated_ms=now, flag_turn=flag_turn)
        return changed._prepare(now)[0]

    def _command(self, now: int, command: Command, before: ClockState) -> ClockState:
        """An arbiter's change (``before``: the clock it was given to): a new epoch, so that a
        press the device made on an older view is told apart, and the command kept with the
        recent ones, so that such a press can be placed before it (``Reconciling._rebase``)."""
        recent = before.recent_commands
        recent = (RecentCommands(before, (command,)) if recent is None
                  else RecentCommands(recent.before, (*recent.commands, command)))
        return replace(self, epoch=self.epoch + 1, recent_commands=recent)._changed(now)


def _choice(enum: type[_E], value: object, what: str) -> _E:
    """``value`` as a member of ``enum``, or an :class:`UnknownChoiceError` naming the choices
    (an arbiter's command comes from a socket: anything may be in it)."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise UnknownChoiceError(f"unknown {what} {_shown(value)} (one of {choices})") from None


def _shown(value: object) -> str:
    """A refused value as an error quotes it: short (and a huge int is not even converted to
    decimal, which Python refuses past 4,300 digits)."""
    if isinstance(value, int) and abs(value) >= 10**27:
        return f"a number of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _require_reason(reason: str, what: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise MissingArgumentError(f"{what} needs a reason, got {reason!r}")
    return reason.strip()


def _value(side: Side | None) -> str | None:
    return None if side is None else side._value_


#: A stored side read back: a dictionary's lookup, not the enum's call (a state holds one per
#: press, and every press reads the state).
_SIDES = {"A": Side.A, "B": Side.B}


def _side_or_none(value: str | None) -> Side | None:
    return None if value is None else _SIDES[value]


def _command_from(data: dict[str, Any]) -> Command:
    return Command(
        CommandKind(data["kind"]), data["at_ms"], _side_or_none(data["side"]),
        None if data["adjust"] is None else AdjustKind(data["adjust"]), data["amount_ms"],
        _side_or_none(data["turn"]),
        None if data["finish"] is None else FinishKind(data["finish"]), data["reason"],
    )


def _press_fields(press: Press) -> dict[str, Any]:
    """``_fields`` of a press, written out: a state holds one per press, and every press
    writes the state."""
    return {"number": press.number, "side": press.side._value_, "at_ms": press.at_ms,
            "remaining_ms": press.remaining_ms}


def _fields(record: Any) -> dict[str, Any]:
    return {
        name: (value.value if isinstance(value, StrEnum) else value)
        for name in record.__slots__
        for value in [getattr(record, name)]
    }
