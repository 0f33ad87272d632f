"""The game state machine: whose turn it is, racks and bag, score tracks, bonus plays, the end.

One :class:`Game` serves both the replay of a whole record and the live scoresheet, which
calls it one action at a time (``place``, ``swap``, ``draw``, ``flag``, ``resign``). A refused
action raises :class:`~.errors.IllegalActionError` and leaves the state unchanged.

Racks are tracked as counts, with their contents known only as far as ``draw`` actions reveal
them: each seat holds some known tiles (by kind) and some unknown slots. Without any draws
the engine can still check that placed tiles never exceed the tile set; with complete draws it
checks that every tile placed or shown was in the seat's rack. Turn timing follows
game-rules.md section 7: after a seat's last placement of a turn its rack is refilled and a
short *window* stays open in which the same seat may still ``swap`` (the refill is undone, six
new tiles are drawn, then the shown rack goes back: game-rules.md section 3 step 5) or ``flag``
(it never pressed its clock: the refill is undone).

Who owns what, and why. For speed (a placement costs a few microseconds; verifying a record
replays about forty) the state is plain lists of ints indexed by seat, side, cell, colour or
tile kind, and each list has exactly one owner that reads and writes it: :class:`Game` the
score tracks, turn order, bonus plays and the end (its ``_`` attributes); :class:`~.position.
Position` the board; :class:`~.racks.Racks` the racks and bag. :meth:`Game.place_indices` is
the hot path through all three. Everything else (:func:`~.result.summarize`, the replay loop
in verify.py, the random game generator, the benchmark) uses the documented interface below:
``place_indices``, ``seat_index``, ``sides``, ``snapshot``, ``position``, ``first_round``,
``track`` and ``has_stopped``, besides the public actions and properties.
"""

from __future__ import annotations

from .board import COLOURS, Board
from .errors import IllegalActionError, NotationError
from .messages import Message, render
from .position import Position
from .racks import Racks
from .result import Snapshot, VerifiedGame, summarize
from .rules import ONE_PER_COLOUR, Profile, get_profile
from .tiles import KIND_OF, Placement, Tile, TileSet, get_tile_set, swap_refused_by_bag

__all__ = ["Gains", "Game"]

#: What a placement moved, in claim format: (colour letter, points) in colour order, no zeros.
Gains = tuple[tuple[str, int], ...]

_SEATS = "ABCD"
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
_GAIN = tuple(tuple((colour, n) for n in range(37)) for colour in COLOURS)  # shared claim pairs


class Game:
    """A game in progress (or over).

    >>> game = Game(players=2, profile="mso")
    >>> game.to_move
    'A'
    >>> game.place("A", Placement.parse("e1R-f2O"))
    {'O': 1}
    >>> game.to_move, game.scores["A"]["O"]
    ('B', 1)
    """

    def __init__(
        self,
        players: int = 2,
        profile: str | Profile = "mso",
        tile_set: str | TileSet = "standard",
        partnership: bool = False,
    ) -> None:
        self.profile = get_profile(profile) if isinstance(profile, str) else profile
        self.tile_set = get_tile_set(tile_set) if isinstance(tile_set, str) else tile_set
        self.board = Board.for_players(players)
        if players > self.tile_set.max_players:
            raise NotationError(
                "tile_set_players",
                token=str(players),
                tile_set=self.tile_set.name,
                limit=self.tile_set.max_players,
                players=players,
            )
        if partnership and players != 4:
            raise NotationError("partnership_players", players=players)
        self.players = players
        self.partnership = partnership
        self.seats = _SEATS[:players]
        self._pos = Position(self.board, self.profile)
        self._racks = Racks(self.tile_set, players)
        self._side = [s % 2 for s in range(players)] if partnership else list(range(players))
        self._tracks = [[0] * 6 for _ in range(2 if partnership else players)]
        self._cap = 36 if partnership else 18
        self._per_colour = self.profile.bonus == ONE_PER_COLOUR
        self._placed_by = [0] * players
        self._flagged = [False] * players
        self._resigned = [False] * players
        self._out = [False] * players
        self._cur = -1
        self._bonus = 0
        self._in_bonus = False
        self._open = -1
        self._open_refill = 0
        self._open_swapped = False
        self.end = ""
        self.end_message: Message | None = None
        self._winner_side = -1
        self.placements = self.bonus_plays = self.swaps = 0
        # the levels now, one tuple per side: history entries share them until a track moves
        self._snap = tuple(map(tuple, self._tracks))
        self._history: list[tuple[tuple[int, ...], ...]] = []
        self._advance(players - 1)

    # -- what callers read ----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self.end)

    @property
    def to_move(self) -> str | None:
        """The seat that must place next, or None once the game is over."""
        return None if self.end else self.seats[self._cur]

    @property
    def in_bonus_play(self) -> bool:
        """Whether the seat to move is making a bonus play (from its unrefilled rack)."""
        return self._in_bonus

    @property
    def first_round(self) -> bool:
        """Whether the seat to move has yet to place its first tile (a profile's first-round
        rule then applies instead of its placement rule)."""
        return self._placed_by[self._cur] == 0

    @property
    def swap_window(self) -> str | None:
        """The seat that may still swap now (right after its turn's last placement), if any."""
        if self._open < 0 or self._open_swapped or self.end:
            return None
        return self.seats[self._open]

    @property
    def scores(self) -> dict[str, dict[str, int]]:
        """Seat -> colour -> track level (partners show their shared tracks)."""
        return {
            seat: dict(zip(COLOURS, self._tracks[self._side[s]], strict=True))
            for s, seat in enumerate(self.seats)
        }

    @property
    def sides(self) -> int:
        """How many sides score: the players, or two in a partnership game."""
        return len(self._tracks)

    @property
    def history(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per action so far: the six track levels of each side (seat, or team 0 = A+C)."""
        return list(self._history)

    @property
    def bag_size(self) -> int:
        return self._racks.bag

    @property
    def position(self) -> Position:
        """The board as it stands, for move generators and tests: read it, never change it
        (only :meth:`place_indices` does, keeping the game's counters in step)."""
        return self._pos

    def rack_size(self, seat: str) -> int:
        return self._racks.size[self.seat_index(seat)]

    def track(self, seat: str) -> tuple[int, ...]:
        """The seat's six track levels in colour order R G B O Y P (its side's, partners)."""
        return tuple(self._tracks[self._side[self.seat_index(seat)]])

    def lowest_colours(self, seat: str) -> str:
        """The colour letters tied for the seat's lowest track level."""
        track = self.track(seat)
        low = min(track)
        return "".join(c for c, v in zip(COLOURS, track, strict=True) if v == low)

    def has_stopped(self, seat: str) -> bool:
        """Whether the seat has flagged or resigned (it takes no further turns)."""
        return self._out[self.seat_index(seat)]

    def seat_index(self, seat: str) -> int:
        """The seat's index (A is 0) for :meth:`place_indices`; raises for a seat not playing."""
        i = _SEATS.find(seat) if isinstance(seat, str) and len(seat) == 1 else -1
        if not 0 <= i < self.players:
            raise IllegalActionError(
                "seat_not_playing",
                token=str(seat),
                seat=seat,
                players=self.players,
                seats=", ".join(self.seats),
            )
        return i

    def legal_placements(self, tile: Tile | str) -> list[Placement]:
        """Every placement of ``tile`` the seat to move may make now (both ways round)."""
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        if self.end:
            return []
        names = self.board.names
        first, second = tile.first, tile.second
        result = []
        for a, b in self._pos.allowed_pairs(self.first_round):
            result.append(Placement(names[a], first, names[b], second))
            if first != second:
                result.append(Placement(names[a], second, names[b], first))
        return result

    def reach(self) -> list[str]:
        """The free cells from which the seat to move may place a tile now: two adjacent free
        cells take one exactly when one of them is here (``Position.reaching``)."""
        if self.end:
            return []
        names = self.board.names
        return [names[c] for c in self._pos.reaching(self.first_round)]

    def snapshot(self) -> Snapshot:
        """Copies of the tracks, seat sides, flags, resignations and history, for results."""
        return Snapshot(
            side=tuple(self._side),
            tracks=tuple(map(tuple, self._tracks)),
            flagged=tuple(self._flagged),
            resigned=tuple(self._resigned),
            winner_side=self._winner_side,
            history=tuple(self._history),
        )

    def summary(self) -> VerifiedGame:
        """The scores, levels, result (once over) and counts, as a plain value object."""
        return summarize(self)

    # -- actions -------------------------------------------------------------------------
    def place(self, seat: str, placement: Placement | str) -> dict[str, int]:
        """Place a tile for ``seat``; return the points each colour's track moved."""
        if isinstance(placement, str):
            placement = Placement.parse(placement)
        board = self.board
        return dict(
            self.place_indices(
                self.seat_index(seat),
                board.cell(placement.first),
                _COLOUR_INDEX[placement.first_colour],
                board.cell(placement.second),
                _COLOUR_INDEX[placement.second_colour],
            )
        )

    def place_indices(self, s: int, a: int, ca: int, b: int, cb: int) -> Gains:
        """:meth:`place` for the hot path (verify's replay loop, the benchmark): seat ``s``
        puts colour ``ca`` on cell ``a`` and ``cb`` on ``b`` (indices, unchecked, as
        :meth:`seat_index`, :attr:`Board.index` and ``COLOURS`` give them); returns the gains."""
        if s != self._cur or self.end:
            raise self._not_to_act(s)
        pos, racks = self._pos, self._racks
        placed_by = self._placed_by
        first = placed_by[s] == 0
        kind = KIND_OF[ca * 6 + cb]
        if not racks.take(s, kind):
            pos.check(a, b, first)  # a problem with the cells is reported first
            raise racks.take_error(s, kind, self.seats[s])
        try:
            pa, pb = pos.play(a, ca, b, cb, first)
        except IllegalActionError:
            racks.untake(s, kind)
            raise
        # -- the placement stands: from here on nothing can fail.
        self._open = -1
        if self._open_swapped:  # the game moves on: a swap's shown tiles are in the bag now
            self._open_swapped = False
            racks.release()
        placed_by[s] += 1
        self.placements += 1
        if self._in_bonus:
            self.bonus_plays += 1
            self._in_bonus = False
        side = self._side[s]
        track = self._tracks[side]
        gains, earned = _climb(track, self._cap, ca, pa, cb, pb)
        snap = self._snap
        if gains:  # only this side's levels changed: reuse the other sides' snapshots
            if len(snap) == 2:
                snap = (tuple(track), snap[1]) if side == 0 else (snap[0], tuple(track))
            else:
                snap = (*snap[:side], tuple(track), *snap[side + 1 :])
            self._snap = snap
        self._history.append(snap)
        if earned:
            if min(track) == self._cap:
                self._winner_side = side
                self._finish(Message("end_capped", {"cap": self._cap}))
                return gains
            self._bonus += earned if self._per_colour else 1
        size = racks.size
        if self._bonus and size[s] and pos.pairs:
            self._bonus -= 1
            self._in_bonus = True
            return gains
        # end of the turn: refill now (a swap or a flag in the window undoes it), then pass on
        self._bonus = 0
        self._open, self._open_refill, self._open_swapped = s, racks.refill(s), False
        t = s + 1 if s + 1 < self.players else 0
        if size[t] and pos.pairs and not self._out[t] and (pos.free_first or placed_by[t]):
            self._cur = t
        else:
            self._advance(s)
        return gains

    def swap(self, seat: str, tiles: list[Tile] | tuple[Tile, ...]) -> None:
        """Swap the whole rack (shown as ``tiles``) after the seat's last placement of a turn."""
        s = self.seat_index(seat)
        if self.end:
            raise IllegalActionError("after_end")
        if self._open != s or self._open_swapped:
            if s == self._cur and self._in_bonus:
                raise IllegalActionError("swap_bonus_first", seat=seat)
            if self._open == s:
                raise IllegalActionError("swap_already", seat=seat)
            raise IllegalActionError("swap_timing")
        refusal = swap_refused_by_bag(self._racks.bag + self._open_refill)
        if refusal is not None:
            raise refusal
        low = self.lowest_colours(seat)
        for tile in tiles:
            if tile.first in low or tile.second in low:
                raise IllegalActionError(
                    "swap_shows_lowest", tile=str(tile), seat=seat, colours=", ".join(low)
                )
        self._racks.swap(s, tiles, self._open_refill, seat)
        self._open_refill = 0
        self._open_swapped = True
        self.swaps += 1
        self._history.append(self._snap)
        self._advance(s)

    def draw(self, seat: str, tiles: list[Tile] | tuple[Tile, ...]) -> None:
        """Reveal the tiles the seat drew at its last draw (first rack, refill, after a swap)."""
        s = self.seat_index(seat)
        if self.end:
            raise IllegalActionError("after_end")
        self._racks.reveal(s, tiles, seat)
        self._open = -1
        self._history.append(self._snap)

    def flag(self, seat: str) -> None:
        """The seat's time ran out: it stops, the others play on."""
        s = self.seat_index(seat)
        if self.end:
            raise IllegalActionError("after_end")
        if self._out[s]:
            raise IllegalActionError("already_stopped", seat=seat)
        if s != self._cur and s != self._open:
            raise IllegalActionError(
                "flag_not_running", seat=seat, to_act=self.seats[self._cur]
            )
        self._flagged[s] = self._out[s] = True
        self._leave(s)

    def resign(self, seat: str) -> None:
        """The seat resigns: with two sides the game ends and the other side wins; with more
        seats the resigning seat takes no further turns."""
        s = self.seat_index(seat)
        if self.end:
            raise IllegalActionError("after_end")
        if self._out[s]:
            raise IllegalActionError("already_stopped", seat=seat)
        self._resigned[s] = self._out[s] = True
        if self.sides <= 2:
            self._history.append(self._snap)
            self._finish(Message("end_resignation"))
            return
        self._leave(s)

    # -- internals -------------------------------------------------------------------------
    def _leave(self, s: int) -> None:
        """A seat stops (flag, or resignation among three or more): undo a refill it never
        pressed for, drop its pending bonus, and pass the turn on if it was to act."""
        self._racks.stop(s, self._open_refill if self._open == s and not self._open_swapped else 0)
        self._open = -1
        self._history.append(self._snap)
        if self._cur == s:
            self._bonus = 0
            self._in_bonus = False
            self._advance(s)

    def _advance(self, s: int) -> None:
        """Give the turn to the next seat after ``s`` (``s`` itself last) that still plays and
        holds tiles; end the game when there is none or no tile can be placed."""
        n = self.players
        for k in range(1, n + 1):
            t = (s + k) % n
            if not self._out[t] and self._racks.size[t] > 0:
                if self._pos.has_legal(self._placed_by[t] == 0):
                    self._cur = t
                else:
                    self._finish(Message("end_no_placement"))
                return
        self._finish(Message("end_all_stopped") if all(self._out) else Message("end_no_tiles"))

    def _finish(self, why: Message) -> None:
        """End the game: ``end`` says why in English (records, summaries), ``end_message`` is
        the same as a code and params, for a shell that says it in another language."""
        self.end_message = why
        self.end = render(why)
        self._open = -1
        self._bonus = 0
        self._in_bonus = False

    def _not_to_act(self, s: int) -> IllegalActionError:
        """Why seat ``s`` may not place a tile now."""
        if self.end:
            return IllegalActionError("after_end")
        seat = self.seats[s]
        if self._flagged[s]:
            why = Message("seat_flagged", {"seat": seat})
        elif self._resigned[s]:
            why = Message("seat_resigned", {"seat": seat})
        elif self._in_bonus:
            why = Message("seat_to_act_bonus", {"seat": self.seats[self._cur]})
        else:
            why = Message("seat_to_act", {"seat": self.seats[self._cur]})
        return IllegalActionError("wrong_seat", token=seat, seat=seat, why=why)


def _climb(track: list[int], cap: int, ca: int, pa: int, cb: int, pb: int) -> tuple[Gains, int]:
    """Move one side's ``track`` by a tile's points: ``pa`` in colour ``ca`` (the first hex),
    ``pb`` in ``cb`` (the second); a level stops at ``cap``. Returns the gains and how many
    times a level reached 18 or 36 (partnership tracks run to 36), each earning a bonus play."""
    if ca == cb:
        halves: tuple[tuple[int, int], ...] = ((ca, pa + pb),)
    elif not pb:
        halves = ((ca, pa),)
    elif not pa:
        halves = ((cb, pb),)
    else:  # both hexes score: in colour order, as claims are written
        halves = ((ca, pa), (cb, pb)) if ca < cb else ((cb, pb), (ca, pa))
    gains: Gains = ()
    earned = 0
    for colour, points in halves:
        old = track[colour]
        new = old + points
        if new > cap:
            new = cap
        if new != old:
            track[colour] = new
            gains += (_GAIN[colour][new - old],)
            if old < 18 <= new:
                earned += 1
            if old < 36 <= new:
                earned += 1
    return gains, earned
