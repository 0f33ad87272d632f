"""An online game at one board: the engine's :class:`~games.engine.Game` with real racks.

The server holds the tiles (a :class:`~.deal.Deal`) and both racks; each move goes through the
engine, which refuses an illegal one with its reason and changes nothing. Moves, as the
protocol sends them (docs/online-protocol.md):

* ``place``: a tile from the seat's own rack on two cells (``"f10R-f9G"``); a bonus play is
  simply the next ``place`` by the same seat (the engine says when one is due);
* after the last placement of a turn the rack is refilled at once, unless a swap is allowed
  (no tile in the rack shows one of the seat's lowest colours and the bag holds six tiles):
  then the turn stays open (the seat's clock runs) until the seat sends ``swap`` or
  ``refill`` (game-rules.md section 3 step 5: the swap is declared before the clock is pressed);
* ``flag``: the seat's time ran out (the shell sends it when the clock says so): it stops, an
  open turn's refill never happens, the opponent plays on alone (the MSO rule);
* ``resign``: any seat, at any time; the other side wins.

The table writes the complete game record as it goes, every draw included, so that the record
and the revealed seed let anyone re-check the deal (:func:`check_deal`). The table knows no
clock: a move's :class:`Step` says whether it ended the seat's turn (the shell presses the
clock then); time is the shell's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Game, Placement, Record, Tile, parse_record, verify
from games.engine.board import COLOURS
from games.engine.messages import Message, render
from games.engine.record import DRAW, FLAG, PLACE, RESIGN, SWAP, Action
from games.engine.tiles import RACK_SIZE

from .deal import Deal, commitment, parse_seed

__all__ = ["MOVES", "REFUSALS", "DealMismatch", "MoveRefused", "Step", "Table", "check_deal",
           "parse_move"]

SEATS = ("A", "B")
#: The moves a seat may send.
MOVES = ("place", "swap", "refill", "flag", "resign")


class MoveRefused(Exception):
    """A move that is malformed or not allowed now; nothing changed.

    ``reason`` says why in English; ``message`` says it as a code and params (a
    :class:`~games.engine.messages.Message` of :data:`REFUSALS`, or of the engine's own table
    when the engine refused), for a shell that says it in the player's language. ``index`` is
    the refused move's place in the list :meth:`Table.restore` replayed (None for a move
    played on its own), so a stored game that does not replay can be named move by move."""

    def __init__(self, message: Message, *, by_engine: bool = False) -> None:
        text = render(message) if by_engine else REFUSALS[message.code].format(**message.params)
        super().__init__(text)
        self.reason = text
        self.message = message
        self.by_engine = by_engine
        self.index: int | None = None

    @classmethod
    def because(cls, error: EngineError) -> MoveRefused:
        """The engine's refusal of a move, as a refused move."""
        return cls(Message(error.code, error.params), by_engine=True)


#: Code -> English text of the refusals this core adds to the engine's (``str.format``).
REFUSALS: dict[str, str] = {
    "not_object": "a move must be an object",
    "bad_seat": "seat must be A or B, not {seat}",
    "bad_move": "unknown move {move} (one of {moves})",
    "bad_placement": "a placement looks like 'f10R-f9G'",
    "bad_number": "'number' is the count of moves the client has seen (0, 1, ...)",
    "bad_clock": "a clock note is whole seconds",
    "over": "the game is over",
    "stale": "stale move: it was sent after move {sent}, but the game is at move {now}; "
             "nothing changed, look at the board again",
    "ahead": "this move answers move {sent}, but the game is at move {now}: the client is "
             "ahead of the game; nothing changed, reload the game",
    "choose_first": "seat {seat} must first choose: swap or refill",
    "flagged": "seat {seat} has flagged and takes no further turns",
    "no_open_turn": "{kind} not allowed now: seat {seat} has no open turn to close (the rack "
                    "is refilled at once when no swap is allowed)",
    "other_chooses": "wrong seat to act: seat {seat} must choose swap or refill",
}


def _refused(code: str, **params: Any) -> MoveRefused:
    return MoveRefused(Message(code, params))


class DealMismatch(ValueError):
    """A finished record whose draws are not the deal of the revealed seed."""


@dataclass(frozen=True, slots=True)
class Step:
    """What a move did: ``ends_turn`` (the seat's clock is to be pressed now) and the points
    each colour moved (placements)."""

    ends_turn: bool
    gains: tuple[tuple[str, int], ...] = ()


def parse_move(data: Any) -> dict[str, Any]:
    """Check a move's shape (``{"seat", "move", "placement"?, "number"?, "clock"?}``); the
    engine checks the rest. ``number`` is how many moves the sender had seen: a move sent
    from an older position (a duplicate, a delayed retry) is refused as stale."""
    if not isinstance(data, dict):
        raise _refused("not_object")
    seat, move = data.get("seat"), data.get("move")
    if seat not in SEATS:
        raise _refused("bad_seat", seat=repr(str(seat)[:10]))
    if move not in MOVES:
        raise _refused("bad_move", move=repr(str(move)[:20]), moves=", ".join(MOVES))
    clean: dict[str, Any] = {"seat": seat, "move": move}
    if move == "place":
        text = data.get("placement")
        if not isinstance(text, str) or len(text) > 12:
            raise _refused("bad_placement")
        try:
            Placement.parse(text)
        except EngineError as error:
            raise MoveRefused.because(error) from None
        clean["placement"] = text
    number = data.get("number")
    if number is not None:
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise _refused("bad_number")
        clean["number"] = number
    clock = data.get("clock")
    if clock is not None:
        if not isinstance(clock, int) or isinstance(clock, bool) or not 0 <= clock < 360000:
            raise _refused("bad_clock")
        clean["clock"] = clock
    return clean


class Table:
    """One dealt two-player game in progress (or over). See the module docstring.

    >>> table = Table(bytes(32))
    >>> table.to_act, table.rack("A")
    ('A', ['BB', 'OY', 'RR', 'BY', 'RG', 'RG'])
    >>> table.play({"seat": "B", "move": "place", "placement": "e1R-f2R"})
    Traceback (most recent call last):
    ...
    games.dealt.table.MoveRefused: wrong seat to act: B cannot place a tile; seat A is to act
    """

    def __init__(self, seed: bytes, *, profile: str = "mso", tile_set: str = "standard",
                 tags: dict[str, str] | None = None) -> None:
        self.game = Game(2, profile, tile_set)
        self.deal = Deal(seed, self.game.tile_set)
        self.tags = {**(tags or {}), "Players": "2", "Rules": self.game.profile.name,
                     "TileSet": self.game.tile_set.name}
        self.racks: dict[str, list[Tile]] = {}
        self.actions: list[Action] = []
        self.moves: list[dict[str, Any]] = []
        self.choice: str | None = None  # the seat deciding between swap and refill
        for seat in SEATS:
            self.racks[seat] = self.deal.draw(RACK_SIZE)
            self._drew(seat, self.racks[seat])

    @classmethod
    def restore(cls, seed: bytes, moves: list[dict[str, Any]], **options: Any) -> Table:
        """The table after ``moves`` (as stored by the shell: every one was accepted).

        Moves from elsewhere (a backup file) may not replay: the first that does not raises
        ``MoveRefused`` with its ``index`` in ``moves``."""
        table = cls(seed, **options)
        for index, move in enumerate(moves):
            try:
                table.play(move)
            except MoveRefused as error:
                error.index = index
                raise
        return table

    # -- reading ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def to_act(self) -> str | None:
        """The seat whose clock should run: the one deciding a swap, else the one to place."""
        return self.choice or self.game.to_move

    @property
    def commitment(self) -> str:
        return self.deal.commitment

    def rack(self, seat: str) -> list[str]:
        return [str(t) for t in self.racks[seat]]

    def record(self) -> Record:
        """The record so far, every draw included; ``Result`` once the game is over."""
        result = self.game.summary().result if self.over else None
        tags = {**self.tags, "Result": result or "*"}
        return Record(tuple(tags.items()), tuple(self.actions))

    # -- moves -----------------------------------------------------------------------------
    def play(self, data: Any) -> Step:
        """Apply one move (see :func:`parse_move`); refused moves raise ``MoveRefused``."""
        move = parse_move(data)
        seat, kind = move["seat"], move["move"]
        if self.over:
            raise _refused("over")
        number = move.pop("number", None)
        if number is not None and number != len(self.moves):
            if self.game.has_stopped(seat):  # the seat's own flag made it stale: say so
                raise _refused("flagged", seat=seat)
            code = "ahead" if number > len(self.moves) else "stale"
            raise _refused(code, sent=number, now=len(self.moves))
        try:
            if kind == "place":
                step = self._place(seat, Placement.parse(move["placement"]))
            elif kind in ("swap", "refill"):
                step = self._choose(seat, kind)
            elif kind == "flag":
                step = self._flag(seat)
            else:
                self.game.resign(seat)
                self.choice = None
                self.actions.append(Action(seat, RESIGN))
                step = Step(False)
        except EngineError as error:
            raise MoveRefused.because(error) from None
        if "clock" in move:
            self.note_clock(seat, move["clock"])
        self.moves.append(move)
        return step

    def _place(self, seat: str, placement: Placement) -> Step:
        if self.choice is not None:
            raise _refused("choose_first", seat=self.choice)
        gains = self.game.place(seat, placement)  # the engine checks the rack too
        self.racks[seat].remove(placement.tile)
        claim = tuple((c, gains[c]) for c in COLOURS if c in gains)
        self.actions.append(Action(seat, PLACE, placement, claim=claim))
        if self.game.swap_window != seat:
            return Step(self.over, claim)  # a bonus play follows, or the game is over
        if self._may_swap(seat):
            self.choice = seat
            return Step(False, claim)
        self._refill(seat)
        return Step(True, claim)

    def _may_swap(self, seat: str) -> bool:
        rack = self.racks[seat]
        low = self.game.lowest_colours(seat)
        return (bool(rack) and len(self.deal) >= RACK_SIZE
                and not any(t.first in low or t.second in low for t in rack))

    def _choose(self, seat: str, kind: str) -> Step:
        if self.game.has_stopped(seat):
            raise _refused("flagged", seat=seat)
        if self.choice != seat:
            if self.choice is None:
                raise _refused("no_open_turn", kind=kind, seat=seat)
            raise _refused("other_chooses", seat=self.choice)
        if kind == "swap":
            shown = list(self.racks[seat])
            self.game.swap(seat, shown)
            self.actions.append(Action(seat, SWAP, tiles=tuple(shown)))
            self.racks[seat] = self.deal.swap(shown)
            self._drew(seat, self.racks[seat])
        else:
            self._refill(seat)
        self.choice = None
        return Step(True)

    def _refill(self, seat: str) -> None:
        new = self.deal.draw(RACK_SIZE - len(self.racks[seat]))
        self.racks[seat].extend(new)
        self._drew(seat, new)

    def _drew(self, seat: str, tiles: list[Tile]) -> None:
        if tiles and not self.over:
            self.game.draw(seat, tiles)
            self.actions.append(Action(seat, DRAW, tiles=tuple(tiles)))

    def _flag(self, seat: str) -> Step:
        self.game.flag(seat)
        self.choice = None if self.choice == seat else self.choice
        self.actions.append(Action(seat, FLAG))
        return Step(False)

    def note_clock(self, seat: str, seconds: int) -> None:
        """The seat's remaining time when its turn ended (the record's ``@M:SS``), on its
        latest placement or swap."""
        for i in range(len(self.actions) - 1, -1, -1):
            action = self.actions[i]
            if action.seat == seat and action.kind in (PLACE, SWAP):
                self.actions[i] = Action(action.seat, action.kind, action.placement,
                                         action.tiles, action.claim, seconds)
                return

    # -- what a socket may see -------------------------------------------------------------
    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The game as ``seat`` may see it (None: a spectator): the board, scores, whose turn,
        rack sizes, and only that seat's own rack. The bag's order and the other rack never
        appear, nor whether the other seat may swap (its ``awaiting`` reads "place" while it
        chooses); the seed and the full record (with draws) only once the game is over."""
        public = self._public_view()
        return public if seat is None else self._seated(public, seat)

    def views(self) -> dict[str | None, dict[str, Any]]:
        """``view`` of both seats and the spectators at once (a move sends all three): the
        public part is built once."""
        public = self._public_view()
        return {None: public, **{seat: self._seated(public, seat) for seat in SEATS}}

    def _seated(self, public: dict[str, Any], seat: str) -> dict[str, Any]:
        seated = {**public, "seat": seat, "rack": self.rack(seat)}
        if self.choice == seat:
            seated["awaiting"] = "choice"  # only the chooser learns that it may swap
        if public["to_act"] == seat and not self.over:
            # where a tile can go: its page marks the cells, and refuses a second cell that
            # would break the placement rule at once (the server checks every move again)
            seated["reach"] = self.game.reach()
        return seated

    def _public_view(self) -> dict[str, Any]:
        game = self.game
        cells: dict[str, str] = {}
        public = []
        for action in self.actions:
            if action.kind == DRAW:
                continue
            if action.kind == PLACE:
                p = action.placement
                cells[p.first], cells[p.second] = p.first_colour, p.second_colour
            public.append(action.to_json())
        last = next((a for a in reversed(self.actions) if a.kind == PLACE), None)
        summary = game.summary()
        view: dict[str, Any] = {
            "seat": None,
            "cells": cells,
            "last": None if last is None else [last.placement.first, last.placement.second],
            "actions": public,
            "scores": game.scores,
            "lowest": {s: game.lowest_colours(s) for s in SEATS},
            "to_act": self.to_act,
            # A swap is offered only to a rack without the seat's lowest colours: that the seat
            # is choosing would tell the others so, where a refill tells them nothing. They see
            # only that it is still to act; its own view says "choice" (``_seated``).
            "awaiting": None if self.over else "place",
            "bonus": game.in_bonus_play,
            "stopped": {s: game.has_stopped(s) for s in SEATS},
            "bag": len(self.deal),
            "rack_sizes": {s: len(self.racks[s]) for s in SEATS},
            "number": len(self.moves),
            "commitment": self.commitment,
            "over": self.over,
            "end": game.end,
            "end_code": game.end_message.code if game.end_message else None,
            "end_params": dict(game.end_message.params) if game.end_message else {},
            "result": summary.result,
        }
        if self.over:
            view["seed"] = self.deal.seed.hex()
            view["record"] = self.record().to_json()
        return view


def check_deal(source: str | Record, seed_hex: str, committed: str) -> Record:
    """Re-check a finished record against the revealed seed and the published commitment.

    The record must verify with the engine, the seed must give the committed bag order, and
    every ``draw`` line must be exactly the tiles the deal gives at that point (A's six, B's
    six, then refills and swaps in the record's order). Returns the parsed record; raises
    ``DealMismatch`` with the first difference.
    """
    record = source if isinstance(source, Record) else parse_record(source)
    verdict = verify(record)
    if not verdict.ok:
        raise DealMismatch(f"the record does not verify: {verdict.error}")
    try:
        seed = parse_seed(seed_hex)
    except ValueError as error:
        raise DealMismatch(str(error)) from None
    deal = Deal(seed, record.tag("TileSet", "standard") or "standard")
    if commitment(seed, deal.order) != committed:
        raise DealMismatch("the seed does not give the committed bag order")
    shown: dict[str, list[Tile]] = {}
    draws = 0
    for index, action in enumerate(record.actions, 1):
        if action.kind == SWAP:
            shown[action.seat] = list(action.tiles)
        elif action.kind == DRAW:
            tiles = list(action.tiles)
            swapped = shown.pop(action.seat, None)
            expected = deal.swap(swapped) if swapped is not None else deal.draw(len(tiles))
            if tiles != expected:
                raise DealMismatch(
                    f"action {index}: seat {action.seat} drew {' '.join(map(str, tiles))} but "
                    f"the deal gives {' '.join(map(str, expected))}")
            draws += 1
    if draws < len(SEATS):
        raise DealMismatch("the record does not list the initial racks")
    return record
