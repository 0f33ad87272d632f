"""The only code that writes board clocks: lock the row, apply the core, log, broadcast on commit.

Every change follows the same path (``_change``): inside ``transaction.atomic`` the clock row is
locked (``select_for_update``; on SQLite the immediate transaction is the lock), flags that fell
due since the last change are applied at their exact deadlines and logged, the command is handed
to the pure core with the server's time, the new state and a log entry are saved, and only after
the commit is the snapshot sent to the board's group and the round's hall group. A rolled-back
change is therefore never seen by anybody.

The server's time comes from ``now_ms`` only, so tests replace that one function.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clocks import access, groups, hall_feed, links, rows, server_context
from clocks.core import clock as core
from clocks.core.clock import ClockState, IgnoredReason, Press, Reconciliation, Side
from clocks.core.hearing import Silence
from clocks.models import Clock, ClockLogEntry, compact
from tournament.models import Board, Round

FLAG_TIMER = "flag timer"
Action = ClockLogEntry.Action


def now_ms() -> int:
    """The server's time in milliseconds: the one clock every service reads."""
    return time.time_ns() // 1_000_000


class ClockRefused(Exception):
    """A clock command that cannot be carried out; the message is shown to the person."""


@dataclass(frozen=True)
class Outcome:
    """What a command did: the snapshot to show; for a press its record or why it was ignored."""

    snapshot: dict[str, Any]
    changed: bool
    press: Press | None = None
    ignored: IgnoredReason | None = None
    reconciled: Reconciliation | None = None


def refusal_message(error: core.ClockError) -> str:
    """A translated sentence for a refused arbiter command (the core's own text is for logs)."""
    messages = {
        core.AlreadyStartedError: _("The clock has already started."),
        core.NotStartedError: _("The clock has not started yet."),
        core.NotRunningError: _("No clock is running."),
        core.NotPausedError: _("The clock is not paused."),
        core.ClockFinishedError: _("This clock is finished."),
        core.NegativeTimeError: _("That would leave a side with less than zero time."),
        core.InvalidAmountError: _("The amount must be a whole number of milliseconds from 0 to "
                                   "%(limit)s (one day).") % {"limit": f"{core.MAX_ADJUST_MS:,}"},
        core.UnknownChoiceError: _("Unknown side or kind: the side is A or B; an adjustment "
                                   "is add, subtract or set; a finish is completed, resigned "
                                   "or arbiter."),
        core.MissingArgumentError: _("A reason (and, where needed, the side) is required."),
        core.SideFlaggedError: _("That side's time has run out: add time to it first."),
        core.NothingToCorrectError: _("That side already has the turn."),
    }
    return messages.get(type(error), _("The clock refused this command."))


def ignored_message(reason: IgnoredReason) -> str:
    """Why a press changed nothing, for the players' screen."""
    return {
        IgnoredReason.FINISHED: _("The clock is finished."),
        IgnoredReason.NOT_STARTED: _("The clock has not been started yet."),
        IgnoredReason.PAUSED: _("The clock is paused."),
        IgnoredReason.STALE: _("That press arrived after another one and was ignored."),
        IgnoredReason.AHEAD: _("That press did not match the clock and was ignored."),
        IgnoredReason.FLAGGED: _("This side's time has run out."),
        IgnoredReason.NOT_YOUR_TURN: _("It is not this side's turn."),
        IgnoredReason.DUPLICATE: _("That press was counted already."),
        IgnoredReason.ARBITER: _("The arbiter changed the clock after this press was made, so "
                                 "it was not counted."),
    }[reason]


def refusal_text(reason: IgnoredReason, rec: Reconciliation | None) -> str:
    """Why a press the device measured was not counted, for the players' screen: as
    ``ignored_message``, and for a press its device made before the flag fell, that too."""
    if reason is IgnoredReason.FLAGGED and rec is not None and rec.before_flag:
        return _("This side's time ran out on the server before this press arrived, though "
                 "this device made it before the flag fell: a fallen flag stands. The arbiter "
                 "has been told and may give the time back.")
    return ignored_message(reason)


def reconciliation_text(number: int, rec: Reconciliation) -> str:
    """The line the hall shows for a press the device measured (the log keeps its numbers)."""
    values = {"n": number, "measured": rec.measured_ms / 1000, "late": rec.late_ms / 1000,
              "claimed": rec.claimed_ms / 1000, "commands": rec.before_commands}
    if rec.dated == "budget" and not rec.late_ms:
        text = _("press %(n)d, measured by the board: %(measured).1f s, dated on arrival: the "
                 "game's compensation budget is used up") % values
    elif rec.dated == "budget":
        text = _("press %(n)d, measured by the board: %(measured).1f s, %(claimed).1f s late, "
                 "credited %(late).1f s: the rest of the game's compensation budget") % values
    elif rec.dated == "heard":
        text = _("press %(n)d, measured by the board: %(measured).1f s, claimed %(claimed).1f s "
                 "late, credited %(late).1f s: the server heard the board until then") % values
    elif rec.dated == "arrival":
        text = _("press %(n)d, measured by the board: %(measured).1f s, on time") % values
    else:
        text = _("press %(n)d, measured by the board: %(measured).1f s, arrived %(late).1f s "
                 "late") % values
    if rec.before_commands:
        text += ngettext(", placed before the command the arbiter gave meanwhile",
                         ", placed before the %(commands)d commands the arbiter gave meanwhile",
                         rec.before_commands) % values
    if rec.before_flag:
        text += _(": the board made it before the flag fell, but a fallen flag stands; the "
                  "arbiter may give the time back")
    return text


# --- reading ------------------------------------------------------------------------------


def _new_state(board: Board) -> ClockState:
    return ClockState.new(board.round.event.time_control)


def clock_for(board: Board) -> Clock:
    """The board's clock row, created (not started) with the event's time control if missing."""
    if board.is_bye:
        raise ClockRefused(_("A bye has no clock."))
    clock = Clock.objects.filter(board_id=board.pk).first()
    if clock is not None:
        return clock
    clock = Clock(board=board)
    clock.store(_new_state(board))
    with transaction.atomic():
        clock, _created = Clock.objects.get_or_create(
            board=board, defaults={"state": clock.state, "version": clock.version}
        )
    return clock


def ensure_clocks(round_: Round) -> list[Clock]:
    """Every non-bye board of the round with its clock (created where missing), by board number."""
    boards = round_.boards.select_related("round__event", "clock").filter(second__isnull=False)
    clocks = []
    for board in boards:
        clocks.append(getattr(board, "clock", None) or clock_for(board))
    return clocks


def payload(board: Board, state: ClockState, now: int) -> dict[str, Any]:
    """The snapshot clients get: the core's snapshot plus which board it belongs to."""
    return {**state.snapshot(now), "board": board.pk, "board_number": board.number}


def _stored_state(board: Board) -> ClockState:
    """The board's stored clock, or the fresh one it would get: reading creates no row."""
    clock = getattr(board, "clock", None)
    return clock.core if clock is not None else _new_state(board)


def snapshot(board: Board, now: int | None = None) -> dict[str, Any]:
    """The board's clock as of now (due flags shown, not yet stored: that is the timer's job)."""
    if board.is_bye:
        raise ClockRefused(_("A bye has no clock."))
    board = Board.objects.select_related("round__event", "clock").get(pk=board.pk)
    return payload(board, _stored_state(board), now_ms() if now is None else now)


def round_snapshots(round_: Round, now: int | None = None) -> list[dict[str, Any]]:
    """Snapshots of every clock of a round, for the hall page and the hall socket."""
    now = now_ms() if now is None else now
    boards = (round_.boards.select_related("round__event", "clock")
              .filter(second__isnull=False).order_by("number"))
    return [{**payload(board, _stored_state(board), now), "link": _link(board)}
            for board in boards]


def _link(board: Board) -> dict[str, Any]:
    clock = getattr(board, "clock", None)
    return links.public({}) if clock is None else links.public(clock.link, clock.holder)


def presses(board: Board) -> list[Press]:
    """Every accepted press of the board's clock in order: number, side, server time, time left.

    A game record takes its move times from here (``Press.at_ms`` and ``remaining_ms``).
    """
    clock = Clock.objects.filter(board_id=board.pk).first()
    return [] if clock is None else list(clock.core.presses)


# --- writing ------------------------------------------------------------------------------

Change = Callable[[ClockState, int], tuple[ClockState, dict[str, Any]]]


def _locked(board: Board, vet: access.PressVet | None = None) -> Clock:
    """The board's clock row, locked until the transaction ends (created first if missing).

    Only the clock row is locked: joining the board and round here would lock the round's row
    too (PostgreSQL locks every joined row) and make every press of a round wait for the others.
    ``vet``: the device's right to press, read by the same statement; refused, nothing is done.
    """
    columns = () if vet is None else vet.columns
    clock, values = rows.lock(board.pk, columns)
    if clock is None:
        clock_for(board)
        clock, values = rows.lock(board.pk, columns)
    refusal = None if vet is None else vet.refusal(board.pk, values, clock.holder,
                                                    clock.holder_since_ms)
    if refusal:
        raise ClockRefused(refusal)
    clock.board = board
    return clock


def _entry(action: str, who: str, user, now: int, before: ClockState, after: ClockState,
           detail: dict[str, Any]) -> rows.LogRow:
    return rows.LogRow(action, who, user.pk if _is_user(user) else None, now, after.version,
                       compact(before), compact(after), detail)


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _apply(before: ClockState, action: str, who: str, user, now: int, change: Change | None,
           entries: list[rows.LogRow]) -> tuple[ClockState, dict[str, Any]]:
    """Flags due first (logged as the flag timer's), then ``change``; returns the new state."""
    seen = before.at(now)
    if seen.version != before.version:
        flags = {s.value: seen.side(s).flagged_at_ms for s in Side if seen.flagged(s)}
        entries.append(_entry(Action.FLAG, FLAG_TIMER, None, now, before, seen,
                              {"flags": flags}))
    if change is None:
        return seen, {}
    try:
        after, detail = change(seen, now)
    except core.ClockError as error:
        raise ClockRefused(refusal_message(error)) from error
    if after.version != seen.version:
        public = {k: v for k, v in detail.items() if not k.startswith("_")}
        entries.append(_entry(action, who, user, now, seen, after, public))
    return after, detail


def _save(clock: Clock, state: ClockState, entries: list[rows.LogRow]) -> None:
    if not entries:
        return
    clock.store(state)
    rows.save(clock, entries)


class HeldClock:
    """A board's clock locked until the caller's transaction ends, at one instant.

    The flags that fell due are applied on taking it; then any number of commands change the
    same row (an online move reads the flags, presses, and at the end finishes, under one
    lock). ``store`` saves what changed since the last ``store``; the snapshot as it stands
    at the commit is published once. Every single command below is a held clock of one change.
    """

    def __init__(self, board: Board, arrived_ms: int | None = None,
                 vet: access.PressVet | None = None) -> None:
        self.clock = _locked(board, vet)
        self.now = now_ms() if arrived_ms is None else arrived_ms
        self.pending: list[rows.LogRow] = []
        self.changed = False
        self._snapshot: tuple[ClockState, dict[str, Any]] | None = None
        self.state, _detail = _apply(self.clock.core, Action.FLAG, FLAG_TIMER, None, self.now,
                                     None, self.pending)

    @property
    def snapshot(self) -> dict[str, Any]:
        """The snapshot of the state as it stands, built once per state: a press's outcome,
        its answer and its publication share it (read only)."""
        if self._snapshot is None or self._snapshot[0] is not self.state:
            self._snapshot = (self.state, payload(self.clock.board, self.state, self.now))
        return self._snapshot[1]

    def change(self, action: str, who: str, user, change: Change) -> Outcome:
        logged = len(self.pending)
        self.state, detail = _apply(self.state, action, who, user, self.now, change,
                                    self.pending)
        return Outcome(self.snapshot, len(self.pending) > logged, detail.get("_press"),
                       detail.get("_ignored"), detail.get("_reconciled"))

    def press(self, side: Side | str, press_number: int, *, who: str,
              measured: Measured | None = None) -> Outcome:
        """A press under the held lock; ``measured`` as for ``press`` below (an online seat's
        reported move time, with its cap)."""
        budget_ms = 0 if measured is None else _budget_ms(self.clock.board)
        change = _press_change(Side(side), press_number, measured, budget_ms)
        return self.change(Action.PRESS, who, None, change)

    def correct(self, turn: Side | str, *, reason: str, who: str) -> Outcome:
        return self.change(Action.CORRECT, who, None, _correct_change(turn, reason))

    def finish(self, kind: str, *, who: str, reason: str = "",
               side: Side | str | None = None) -> Outcome:
        return self.change(Action.FINISH, who, None, _finish_change(kind, reason, side))

    def store(self) -> None:
        """Save the changes made since the last ``store``."""
        if self.pending:
            _save(self.clock, self.state, self.pending)
            self.pending = []
            self.changed = True

    def publish(self, **attached: Any) -> None:
        """After the commit, send the snapshot as it stands then, if anything was stored or
        something is ``attached``: fields added to the board group's message only (an online
        move's views, which every socket of the board gets in the same message)."""
        if not (self.changed or attached):
            return
        board = self.clock.board
        transaction.on_commit(
            lambda: publish([(board.pk, board.round_id, self.snapshot)],
                            attached={board.pk: attached}),
            robust=True)


def _change(board: Board, action: str, who: str, user, change: Change | None,
            arrived_ms: int | None = None, vet: access.PressVet | None = None) -> Outcome:
    """One command under the clock's lock, dated ``arrived_ms`` when the caller noted when it
    arrived (a press: not when its transaction got the lock, which the flag rule would read)."""
    with transaction.atomic():
        held = HeldClock(board, arrived_ms, vet)
        done = None if change is None else held.change(action, who, user, change)
        held.store()
        held.publish()
    if done is None:
        return Outcome(held.snapshot, held.changed)
    return Outcome(held.snapshot, held.changed, done.press, done.ignored, done.reconciled)


def _publish_on_commit(items: list[tuple[Board, dict[str, Any]]]) -> None:
    messages = [(b.pk, b.round_id, snap) for b, snap in items]
    transaction.on_commit(lambda: publish(messages), robust=True)




def publish(messages: Iterable[tuple[int, int, dict[str, Any]]],
            attached: dict[int, dict[str, Any]] | None = None) -> None:
    """Send snapshots to their board groups and, gathered a few times a second, to their
    rounds' hall views (``clocks.hall_feed``), after the commit; wake the timer. ``attached``:
    per board id, fields added to the board group's message (not the hall's).

    Inside a server the sending is handed to the server's event loop without waiting for it:
    the database thread, which every consumer of the process shares, goes on with the next
    command instead of waiting for the channel layer. Clients order snapshots by version, so
    sends that overtake each other do no harm. Elsewhere (commands, the separate flag timer,
    sync tests) it sends and waits.
    """
    messages = list(messages)
    attached = attached or {}
    events, halls = [], {}
    for board_id, round_id, snap in messages:
        text = snapshot_json(snap)
        # the text only, and the version to order by: every receiving worker decodes the
        # message, and no socket needs the snapshot as a dictionary
        events.append((groups.BOARD.name(board_id), {
            "type": "clock.snapshot", "version": snap["version"], "json": text,
            **attached.get(board_id, {})}))
        halls.setdefault(round_id, []).append((board_id, snap["version"], text))
    groups.broadcast(events)
    hall_feed.send(halls)
    deadlines = [snap["deadline_ms"] for _b, _r, snap in messages if snap["deadline_ms"]]
    server_context.notify(min(deadlines, default=None))


def snapshot_json(snap: dict[str, Any]) -> str:
    """A snapshot as JSON text, encoded once per change: every socket of the board and every
    hall view sends this text as it is (``clocks.consumers``) instead of encoding the same
    snapshot again, up to eight times a press."""
    return json.dumps(snap, separators=(",", ":"))


# --- the commands -------------------------------------------------------------------------


def _require_live_round(board: Board) -> None:
    if board.round.status == Round.Status.DRAFTED:
        raise ClockRefused(_("Round %(n)d is not published yet.") % {"n": board.round.number})


def start(board: Board, *, who: str, user=None) -> Outcome:
    _require_live_round(board)
    return _change(board, Action.START, who, user, lambda s, now: (s.start(now), {}))


@dataclass(frozen=True)
class Measured:
    """What a device sent with a press: the turn's running time on its own clock and, from the
    board's device, the arbiter epoch of its last snapshot; what the server observed of the
    device's link: the ``silence`` whose burst the press is in (None: none, the press gets the
    transport allowance; ``clocks.core.hearing``), counted for the device keeping the clock
    only from when it took it (``press``); ``cap_ms`` for a player's own device (an online
    seat: lag compensation, at most that much per press). See ``ClockState.press``."""

    elapsed_ms: int
    epoch: int | None = None
    cap_ms: int | None = None
    silence: Silence | None = None


#: An online seat's lag is credited up to this much per move (lichess credits about as much).
ONLINE_LAG_CAP_MS = 1_000


def _press_change(side: Side, press_number: int, measured: Measured | None = None,
                  budget_ms: int = 0, vet: access.PressVet | None = None) -> Change:
    """The press as a change of the locked clock. From the board's device (``vet``), the
    silence counts only from when the device took the clock, as the lock read it: a device
    that watched before taking the clock over was not its keeper's silence."""

    def change(state: ClockState, now: int):
        silence = None if measured is None else measured.silence
        if silence is not None and vet is not None and vet.guarded:
            silence = silence.since(vet.holder_since_ms)
        if measured is None:
            result = state.press(side, press_number, now)
        else:
            result = state.press(side, press_number, now, measured_ms=measured.elapsed_ms,
                                 epoch=measured.epoch, budget_ms=budget_ms,
                                 silence=silence, cap_ms=measured.cap_ms)
        rec = result.reconciled
        if result.press is None:
            return result.state, {"_ignored": result.ignored, "_reconciled": rec}
        p = result.press
        detail: dict[str, Any] = {
            "press": {"number": p.number, "side": p.side.value, "at_ms": p.at_ms,
                      "remaining_ms": p.remaining_ms},
            "_press": p, "_reconciled": rec,
        }
        if rec is not None:
            detail["reconciled"] = {
                "measured_ms": rec.measured_ms, "late_ms": rec.late_ms,
                "dated": rec.dated.value, "budget_used_ms": rec.cost_ms,
                "claimed_ms": rec.claimed_ms, "epoch": measured.epoch,
                "silence_ms": None if silence is None else [silence.from_ms, silence.to_ms],
                "before_commands": rec.before_commands,
            }
        return result.state, detail

    return change


def press(board: Board, side: Side | str, press_number: int, *, who: str, user=None,
          measured: Measured | None = None, arrived_ms: int | None = None,
          vet: access.PressVet | None = None) -> Outcome:
    """``side`` ends its turn; ``press_number`` is the last press number its client saw.

    Ignored presses (duplicates, delayed, out of turn) change nothing and are not logged; the
    outcome says why, so the client can show it and resync from the snapshot. A press
    ``measured`` by the board's device is reconciled within the event's compensation budget
    (docs/clock.md); ``arrived_ms`` is when it reached the server. ``vet``: the board device's
    right to press, checked under the lock (``ClockRefused`` with the guard's reason,
    ``TokenRefused``).
    """
    change = _press_change(Side(side), press_number, measured, _budget_ms(board), vet)
    outcome = _change(board, Action.PRESS, who, user, change, arrived_ms, vet)
    if links.worth_a_look(outcome.reconciled):
        links.mark(board.pk, board.round_id,
                   reconciliation_text(press_number + 1, outcome.reconciled))
    return outcome


def _budget_ms(board: Board) -> int:
    """The game's compensation budget: the event's setting (``Event.clock_compensation_s``)."""
    return board.round.event.clock_compensation_s * 1000


def pause(board: Board, *, who: str, user=None) -> Outcome:
    return _change(board, Action.PAUSE, who, user, lambda s, now: (s.pause(now), {}))


def resume(board: Board, *, who: str, user=None) -> Outcome:
    return _change(board, Action.RESUME, who, user, lambda s, now: (s.resume(now), {}))


def adjust(board: Board, side: Side | str, kind: str, amount_ms: int, *, reason: str, who: str,
           user=None, turn: Side | str | None = None) -> Outcome:
    detail = {"side": str(side), "kind": str(kind), "amount_ms": amount_ms, "reason": reason,
              "turn": None if turn is None else str(turn)}

    return _change(board, Action.ADJUST, who, user, lambda s, now: (
        s.adjust(side, kind, amount_ms, now, reason=reason, turn=turn), detail))


def _correct_change(turn: Side | str, reason: str) -> Change:
    detail = {"turn": str(turn), "reason": reason}
    return lambda s, now: (s.correct(turn, now, reason=reason), detail)


def correct(board: Board, turn: Side | str, *, reason: str, who: str, user=None) -> Outcome:
    return _change(board, Action.CORRECT, who, user, _correct_change(turn, reason))


def _finish_change(kind: str, reason: str, side: Side | str | None) -> Change:
    detail = {"kind": str(kind), "reason": reason, "side": None if side is None else str(side)}
    return lambda s, now: (s.finish(kind, now, reason=reason, side=side), detail)


def finish(board: Board, kind: str, *, who: str, user=None, reason: str = "",
           side: Side | str | None = None) -> Outcome:
    return _change(board, Action.FINISH, who, user, _finish_change(kind, reason, side))


def _game_over(state: ClockState, now: int) -> ClockState:
    """A started clock still open is finished as completed; any other is left as it is."""
    if state.started_at_ms is None or state.finished is not None:
        return state
    return state.finish("completed", now)


def stop_for_result(board: Board, *, who: str) -> Outcome | None:
    """A result was stored for ``board``: its game is over, so its clock stops (a clock that
    never started or has finished stays as it is). Clocks another app drives (online games,
    ``access.press_refusal``) are stopped by that app with its last move, not here."""
    if board.is_bye or access.press_refusal(board.pk) is not None:
        return None
    return _change(board, Action.FINISH, who, None,
                   lambda s, now: (_game_over(s, now), {"kind": "completed", "reason": who}))


def on_result_stored(sender, *, event, result, **kwargs) -> None:
    """``tournament.signals.result_stored``: a stored result ends the game (a resignation, a
    confirmed scoresheet, the arbiter's entry), so the board's clock stops in the same
    transaction."""
    stop_for_result(result.board, who="result")


def on_round_closed(sender, *, event, number, **kwargs) -> None:
    """``tournament.signals.round_closed``: nothing of a closed round keeps ticking, whatever
    its boards' results said."""
    stop_round(event.rounds.get(number=number), who="round closed")


def hold(board: Board, from_ms: int, to_ms: int, *, who: str, reason: str) -> Outcome:
    """The clock did not run from ``from_ms`` to ``to_ms`` (the server was down: nobody could
    play): the flags that fell while the server was up are stored, then the running clock is
    paused at ``from_ms`` and resumed at ``to_ms``, with ``reason`` in the log. A clock that was
    not running then is left as it is."""
    with transaction.atomic():
        held = HeldClock(board, from_ms)  # flags due while the server was alive: stored
        state = held.state
        if state.running is not None and not state.paused and state.finished is None:
            detail = {"reason": reason, "held_ms": to_ms - from_ms}
            held.change(Action.PAUSE, who, None, lambda s, now: (s.pause(now), detail))
            held.now = to_ms
            held.change(Action.RESUME, who, None, lambda s, now: (s.resume(now), detail))
        held.store()
        held.publish()
    return Outcome(held.snapshot, held.changed)


def apply_flags(board: Board) -> Outcome:
    """Store the flags that fell due (the flag timer's write), each at its exact deadline."""
    return _change(board, Action.FLAG, FLAG_TIMER, None, None)


# --- whole rounds -------------------------------------------------------------------------


def _round_change(round_: Round, action: str, who: str, user,
                  change: Callable[[ClockState, int], ClockState | None],
                  create: bool = True) -> int:
    """Apply ``change`` to every clock of the round at one instant; boards it does not concern
    (``change`` returns None) are left alone. Returns how many clocks changed. ``create``:
    give boards without a clock row theirs first (a command that only stops clocks need not)."""
    if round_.status == Round.Status.DRAFTED:
        raise ClockRefused(_("Round %(n)d is not published yet.") % {"n": round_.number})
    if create:
        ensure_clocks(round_)
    changed: list[tuple[Board, dict[str, Any]]] = []
    with transaction.atomic():
        clocks = list(
            Clock.objects.select_for_update(of=("self",)).select_related("board__round")
            .filter(board__round=round_).order_by("pk")
        )
        now = now_ms()
        for clock in clocks:
            entries: list[rows.LogRow] = []

            def step(state: ClockState, at: int):
                after = change(state, at)
                return (state if after is None else after), {"round": round_.number}

            state, _detail = _apply(clock.core, action, who, user, now, step, entries)
            _save(clock, state, entries)
            if entries:
                changed.append((clock.board, payload(clock.board, state, now)))
        _publish_on_commit(changed)
    return len(changed)


def start_round(round_: Round, *, who: str, user=None) -> int:
    """Start every clock of the round that has not started, all at the same millisecond."""
    return _round_change(round_, Action.START, who, user,
                         lambda s, now: s.start(now) if s.started_at_ms is None else None)


def pause_round(round_: Round, *, who: str, user=None) -> int:
    """Pause every running clock of the round."""
    return _round_change(round_, Action.PAUSE, who, user,
                         lambda s, now: s.pause(now) if s.running is not None else None)


def stop_round(round_: Round, *, who: str, user=None) -> int:
    """Stop every started clock of the round for good (the hall's "Stop all clocks", and a
    closed round: its games are over, nothing of it may keep ticking)."""
    return _round_change(round_, Action.FINISH, who, user,
                         lambda s, now: None if s.started_at_ms is None or s.finished
                         else s.finish("completed", now), create=False)


def resume_round(round_: Round, *, who: str, user=None) -> int:
    """Resume every paused clock of the round."""
    return _round_change(round_, Action.RESUME, who, user,
                         lambda s, now: s.resume(now) if s.paused and s.finished is None else None)
