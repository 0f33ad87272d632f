"""Replaying records: :func:`verify` for a finished game, :func:`replay` for live entry.

Both read the record's tags to set the game up (``Players``, ``Rules``, ``TileSet``,
``Partnership``; missing tags mean a two-player ``mso`` game with the standard set), replay
every action, and stop at the first error, which then carries the line (for JSON: the action's
1-based index), the column, the action number and the offending action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clocks.core.timecontrol import TimeControl, TimeControlError

from .board import COLOURS, Board
from .errors import EngineError, IllegalActionError, NotationError
from .game import Game
from .messages import Message
from .notation import _CLAIMS, claim_of, read_items
from .record import DRAW, FLAG, PLACE, RESIGN, SWAP, Action, Record
from .result import VerifiedGame, normalize_result

__all__ = ["Verdict", "game_for", "replay", "verify"]

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
_HALVES: dict[int, dict[str, tuple[int, int]]] = {}  # board radius -> _halves(board)
_TWO_SIDED = ("1-0", "0-1", "½-½")
_TILE_SET_CODES = frozenset({"unknown_tile_set", "tile_set_players"})  # point at [TileSet]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of :func:`verify`: ``ok`` and ``game``, or the first ``error``.

    ``game`` is the verified game when ``ok``; after a rule error or for an unfinished record
    it is the state reached before the error (scores so far), and None when the record could
    not be read at all.
    """

    game: VerifiedGame | None
    error: EngineError | None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """The object ``verify_log --json`` prints."""
        if self.error is not None or self.game is None:
            error = self.error
            return {
                "ok": False,
                "error": {
                    "line": None if error is None else error.line,
                    "message": "no game" if error is None else error.reason,
                },
            }
        return {"ok": True, "error": None, **self.game.to_json()}


def game_for(record: Record) -> Game:
    """A new :class:`Game` set up from the record's tags (errors point at the tag's line)."""
    players_text = record.tag("Players", "2")
    try:
        if players_text not in ("1", "2", "3", "4"):
            raise NotationError("players_tag", value=players_text)
        partnership_text = record.tag("Partnership", "no")
        if partnership_text not in ("yes", "no"):
            raise NotationError("partnership_tag", value=partnership_text).at(
                line=record.tag_line("Partnership")
            )
        time_control = record.tag("TimeControl")
        if time_control is not None and time_control != "-":
            try:
                TimeControl.parse(time_control)
            except TimeControlError:
                raise NotationError("time_control_tag", value=time_control).at(
                    line=record.tag_line("TimeControl")
                ) from None
        try:
            game = Game(
                players=int(players_text),
                profile=record.tag("Rules", "mso") or "",
                tile_set=record.tag("TileSet", "standard") or "",
                partnership=partnership_text == "yes",
            )
        except EngineError as error:
            tag = {"UnknownProfileError": "Rules"}.get(type(error).__name__)
            if tag is None:
                tag = "TileSet" if error.code in _TILE_SET_CODES else "Players"
            raise error.at(line=record.tag_line(tag)) from None
        _check_result_tag(record, game)
    except EngineError as error:
        raise error.at(line=record.tag_line("Players")) from None
    return game


def _check_result_tag(record: Record, game: Game) -> None:
    claimed = record.tag("Result")
    if claimed is None or claimed == "*":
        return
    value = normalize_result(claimed)
    sides = game.sides
    if sides == 2:
        valid = value in _TWO_SIDED
        expected = Message("result_two_sided")
    elif sides == 1:
        valid = value.isdigit() and len(value) <= 2
        expected = Message("result_solo")
    else:
        parts = value.split("-")
        valid = len(parts) == sides and all(p in "1234" and len(p) == 1 for p in parts)
        expected = Message("result_places", {"sides": sides})
    if not valid:
        raise NotationError("result_tag", value=claimed, expected=expected).at(
            line=record.tag_line("Result")
        )


def replay(source: str | bytes | dict[str, Any] | Record) -> Game:
    """Replay a record, finished or not, and return the game state it reaches.

    For live entry: an unfinished record is fine; the first illegal action raises its
    :class:`~.errors.EngineError` (with line and action number). The claimed result is not
    checked here.
    """
    tags, tag_lines, items, positions = read_items(source)
    header = Record(tags, (), (), tag_lines)
    game = game_for(header)
    _apply_all(game, items, positions)
    return game


def verify(source: str | bytes | dict[str, Any] | Record) -> Verdict:
    """Replay a complete record: the verified game, or the first error.

    Never raises :class:`~.errors.EngineError`: it is returned in ``Verdict.error``.
    """
    try:
        tags, tag_lines, items, positions = read_items(source)
        header = Record(tags, (), (), tag_lines)
        game = game_for(header)
    except EngineError as error:
        return Verdict(None, error)
    try:
        _apply_all(game, items, positions)
    except EngineError as error:
        return Verdict(game.summary(), error)
    summary = game.summary()
    if not game.is_over:
        # the error points just past the last action (for JSON: the missing action's index)
        # (a JSON record's tags have no line: its first action is then the missing one)
        last = (positions[len(items) - 1][0] if items
                else max((n for n in tag_lines if n is not None), default=0))
        return Verdict(
            summary,
            IllegalActionError(
                "unfinished",
                line=last + 1,
                action=len(items) + 1,
                count=len(items),
                seat=game.to_move,
            ),
        )
    claimed = header.tag("Result")
    if claimed is not None and claimed != "*" and normalize_result(claimed) != summary.result:
        return Verdict(
            summary,
            IllegalActionError(
                "result_differs",
                line=header.tag_line("Result"),
                token=claimed,
                claimed=claimed,
                result=summary.result,
            ),
        )
    return Verdict(summary, None)


def _halves(board: Board) -> dict[str, tuple[int, int]]:
    """Half-tile token (cell name and colour letter, like ``f10R``) -> (cell, colour index)."""
    halves = _HALVES.get(board.radius)
    if halves is None:
        halves = _HALVES[board.radius] = {
            name + colour: (cell, k)
            for name, cell in board.index.items()
            for colour, k in _COLOUR_INDEX.items()
        }
    return halves


def _apply_all(game: Game, items: Any, positions: Any) -> None:
    """Apply every action (bare placement tuples or :class:`Action`); the hot loop."""
    index = game.board.index
    halves = _halves(game.board)
    seat_of = {seat: i for i, seat in enumerate(game.seats)}
    place = game.place_indices
    colour = _COLOUR_INDEX
    claims = _CLAIMS
    i = 0
    try:
        for i, item in enumerate(items):
            if type(item) is tuple:
                seat, first, second, claim_text, _, _, _ = item  # see scan_text
                if claim_text:
                    claim = claims.get(claim_text)
                    if claim is None:
                        claim = claim_of(claim_text)  # not cached (the cache is bounded)
                else:
                    claim = None
                s = seat_of.get(seat)
                ha = halves.get(first)
                hb = halves.get(second)
                if s is None or ha is None or hb is None:
                    game.seat_index(seat)  # raises "seat does not play"
                    game.board.cell(first[:-1] if ha is None else second[:-1])  # "unknown cell"
                a, ka = ha  # type: ignore[misc]
                b, kb = hb  # type: ignore[misc]
                gains = place(s, a, ka, b, kb)
                if claim is not None and claim != gains:
                    raise _claim_error(claim, gains).at(column=positions[i][2])
                continue
            if item.kind != PLACE:
                _apply_other(game, item)
                continue
            seat, claim, p = item.seat, item.claim, item.placement
            first, k1, second, k2 = p.first, p.first_colour, p.second, p.second_colour
            s = seat_of.get(seat)
            a = index.get(first)
            b = index.get(second)
            if s is None or a is None or b is None:
                game.seat_index(seat)  # raises "seat does not play"
                game.board.cell(first if a is None else second)  # raises "unknown cell"
            gains = place(s, a, colour[k1], b, colour[k2])
            if claim is not None and claim != gains:
                raise _claim_error(claim, gains).at(column=positions[i][2])
    except EngineError as error:
        line, column, _ = positions[i] if i < len(positions) else (i + 1, None, None)
        raise error.at(line=line, column=column, action=i + 1, token=_item_text(items[i])) from None


def _apply_other(game: Game, action: Action) -> None:
    kind = action.kind
    if kind == SWAP:
        game.swap(action.seat, action.tiles)
    elif kind == DRAW:
        game.draw(action.seat, action.tiles)
    elif kind == FLAG:
        game.flag(action.seat)
    elif kind == RESIGN:
        game.resign(action.seat)
    else:  # pragma: no cover - Action kinds are closed
        raise NotationError("unknown_action_kind", kind=kind)


def _item_text(item: Any) -> str:
    if type(item) is tuple:
        seat, first, second = item[:3]
        return f"{seat} {first}-{second}"
    return str(item)


def _claim_text(points: tuple[tuple[str, int], ...]) -> str:
    return "{" + " ".join(f"{c}+{n}" for c, n in points) + "}"


def _claim_error(
    claim: tuple[tuple[str, int], ...], gains: tuple[tuple[str, int], ...]
) -> IllegalActionError:
    return IllegalActionError(
        "claim_differs",
        token=_claim_text(claim),
        claim=_claim_text(claim),
        gains=_claim_text(gains),
    )
