"""Board geometry: cells, names, neighbours and scoring rays, built once per board size.

Cells are numbered 0..n-1 so that the hot path (scoring, legality, end detection) only indexes
tuples and lists. Axial coordinates ``(q, r)`` with ``s = -q - r``; ``q`` grows to the east,
``r`` towards the bottom. People see names: row letter ``'a' + (N - r)``, number ``q + N + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .errors import IllegalActionError, NotationError

__all__ = ["COLOURS", "DIRECTIONS", "START_SYMBOLS", "Board"]

#: Colour letters in their canonical order (red, green, blue, orange, yellow, purple).
COLOURS = "RGBOYP"
_COLOUR_NAMES = ("red", "green", "blue", "orange", "yellow", "purple")

#: The six axial directions; direction ``d`` and ``(d + 3) % 6`` are opposite.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: The printed start symbols, colour -> axial cell (data, easy to change).
START_SYMBOLS: dict[str, tuple[int, int]] = {
    "R": (5, 0),
    "G": (0, 5),
    "B": (-5, 5),
    "O": (-5, 0),
    "Y": (0, -5),
    "P": (5, -5),
}

_RADIUS_FOR_PLAYERS = {1: 5, 2: 5, 3: 6, 4: 7}


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The geometry of one board size, with every table the hot path needs.

    Build it with :meth:`for_players` or :meth:`of_radius` (cached: one instance per size).
    ``neighbours[i]`` lists the cells next to cell ``i``; ``step[i][d]`` is the neighbour in
    direction ``d`` or -1; ``rays[i][d]`` is the straight line of cells from ``i`` outward
    (``i`` excluded); ``scan[i * 6 + d]`` holds the five rays of ``i`` other than direction ``d``
    (what a hex scores along when its tile's other hex lies in direction ``d``).
    ``initial_touching`` and ``initial_pairs`` seed the position's incremental counters.
    """

    radius: int
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    step: tuple[tuple[int, ...], ...]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    scan: tuple[tuple[tuple[int, ...], ...], ...]
    direction: dict[int, int]
    edges: tuple[tuple[int, int], ...]
    start_cells: tuple[int, ...]
    start_colour: tuple[int, ...]
    initial_touching: tuple[int, ...]
    initial_pairs: int

    @staticmethod
    def for_players(players: int) -> Board:
        """The board for 1-4 players: radius 5 (1-2 players), 6 (3) or 7 (4)."""
        if players not in _RADIUS_FOR_PLAYERS:
            raise NotationError("players_unsupported", token=str(players), players=players)
        return Board.of_radius(_RADIUS_FOR_PLAYERS[players])

    @staticmethod
    def of_radius(radius: int) -> Board:
        """The board of radius 5, 6 or 7 (cached: tables are built once per size)."""
        if radius not in (5, 6, 7):
            raise NotationError("radius_unsupported", radius=radius)
        return _build(radius)

    @property
    def size(self) -> int:
        """Number of cells, start symbols included (91, 127, 169)."""
        return len(self.coords)

    @property
    def free_cells(self) -> int:
        """Number of cells a tile may cover (85, 121, 163)."""
        return len(self.coords) - len(self.start_cells)

    def cell(self, name: str) -> int:
        """The index of a cell given by name; an unknown name is an illegal action."""
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise IllegalActionError(
                "unknown_cell", token=str(name), cell=name, radius=self.radius
            ) from None

    def name_of(self, q: int, r: int) -> str:
        """The name of the cell at axial ``(q, r)``."""
        n = self.radius
        if max(abs(q), abs(r), abs(q + r)) > n:
            raise IllegalActionError("coords_off_board", q=q, r=r, radius=n)
        return f"{chr(ord('a') + n - r)}{q + n + 1}"

    def coords_of(self, name: str) -> tuple[int, int]:
        """The axial ``(q, r)`` of a named cell."""
        return self.coords[self.cell(name)]

    def are_adjacent(self, first: str, second: str) -> bool:
        """Whether two named cells touch."""
        return self.cell(first) * len(self.coords) + self.cell(second) in self.direction

    def start_symbol(self, name: str) -> str | None:
        """The colour letter printed on a cell, or None for a free cell."""
        colour = self.start_colour[self.cell(name)]
        return None if colour < 0 else COLOURS[colour]


@cache
def _build(radius: int) -> Board:
    cells = [
        (q, r)
        for r in range(radius, -radius - 1, -1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]
    at = {qr: i for i, qr in enumerate(cells)}
    names = tuple(f"{chr(ord('a') + radius - r)}{q + radius + 1}" for q, r in cells)
    size = len(cells)
    step = tuple(tuple(at.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in cells)
    neighbours = tuple(tuple(c for c in row if c >= 0) for row in step)
    rays = []
    for q, r in cells:
        per_dir = []
        for dq, dr in DIRECTIONS:
            line, (x, y) = [], (q + dq, r + dr)
            while (x, y) in at:
                line.append(at[(x, y)])
                x, y = x + dq, y + dr
            per_dir.append(tuple(line))
        rays.append(tuple(per_dir))
    scan = tuple(
        tuple(ray for d, ray in enumerate(rays[i]) if d != skip and ray)
        for i in range(size)
        for skip in range(6)
    )
    direction = {a * size + b: d for a in range(size) for d, b in enumerate(step[a]) if b >= 0}
    edges = tuple((a, b) for a in range(size) for b in neighbours[a] if a < b)
    start_cells = tuple(at[START_SYMBOLS[c]] for c in COLOURS)
    start_colour = [-1] * size
    for colour, cell in enumerate(start_cells):
        start_colour[cell] = colour
    occupied = [c >= 0 for c in start_colour]
    return Board(
        radius=radius,
        coords=tuple(cells),
        names=names,
        index={name: i for i, name in enumerate(names)},
        neighbours=neighbours,
        step=step,
        rays=tuple(rays),
        scan=scan,
        direction=direction,
        edges=edges,
        start_cells=start_cells,
        start_colour=tuple(start_colour),
        initial_touching=tuple(sum(occupied[n] for n in nbrs) for nbrs in neighbours),
        initial_pairs=sum(1 for a, b in edges if not occupied[a] and not occupied[b]),
    )


def colour_name(colour: str) -> str:
    """The English name of a colour letter (for messages)."""
    return _COLOUR_NAMES[COLOURS.index(colour)]
