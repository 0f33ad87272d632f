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
"""

from __future__ import annotations

from .board import COLOURS, Board
from .errors import IllegalActionError, NotationError
from .position import Position
from .racks import RACK_SIZE, Racks
from .result import VerifiedGame, summarize
from .rules import ONE_PER_COLOUR, Profile, get_profile
from .tiles import KIND_OF, Placement, Tile, TileSet, get_tile_set, swap_refused_by_bag

__all__ = ["Game"]

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
                f"the {self.tile_set.name} tile set is for at most "
                f"{self.tile_set.max_players} players, not {players}",
                token=str(players),
            )
        if partnership and players != 4:
            raise NotationError(f"a partnership game needs 4 players, not {players}")
        self.players = players
        self.partnership = partnership
        self.seats = _SEATS[:players]
        self._pos = Position(self.board, self.profile)
        self._side = [s % 2 for s in range(players)] if partnership else list(range(players))
        self._tracks = [[0] * 6 for _ in range(2 if partnership else players)]
        self._cap = 36 if partnership else 18
        self._per_colour = self.profile.bonus == ONE_PER_COLOUR
        self._racks = racks = Racks(self.tile_set, players)
        # the hot path uses the rack lists directly
        self._set_counts, self._placed, self._known_total = (
            racks.set_counts,
            racks.placed,
            racks.known_total,
        )
        self._known, self._rack, self._unknown, self._pending = (
            racks.known,
            racks.size,
            racks.unknown,
            racks.pending,
        )
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
        self._winner_side = -1
        self._resigned_side = -1
        self.placements = self.bonus_plays = self.swaps = 0
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
    def history(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per action so far: the six track levels of each side (seat, or team 0 = A+C)."""
        return list(self._history)

    @property
    def bag_size(self) -> int:
        return self._racks.bag

    def rack_size(self, seat: str) -> int:
        return self._rack[self._seat(seat)]

    def lowest_colours(self, seat: str) -> str:
        """The colour letters tied for the seat's lowest track level."""
        track = self._tracks[self._side[self._seat(seat)]]
        low = min(track)
        return "".join(c for c, v in zip(COLOURS, track, strict=True) if v == low)

    def legal_placements(self, tile: Tile | str) -> list[Placement]:
        """Every placement of ``tile`` the seat to move may make now (both ways round)."""
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        if self.end:
            return []
        names = self.board.names
        first, second = tile.first, tile.second
        result = []
        for a, b in self._pos.allowed_pairs(self._placed_by[self._cur] == 0):
            result.append(Placement(names[a], first, names[b], second))
            if first != second:
                result.append(Placement(names[a], second, names[b], first))
        return result

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
            self._place(
                self._seat(seat),
                board.cell(placement.first),
                _COLOUR_INDEX[placement.first_colour],
                board.cell(placement.second),
                _COLOUR_INDEX[placement.second_colour],
            )
        )

    def _place(self, s: int, a: int, ca: int, b: int, cb: int) -> tuple[tuple[str, int], ...]:
        """The hot path: cell and colour indices in, the moved tracks out (claim format)."""
        if s != self._cur or self.end:
            raise self._not_to_act(s, "place a tile")
        pos = self._pos
        placed_by = self._placed_by
        first = placed_by[s] == 0
        kind = KIND_OF[ca * 6 + cb]
        known = self._known[s]
        from_known = known is not None and known[kind] > 0
        unknown, placed = self._unknown, self._placed
        if not from_known and (
            unknown[s] == 0 or placed[kind] + self._known_total[kind] >= self._set_counts[kind]
        ):
            pos.check(a, b, first)  # a problem with the cells is reported first
            raise self._racks.take_error(s, kind, self.seats[s])  # type: ignore[misc]
        pa, pb = pos.play(a, ca, b, cb, first)
        # -- from here on nothing can fail: mutate.
        self._open = -1
        if self._open_swapped:  # the game moves on: a swap's shown tiles are in the bag now
            self._open_swapped = False
            self._racks.release()
        if from_known:
            known[kind] -= 1  # type: ignore[index]
            self._known_total[kind] -= 1
        else:
            unknown[s] -= 1
        placed[kind] += 1
        rack, pending = self._rack, self._pending
        rack[s] -= 1
        pending[s] = 0
        placed_by[s] += 1
        self.placements += 1
        if self._in_bonus:
            self.bonus_plays += 1
            self._in_bonus = False
        if ca == cb:
            pa, pb = pa + pb, 0
        side = self._side[s]
        track = self._tracks[side]
        cap = self._cap
        earned = ga = gb = 0
        if pa:
            old = track[ca]
            new = old + pa if old + pa < cap else cap
            ga = new - old
            if old < 18 <= new:
                earned = 1
            if old < 36 <= new:  # partnership tracks run to 36
                earned += 1
            track[ca] = new
        if pb:
            old = track[cb]
            new = old + pb if old + pb < cap else cap
            gb = new - old
            if old < 18 <= new:
                earned += 1
            if old < 36 <= new:
                earned += 1
            track[cb] = new
        if ga or gb:
            # only this side's levels changed: reuse the other sides' snapshots
            snap = self._snap
            if len(snap) == 2:
                snap = (tuple(track), snap[1]) if side == 0 else (snap[0], tuple(track))
            else:
                snap = (*snap[:side], tuple(track), *snap[side + 1 :])
            self._snap = snap
            if not gb:
                gains: tuple[tuple[str, int], ...] = (_GAIN[ca][ga],)
            elif not ga:
                gains = (_GAIN[cb][gb],)
            elif ca < cb:
                gains = (_GAIN[ca][ga], _GAIN[cb][gb])
            else:
                gains = (_GAIN[cb][gb], _GAIN[ca][ga])
        else:
            snap = self._snap
            gains = ()
        self._history.append(snap)
        if earned:
            if min(track) == cap:
                self._winner_side = side
                self._finish(f"all six colours at {cap}")
                return gains
            self._bonus += earned if self._per_colour else 1
        if self._bonus and rack[s] and pos.pairs:
            self._bonus -= 1
            self._in_bonus = True
            return gains
        # end of the turn: refill now (a swap or a flag in the window undoes it), then pass on
        self._bonus = 0
        racks = self._racks
        bag = racks.bag
        refill = RACK_SIZE - rack[s]
        if refill > bag:
            refill = bag
        racks.bag = bag - refill
        rack[s] += refill
        unknown[s] += refill
        pending[s] = refill
        self._open, self._open_refill, self._open_swapped = s, refill, False
        t = s + 1 if s + 1 < self.players else 0
        if rack[t] and pos.pairs and not self._out[t] and (pos.free_first or placed_by[t]):
            self._cur = t
        else:
            self._advance(s)
        return gains

    def swap(self, seat: str, tiles: list[Tile] | tuple[Tile, ...]) -> None:
        """Swap the whole rack (shown as ``tiles``) after the seat's last placement of a turn."""
        s = self._seat(seat)
        if self.end:
            raise IllegalActionError("action after the end of the game")
        if self._open != s or self._open_swapped:
            if s == self._cur and self._in_bonus:
                why = f"seat {seat} must make its bonus play first"
            elif self._open == s:
                why = f"seat {seat} already swapped this turn"
            else:
                why = "a swap must follow the seat's own last placement of its turn"
            raise IllegalActionError(f"swap not allowed now: {why}")
        refusal = swap_refused_by_bag(self._racks.bag + self._open_refill)
        if refusal is not None:
            raise refusal
        low = self.lowest_colours(seat)
        for tile in tiles:
            if tile.first in low or tile.second in low:
                raise IllegalActionError(
                    f"swap not allowed with that rack: tile '{tile}' shows one of seat {seat}'s "
                    f"lowest colours ({', '.join(low)})"
                )
        self._racks.swap(s, tiles, self._open_refill, seat)
        self._open_refill = 0
        self._open_swapped = True
        self.swaps += 1
        self._history.append(self._snap)
        self._advance(s)

    def draw(self, seat: str, tiles: list[Tile] | tuple[Tile, ...]) -> None:
        """Reveal the tiles the seat drew at its last draw (first rack, refill, after a swap)."""
        s = self._seat(seat)
        if self.end:
            raise IllegalActionError("action after the end of the game")
        self._racks.reveal(s, tiles, seat)
        self._open = -1
        self._history.append(self._snap)

    def flag(self, seat: str) -> None:
        """The seat's time ran out: it stops, the others play on."""
        s = self._seat(seat)
        if self.end:
            raise IllegalActionError("action after the end of the game")
        if self._out[s]:
            raise IllegalActionError(f"seat {seat} has already stopped playing")
        if s != self._cur and s != self._open:
            raise IllegalActionError(
                f"flag for seat {seat} not allowed now: its clock is not running "
                f"(seat {self.seats[self._cur]} is to act)"
            )
        self._flagged[s] = self._out[s] = True
        self._leave(s)

    def resign(self, seat: str) -> None:
        """The seat resigns: with two sides the game ends and the other side wins; with more
        seats the resigning seat takes no further turns."""
        s = self._seat(seat)
        if self.end:
            raise IllegalActionError("action after the end of the game")
        if self._out[s]:
            raise IllegalActionError(f"seat {seat} has already stopped playing")
        self._resigned[s] = self._out[s] = True
        if len(self._tracks) <= 2:
            self._resigned_side = self._side[s]
            self._history.append(self._snap)
            self._finish("resignation")
            return
        self._leave(s)

    # -- internals -------------------------------------------------------------------------
    def _leave(self, s: int) -> None:
        """A seat stops (flag, or resignation among three or more): undo a refill it never
        pressed for, drop its pending bonus, and pass the turn on if it was to act."""
        self._pending[s] = 0
        if self._open == s and not self._open_swapped:
            self._racks.undo_refill(s, self._open_refill)
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
            if not self._out[t] and self._rack[t] > 0:
                if self._pos.has_legal(self._placed_by[t] == 0):
                    self._cur = t
                else:
                    self._finish("no legal placement left")
                return
        self._finish("every seat has stopped" if all(self._out) else "no tiles left to place")

    def _finish(self, why: str) -> None:
        self.end = why
        self._open = -1
        self._bonus = 0
        self._in_bonus = False

    def _seat(self, seat: str) -> int:
        i = _SEATS.find(seat) if isinstance(seat, str) and len(seat) == 1 else -1
        if not 0 <= i < self.players:
            raise IllegalActionError(
                f"seat '{seat}' does not play in this {self.players}-player game "
                f"(seats {', '.join(self.seats)})",
                token=str(seat),
            )
        return i

    def _not_to_act(self, s: int, what: str) -> IllegalActionError:
        if self.end:
            return IllegalActionError("action after the end of the game")
        seat = self.seats[s]
        if self._flagged[s]:
            why = f"seat {seat} has flagged and takes no further turns"
        elif self._resigned[s]:
            why = f"seat {seat} has resigned"
        else:
            why = f"seat {self.seats[self._cur]} is to act" + (
                " (bonus play)" if self._in_bonus else ""
            )
        return IllegalActionError(f"wrong seat to act: {seat} cannot {what}; {why}", token=seat)
