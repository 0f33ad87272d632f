"""Presses the board's device measured: placed on the server's timeline where the device saw
them, within what the server itself observed.

The board page keeps time through a lost connection and sends each press with ``measured_ms``,
the running time of the turn it ends on the device's clock, and ``epoch``, the arbiter epoch of
the device's last snapshot (``ClockState.press``). The server dates the press ``late`` ms before
its arrival, where the device saw it, but never trusts the device beyond what it observed:

- **Silence.** The credit is at most the transport allowance plus the silence the server
  observed on the device's link beyond the page's heartbeat (``clocks.core.hearing``,
  ``Silence``): a device heard at the page's pace gets about a second, however much it claims
  (``Dated.HEARD``).
- **Budget.** Each game has a compensation budget (``budget_ms``); a press is credited what is
  left of it (``Dated.BUDGET``: partially, or on arrival when nothing is left). Presses queued
  through one outage arrive together and share its time (``budget_cost``).
- **Arbiter's commands.** A press whose epoch is behind the clock's was made on a view older
  than the arbiter's last commands (a pause, an adjustment in the hall during an outage). If
  the device made it before the first of them (its time mapped onto the server's as above), it
  is placed there and the commands are given again after it (``rebase``); if after, it is
  refused (``IgnoredReason.ARBITER``): the command was given on a stale view of the board,
  and the device's later presses on a view the command changed.
- **Flags.** A fallen flag is final: no press lifts it (only the arbiter's adjustment does). A
  late press of the flagged side whose device ended the turn before the deadline, with the
  bounds above still dating it there, is refused all the same, and says so
  (``Reconciliation.before_flag``) for the arbiter to judge.

docs/clock.md, "Presses the board's device measured", has the worked numbers.

These rules are methods of the clock's state (``ClockState`` in ``clocks.core.clock`` mixes in
:class:`Reconciling`): they read its presses, flags and recent commands and build the state
after a press with its own private steps, so they belong to it; they live here, apart from
the clock's ordinary commands, because they are a subject of their own. The clock imports
this module, never the other way round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Self

from clocks.core.clock_types import (
    AdjustKind,
    ClockError,
    Command,
    CommandKind,
    Dated,
    IgnoredReason,
    PressResult,
    Reconciliation,
    Side,
)
from clocks.core.hearing import Silence, credit_bound

__all__ = ["Reconciling"]


class Reconciling:
    """The measured press, mixed into ``ClockState`` (every ``self`` below is one)."""

    __slots__ = ()

    def _measured_press(self, original: Self, side: Side, press_number: int, now: int,
                        measured: int, epoch: int | None, budget_ms: int,
                        silence: Silence | None, cap_ms: int | None) -> PressResult:
        """A press with the device's measurement of its turn, on this state (``original``
        with the flags due by ``now`` applied; ``original`` is returned unchanged when it is
        refused)."""
        state = self
        if 0 <= press_number < min(state.press_number, len(state.presses)) and (
                state.presses[press_number].side is side):
            return PressResult(original, None, IgnoredReason.DUPLICATE)  # a resent press
        if state.finished is not None:
            return PressResult(original, None, IgnoredReason.FINISHED)
        if state.started_at_ms is None:
            return PressResult(original, None, IgnoredReason.NOT_STARTED)
        if epoch is not None and epoch != state.epoch:
            return state._rebase(original, side, press_number, now, measured, epoch, budget_ms,
                                 silence)
        if state.paused:
            return PressResult(original, None, IgnoredReason.PAUSED)
        if press_number != state.press_number:
            reason = (IgnoredReason.STALE if press_number < state.press_number
                      else IgnoredReason.AHEAD)
            return PressResult(original, None, reason)
        if state.flagged(side):
            return state._late_for_the_flag(original, side, press_number, now, measured,
                                            budget_ms, silence, cap_ms)
        if side is not state.running:
            return PressResult(original, None, IgnoredReason.NOT_YOUR_TURN)
        measured = max(measured, state.turn_elapsed_ms)
        claimed = max(0, state._turn_elapsed(now) - measured)
        late, dated, cost = state._credit(claimed, now, budget_ms, silence, cap_ms)
        return state._complete_turn(side, now - late, now, Reconciliation(
            measured, late, dated, cost, claimed_ms=claimed))

    def budget_cost(self, late: int, now: int) -> int:
        """The budget a press dated ``late`` ms before its arrival at ``now`` uses: the part of
        ``[now - late, now]`` that no earlier reconciled press covered (they cover up to their
        arrival, ``compensated_to_ms``). Presses queued through one outage arrive together and
        share its time, so the budget bounds the outage time credited, not the press count."""
        covered = 0 if self.compensated_to_ms is None else self.compensated_to_ms - (now - late)
        return late - min(late, max(0, covered))

    def _credit(self, claimed: int, now: int, budget_ms: int, silence: Silence | None,
                cap_ms: int | None) -> tuple[int, Dated, int]:
        """How much earlier than its arrival a press that ``claimed`` so much is dated, why,
        and what it costs the budget: at most the silence observed (or the allowance;
        ``cap_ms`` for an online seat), then at most what is left of the budget (the budget's
        cost of ``late`` is ``min(late, time since the last covered arrival)``, so crediting
        what is left costs exactly that)."""
        if claimed == 0:
            return 0, Dated.ARRIVAL, 0
        late, dated = claimed, Dated.DEVICE
        bound = credit_bound(silence)
        if cap_ms is not None:
            bound = min(bound, cap_ms)
        if late > bound:
            late, dated = bound, Dated.HEARD
        left = max(0, budget_ms - self.compensated_ms)
        cost = self.budget_cost(late, now)
        if cost > left:
            late, dated, cost = left, Dated.BUDGET, left
        return late, dated, cost

    def _late_for_the_flag(self, original: Self, side: Side, press_number: int, now: int,
                           measured: int, budget_ms: int, silence: Silence | None,
                           cap_ms: int | None) -> PressResult:
        """A late press of the side the server flagged: refused, since a fallen flag is final
        (the arbiter's adjustment alone gives time back). When the device ended that turn
        before the deadline and the bounds above would date the press there too
        (``flag_turn``: nothing was played after the flag), the refusal says so
        (``before_flag``), for the arbiter to judge."""
        record = self.flag_turn
        if (record is None or record.side is not side or record.press_number != press_number
                or cap_ms is not None):
            return PressResult(original, None, IgnoredReason.FLAGGED)
        deadline = self.side(side).flagged_at_ms or 0
        at_deadline = record.elapsed_ms + deadline - record.started_ms
        measured = max(measured, record.elapsed_ms)
        if measured >= at_deadline:  # the device's own timeline agrees
            return PressResult(original, None, IgnoredReason.FLAGGED,
                               Reconciliation(measured, 0, Dated.ARRIVAL))
        claimed = now - deadline + at_deadline - measured
        late, dated, _cost = self._credit(claimed, now, budget_ms, silence, None)
        return PressResult(original, None, IgnoredReason.FLAGGED, Reconciliation(
            measured, late, dated, claimed_ms=claimed, before_flag=now - late < deadline))

    def _rebase(self, original: Self, side: Side, press_number: int, now: int, measured: int,
                epoch: int, budget_ms: int, silence: Silence | None) -> PressResult:
        """A press made on the device's view at ``epoch``, before the arbiter's later commands
        reached it: placed before the first command it had not seen when the device made it
        before that command (and the bounds allow it), the commands then given again at their
        times; refused as ``ARBITER`` otherwise.

        The clock keeps the commands given since its last press with the state before them
        (``ClockState.recent_commands``), so the device's view is that state with the
        commands it had seen given again. The result is one change of this state (its version
        + 1), and still keeps the unseen commands, so that the device's next queued press is
        placed the same way.
        """
        state = self
        refused = PressResult(original, None, IgnoredReason.ARBITER)
        recent = state.recent_commands
        if recent is None or not recent.before.epoch <= epoch < state.epoch:
            return refused
        seen = epoch - recent.before.epoch
        try:
            view = recent.before.replayed(recent.commands[:seen])
        except ClockError:
            return refused
        unseen = recent.commands[seen:]
        first = unseen[0].at_ms
        at_first = view.at(first)  # the device's view, as the server would have seen it then
        refusal = at_first._press_refusal(side, press_number)
        if refusal is IgnoredReason.AHEAD:  # a press after one the command made it miss
            return refused
        if refusal is not None:
            return PressResult(original, None, refusal)
        measured = max(measured, at_first.turn_elapsed_ms)
        elapsed = at_first._turn_elapsed(first)
        if measured >= elapsed:  # the device's turn had not ended when the command came
            return refused
        claimed = now - first + elapsed - measured
        late, dated, _cost = state._credit(claimed, now, budget_ms, silence, None)
        if now - late >= first:
            return refused
        pressed = view.press(side, press_number, now - late)
        if pressed.press is None:
            return PressResult(original, None, pressed.ignored)
        late = now - pressed.press.at_ms
        try:
            after = pressed.state.replayed(unseen).at(now)
        except ClockError:
            return refused
        if any(state.flagged(s) and after.side(s).flagged_at_ms != state.side(s).flagged_at_ms
               for s in Side):  # a fallen flag is final: the press would have lifted it
            return PressResult(original, None, IgnoredReason.FLAGGED, Reconciliation(
                measured, late, dated, claimed_ms=claimed, before_commands=len(unseen),
                before_flag=True))
        cost = state.budget_cost(late, now)
        rec = Reconciliation(measured, late, dated, cost, claimed_ms=claimed,
                             before_commands=len(unseen))
        clock = after.side(side)
        after = after._with(side, replace(clock, credited_ms=state.side(side).credited_ms + late))
        after = replace(after, version=state.version + 1,
                        updated_ms=max(now, after.updated_ms or 0),
                        compensated_ms=state.compensated_ms + cost,
                        compensated_to_ms=now if late else state.compensated_to_ms)
        return PressResult(after, pressed.press, None, rec)

    def replayed(self, commands: tuple[Command, ...]) -> Self:
        """This state with ``commands`` given again at their own times (``ClockError`` when
        one can no longer be given). A correction to the side that already has the turn is
        kept as given: what the arbiter wanted is the case."""
        state = self
        for command in commands:
            state = state._given(command)
        return state

    def _given(self, command: Command) -> Self:
        at, kind = command.at_ms, command.kind
        if kind is CommandKind.START:
            return self.start(at)
        if kind is CommandKind.PAUSE:
            return self.pause(at)
        if kind is CommandKind.RESUME:
            return self.resume(at)
        if kind is CommandKind.ADJUST:
            return self.adjust(command.side, command.adjust or AdjustKind.ADD, command.amount_ms,
                               at, reason=command.reason, turn=command.turn)
        if kind is CommandKind.CORRECT:
            if command.turn is self.at(at).turn:
                return self._recorded_correction(command)
            return self.correct(command.turn, at, reason=command.reason)
        return self.finish(command.finish, at, reason=command.reason, side=command.side)
