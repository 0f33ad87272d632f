"""What lies on the board: occupancy, scoring, placement legality, and the end-of-game count.

The hot path of the engine. Cells are integer indices into the :class:`~.board.Board` tables;
the position keeps, updated on every placement and never rescanned:

- ``cells[i]``: the colour index on cell ``i`` (start symbols included) or -1 when empty;
- ``touching[i]``: how many occupied cells touch cell ``i`` (the ``touch`` placement rule; an
  empty cell's empty neighbours are its degree minus this);
- ``pairs``: how many pairs of adjacent cells are both empty (zero ends the game);
- which start symbols a first-round tile already touches (the ``kosmos`` first round).
"""

from __future__ import annotations

from .board import COLOURS, Board
from .errors import IllegalActionError
from .messages import Message
from .rules import TOUCH, Profile

__all__ = ["EMPTY", "Position"]

EMPTY = -1


class Position:
    """Tiles and start symbols on one board, with incremental counters."""

    __slots__ = (
        "board",
        "cells",
        "degree",
        "direction",
        "free_first",
        "fresh_first",
        "neighbours",
        "pairs",
        "scan",
        "size",
        "touch_rule",
        "touched_symbols",
        "touching",
    )

    def __init__(self, board: Board, profile: Profile) -> None:
        self.board = board
        self.size = board.size
        self.direction, self.scan, self.neighbours = board.direction, board.scan, board.neighbours
        self.degree = tuple(map(len, board.neighbours))
        self.cells = list(board.start_colour)
        self.touch_rule = profile.placement == TOUCH
        self.fresh_first = profile.first_round is not None
        self.free_first = not self.fresh_first  # first tiles follow the usual rule
        self.touched_symbols = [False] * 6
        self.touching = list(board.initial_touching)
        self.pairs = board.initial_pairs

    # -- legality ---------------------------------------------------------------------------
    def check(self, a: int, b: int, first_round: bool) -> int:
        """Raise unless a tile may cover cells ``a`` and ``b``; return the direction a -> b.

        ``first_round`` says that the placing seat has not placed yet (the profile's
        first-round rule, if any, then applies instead of its placement rule).
        """
        cells = self.cells
        if cells[a] != EMPTY or cells[b] != EMPTY:
            bad = a if cells[a] != EMPTY else b
            raise self._taken(bad)
        d = self.board.direction.get(a * self.size + b)
        if d is None:
            names = self.board.names
            if a == b:
                raise IllegalActionError("same_cell", cell=names[a])
            raise IllegalActionError("not_adjacent", first=names[a], second=names[b])
        if first_round and self.fresh_first:
            if not self._fresh_symbols(a, b):
                raise IllegalActionError("first_round_rule", free=self._fresh_list())
        elif self.touch_rule and not (self.touching[a] or self.touching[b]):
            raise IllegalActionError("touch_rule")
        return d

    def allowed(self, a: int, b: int, first_round: bool) -> bool:
        """Whether the adjacent cells ``a`` and ``b`` may take a tile now (no exception)."""
        cells = self.cells
        if cells[a] != EMPTY or cells[b] != EMPTY:
            return False
        if first_round and self.fresh_first:
            return bool(self._fresh_symbols(a, b))
        return not self.touch_rule or bool(self.touching[a] or self.touching[b])

    def allowed_pairs(self, first_round: bool) -> list[tuple[int, int]]:
        """Every unordered pair of adjacent cells a tile may cover now (a full scan)."""
        allowed = self.allowed
        return [(a, b) for a, b in self.board.edges if allowed(a, b, first_round)]

    def reaching(self, first_round: bool) -> list[int]:
        """The empty cells from which a tile meets the rule in force now: a pair of adjacent
        empty cells may take a tile exactly when one of them is among these (the rules only
        ask what one of the two cells touches), so a page can mark where a tile can go."""
        cells, board = self.cells, self.board
        empty = [c for c in range(self.size) if cells[c] == EMPTY]
        if first_round and self.fresh_first:
            colour_at, touched = board.start_colour, self.touched_symbols
            return [c for c in empty if any(colour_at[n] >= 0 and not touched[colour_at[n]]
                                            for n in board.neighbours[c])]
        if self.touch_rule:
            return [c for c in empty if self.touching[c]]
        return empty

    def has_legal(self, first_round: bool) -> bool:
        """Whether any tile can be placed; O(1) except in a fresh-symbol first round."""
        if first_round and self.fresh_first:
            board, cells = self.board, self.cells
            for colour, symbol in enumerate(board.start_cells):
                if self.touched_symbols[colour]:
                    continue
                for a in board.neighbours[symbol]:
                    if cells[a] == EMPTY and any(cells[b] == EMPTY for b in board.neighbours[a]):
                        return True
            return False
        # For both placement rules a legal placement exists iff two adjacent cells are empty:
        # an empty region of two or more cells always borders a tile or a start symbol.
        return self.pairs > 0

    def _fresh_symbols(self, a: int, b: int) -> list[int]:
        colour_at, touched, board = self.board.start_colour, self.touched_symbols, self.board
        return [
            colour_at[n]
            for n in (*board.neighbours[a], *board.neighbours[b])
            if colour_at[n] >= 0 and not touched[colour_at[n]]
        ]

    def _fresh_list(self) -> str | Message:
        """The start symbols no first-round tile touches yet, like ``R a1, G b2``."""
        names = self.board.names
        free = [
            f"{COLOURS[c]} {names[self.board.start_cells[c]]}"
            for c in range(6)
            if not self.touched_symbols[c]
        ]
        return ", ".join(free) or Message("no_symbol_free")

    def _taken(self, cell: int) -> IllegalActionError:
        """The refusal of a tile on a cell that is not empty (a start symbol, or covered)."""
        name = self.board.names[cell]
        if self.board.start_colour[cell] >= 0:
            colour = COLOURS[self.board.start_colour[cell]]
            return IllegalActionError("cell_is_start_symbol", cell=name, colour=colour)
        return IllegalActionError("cell_occupied", cell=name, colour=COLOURS[self.cells[cell]])

    def play(self, a: int, ca: int, b: int, cb: int, first_round: bool) -> tuple[int, int]:
        """Check, score and put a tile in one call (the hot path); return each hex's points.

        Equivalent to :meth:`check`, :meth:`score` and :meth:`put`; nothing changes when the
        placement is refused.
        """
        cells = self.cells
        d = self.direction.get(a * self.size + b)
        if (
            d is None
            or cells[a] != EMPTY
            or cells[b] != EMPTY
            or (first_round and self.fresh_first)
            or (self.touch_rule and not (self.touching[a] or self.touching[b]))
        ):
            d = self.check(a, b, first_round)  # raises, or passes a first-round placement
        scan = self.scan
        pa = 0
        for ray in scan[a * 6 + d]:
            if cells[ray[0]] == ca:  # rays are never empty; most stop at once
                for c in ray:
                    if cells[c] != ca:
                        break
                    pa += 1
        pb = 0
        for ray in scan[b * 6 + (d + 3) % 6]:
            if cells[ray[0]] == cb:
                for c in ray:
                    if cells[c] != cb:
                        break
                    pb += 1
        touching, nbrs, degree = self.touching, self.neighbours, self.degree
        # empty pairs lost: a's empty neighbours (b among them) and b's other empty neighbours
        self.pairs -= degree[a] - touching[a] + degree[b] - touching[b] - 1
        for n in nbrs[a]:
            touching[n] += 1
        for n in nbrs[b]:
            touching[n] += 1
        cells[a] = ca
        cells[b] = cb
        if first_round and self.fresh_first:
            colour_at = self.board.start_colour
            for n in (*nbrs[a], *nbrs[b]):
                if colour_at[n] >= 0:
                    self.touched_symbols[colour_at[n]] = True
        return pa, pb

    # -- scoring ----------------------------------------------------------------------------
    def score(self, a: int, ca: int, b: int, cb: int, d: int) -> tuple[int, int]:
        """Points of each hex: consecutive same-colour symbols along its five outward lines.

        The line through the tile's other hex is skipped, so the tile's own other half never
        counts; start symbols are in ``cells`` and count like tiles.
        """
        cells, scan = self.cells, self.board.scan
        pa = 0
        for ray in scan[a * 6 + d]:
            for c in ray:
                if cells[c] != ca:
                    break
                pa += 1
        pb = 0
        for ray in scan[b * 6 + (d + 3) % 6]:
            for c in ray:
                if cells[c] != cb:
                    break
                pb += 1
        return pa, pb
