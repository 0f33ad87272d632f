"""The live scoresheet: players enter each action at the board, the engine checks it at once.

The server keeps the action list (``LiveGame``); every entry replays the list with the engine,
applies the new action and stores it only if the engine accepts it. Each placement remembers
the clock's press number at the moment of entry, and clock times are attached to the record
from the board's presses when the game is confirmed. The press numbers also time a swap: it is
accepted only before the seat's press that ends its turn. When both players confirm the finished
game, the record is built from the entries and submitted like any other record.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clocks import services as clock_services
from clocks.core.clock import ClockState
from clocks.models import Clock
from games import services as game_services
from games.engine import EngineError, Game, format_record, parse_record, replay
from games.engine_messages import engine_text
from games.models import LiveGame
from tournament.models import Board

SEATS = ("A", "B")


class LiveRefused(Exception):
    """An entry the engine or the board's state does not allow; nothing was stored."""


@dataclass(frozen=True)
class LiveState:
    version: int
    actions: list[dict[str, Any]]
    game: Game
    confirmed: dict[str, bool]
    record_id: int | None

    def to_json(self) -> dict[str, Any]:
        game = self.game
        cells: dict[str, str] = {}
        for action in self.actions:
            if action["action"] == "place":
                a, b = action["placement"].split("-")
                cells[a[:-1]] = a[-1]
                cells[b[:-1]] = b[-1]
        summary = game.summary()
        return {
            "version": self.version,
            "actions": self.actions,
            "cells": cells,
            "scores": game.scores,
            "to_move": game.to_move,
            "bonus": game.in_bonus_play,
            "swap_window": game.swap_window,
            "lowest": {seat: game.lowest_colours(seat) for seat in SEATS},
            "over": game.is_over,
            "end": game.end,
            "result": summary.result,
            "confirmed": self.confirmed,
            "record_id": self.record_id,
        }


def tags_for(board: Board) -> dict[str, str]:
    event = board.round.event
    return {
        "Event": event.name, "Round": str(board.round.number), "Board": str(board.number),
        "First": board.first.name, "Second": board.second.name, "Players": "2",
        "Rules": event.rules_profile, "TimeControl": event.time_control,
    }


def _replay(board: Board, actions: list[dict[str, Any]]) -> Game:
    clean = [{k: v for k, v in a.items() if k != "press"} for a in actions]
    return replay({"tags": tags_for(board), "actions": clean})


def _live(board: Board) -> LiveGame:
    """The board's live game row, created if missing and locked until the transaction ends."""
    if board.is_bye:
        raise LiveRefused(_("A bye has no game."))
    live, _created = LiveGame.objects.select_for_update().get_or_create(board=board)
    return live


def state(board: Board) -> LiveState:
    """The game as entered so far, with the flags the clock demands (reading writes nothing:
    no entry, no row yet; the flags are stored by the next entry or confirmation)."""
    if board.is_bye:
        raise LiveRefused(_("A bye has no game."))
    live = LiveGame.objects.filter(board=board).first() or LiveGame(board=board)
    game = _replay(board, live.actions)
    flags = [] if live.record_id else _clock_flags(_clock_now(board), game, live.actions)
    return LiveState(live.version, [*live.actions, *flags], game, live.confirmed,
                     live.record_id)


@transaction.atomic
def _store_due_flags(board: Board) -> None:
    """Store the flags the clock demands, in a transaction of their own.

    They are facts of the clock, not entries, and the page has shown them at the current
    version already (``state``), so the version stays. Stored first, they stand even when the
    entry that follows is refused: when the second flag ends the game (MSO: both flags end
    it, the scores decide), the entry is refused and the game can be confirmed.
    """
    live = _live(board)
    if live.record_id is not None:
        return
    flags = _clock_flags(_clock_now(board), _replay(board, live.actions), live.actions)
    if flags:
        live.actions = [*live.actions, *flags]
        live.save(update_fields=["actions", "updated_at"])


def _parse_action(data: dict[str, Any]) -> dict[str, Any]:
    """Check the shape of an entry from the page; the engine checks its legality."""
    if not isinstance(data, dict):
        raise LiveRefused(_("An entry must be a JSON object."))
    seat, kind = data.get("seat"), data.get("action")
    if seat not in SEATS:
        raise LiveRefused(_("Seat must be A or B."))
    if kind == "place":
        placement = data.get("placement")
        if not isinstance(placement, str) or len(placement) > 12:
            raise LiveRefused(_("A placement looks like f10R-f9G."))
        return {"seat": seat, "action": "place", "placement": placement}
    if kind == "swap":
        tiles = data.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise LiveRefused(_("A swap lists the tiles shown, like OY YP GY."))
        return {"seat": seat, "action": "swap", "tiles": [t.upper() for t in tiles][:6]}
    if kind in ("flag", "resign"):
        return {"seat": seat, "action": kind}
    raise LiveRefused(_("Unknown entry %(kind)r.") % {"kind": kind})


def _clock_now(board: Board) -> ClockState | None:
    """The board's clock as it stands now, flags due applied (None while the board has none)."""
    clock = Clock.objects.filter(board_id=board.pk).first()
    return None if clock is None else clock.core.at(clock_services.now_ms())


def _clock_flags(clock: ClockState | None, game: Game, actions: list[dict[str, Any]]) -> list[dict]:
    """Flag entries the clock demands: a seat whose time ran out stops playing (rules 3)."""
    if clock is None or game.is_over:
        return []
    recorded = {a["seat"] for a in actions if a["action"] == "flag"}
    added = []
    for seat in SEATS:
        if clock.flagged(seat) and seat not in recorded:
            try:
                game.flag(seat)
            except EngineError:
                continue  # not this seat's turn in the log yet: the players enter it later
            added.append({"seat": seat, "action": "flag"})
    return added


def _pressed_since_placement(clock: ClockState | None, actions: list[dict[str, Any]],
                             seat: str) -> bool:
    """Whether ``seat`` has pressed the clock that ended the turn of its last placement.

    A swap is declared before pressing; after the press only the refill is left (game-rules.md
    section 3 step 5). The placement remembers the press number at its entry, so a later press
    by the seat ended that turn. A placement entered only after its press is caught by the
    clock itself: it no longer runs for the seat.
    """
    if clock is None or clock.started_at_ms is None:
        return False  # no clock in use: nothing to go by
    placed = next((a for a in reversed(actions) if a["action"] == "place"), None)
    press = None if placed is None else placed.get("press")
    if press is not None and any(p.side == seat and p.number > press for p in clock.presses):
        return True
    return clock.finished is None and clock.turn is not None and clock.turn != seat


def enter(board: Board, data: dict[str, Any], *, expected_version: int) -> LiveState:
    """Apply one entry if the engine accepts it and nobody else entered meanwhile."""
    if game_services.is_online_board(board):  # before anything is stored for the board
        raise LiveRefused(_("This board is played online: the server keeps the game."))
    _store_due_flags(board)
    return _enter(board, data, expected_version=expected_version)


@transaction.atomic
def _enter(board: Board, data: dict[str, Any], *, expected_version: int) -> LiveState:
    live = _live(board)
    if live.record_id is not None:
        raise LiveRefused(_("The game is confirmed; ask the arbiter for corrections."))
    if expected_version != live.version:
        raise LiveRefused(_("Another device entered a move meanwhile; the page has been "
                            "brought up to date, check and enter again."))
    action = _parse_action(data)
    game = _replay(board, live.actions)
    clock = _clock_now(board)
    seat = action["seat"]
    if (action["action"] == "swap" and game.swap_window == seat
            and _pressed_since_placement(clock, live.actions, seat)):
        raise LiveRefused(_("Seat %(seat)s has pressed the clock since its last tile: a swap is "
                            "declared before pressing, now only the refill is left.")
                          % {"seat": seat})
    try:
        record_action = parse_record({"tags": {}, "actions": [action]}).actions[0]
        _apply(game, record_action)
    except EngineError as exc:
        raise LiveRefused(engine_text(exc)) from None
    if clock is not None:
        action["press"] = clock.press_number
    live.actions = [*live.actions, action]
    live.version += 1
    live.confirmed = {}
    live.save(update_fields=["actions", "version", "confirmed", "updated_at"])
    if game.is_over:
        _stop_clock(board, action)
    return LiveState(live.version, live.actions, game, live.confirmed, None)


def _stop_clock(board: Board, action: dict[str, Any]) -> None:
    """Every end of the game stops its clock, in the entry's transaction: a resignation as
    the seat's, the last tile (or the flags that end it) as completed. A clock that never
    started, or has stopped already, is left as it is."""
    state = _clock_now(board)
    if state is None or state.started_at_ms is None or state.finished is not None:
        return
    resigned = action["action"] == "resign"
    # stopped meanwhile by someone else (ClockRefused): stopped all the same
    with contextlib.suppress(clock_services.ClockRefused):
        clock_services.finish(board, "resigned" if resigned else "completed", who="scoresheet",
                              side=action["seat"] if resigned else None,
                              reason=_("the game ended on the scoresheet"))


def _apply(game: Game, action) -> None:
    if action.kind == "place":
        game.place(action.seat, action.placement)
    elif action.kind == "swap":
        game.swap(action.seat, list(action.tiles))
    elif action.kind == "flag":
        game.flag(action.seat)
    else:
        game.resign(action.seat)


@transaction.atomic
def undo(board: Board, *, expected_version: int) -> LiveState:
    """Take back the last entry (a mis-tap), before the game is confirmed."""
    live = _live(board)
    if live.record_id is not None:
        raise LiveRefused(_("The game is confirmed; ask the arbiter for corrections."))
    if expected_version != live.version:
        raise LiveRefused(_("Another device entered a move meanwhile; check and try again."))
    if not live.actions:
        raise LiveRefused(_("Nothing to take back."))
    clock = _clock_now(board)
    if clock is not None and clock.finished is not None and _replay(board, live.actions).is_over:
        raise LiveRefused(_("The game is over and its clock has stopped: ask the arbiter to "
                            "correct it."))
    live.actions = live.actions[:-1]
    live.version += 1
    live.confirmed = {}
    live.save(update_fields=["actions", "version", "confirmed", "updated_at"])
    return LiveState(live.version, live.actions, _replay(board, live.actions), {}, None)


def record_text(board: Board, actions: list[dict[str, Any]], result: str | None) -> str:
    """The game record of the entries, with each turn's clock time where the clock knows it."""
    remaining = {p.number: p.remaining_ms for p in clock_services.presses(board)}
    clean = []
    for index, action in enumerate(actions):
        item = {k: v for k, v in action.items() if k != "press"}
        press = action.get("press")
        later = actions[index + 1:]
        turn_ends = not later or later[0].get("press") != press
        if press is not None and turn_ends and (press + 1) in remaining:
            item["clock"] = remaining[press + 1] // 1000
        clean.append(item)
    tags = {**tags_for(board), "Result": result or "*"}
    return format_record(parse_record({"tags": tags, "actions": clean}))


def confirm(board: Board, seat: str, *, expected_version: int):
    """A player confirms the finished game; when both have, the record is submitted."""
    _store_due_flags(board)
    return _confirm(board, seat, expected_version=expected_version)


@transaction.atomic
def _confirm(board: Board, seat: str, *, expected_version: int):
    live = _live(board)
    if seat not in SEATS:
        raise LiveRefused(_("Seat must be A or B."))
    if expected_version != live.version:
        raise LiveRefused(_("The game changed meanwhile; check it and confirm again."))
    game = _replay(board, live.actions)
    if not game.is_over:
        raise LiveRefused(_("The game is not over yet."))
    live.confirmed = {**live.confirmed, seat: True}
    submission = None
    if all(live.confirmed.get(s) for s in SEATS) and live.record_id is None:
        text = record_text(board, live.actions, game.summary().result)
        submission = game_services.submit_record(board, text, via="board", label="players")
        live.record = submission.record
    live.save(update_fields=["confirmed", "record", "updated_at"])
    return LiveState(live.version, live.actions, game, live.confirmed, live.record_id), submission
