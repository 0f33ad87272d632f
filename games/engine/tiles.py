"""Tiles, placements, tile sets and the bag.

A tile is an unordered pair of colours (21 kinds: 15 two-colour pairs and 6 doubles); a
placement puts a tile's two hexes on two named cells. Both are value objects that parse and
print themselves (``Placement.parse("f10R-f9G")`` and ``str(placement)`` round-trip). The bag
takes a ``random.Random`` so that every draw can be replayed from a seed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .board import COLOURS
from .errors import IllegalActionError, NotationError

__all__ = [
    "KINDS",
    "RACK_SIZE",
    "TILE_SETS",
    "Bag",
    "Placement",
    "Tile",
    "TileSet",
    "kind_of",
    "swap_refused_by_bag",
]

#: Tiles in a full rack; a swap draws this many new tiles.
RACK_SIZE = 6

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}

#: The 21 tile kinds as colour-index pairs (first <= second), in canonical order.
KINDS: tuple[tuple[int, int], ...] = tuple((i, j) for i in range(6) for j in range(i, 6))
_KIND = [0] * 36
for _k, (_i, _j) in enumerate(KINDS):
    _KIND[_i * 6 + _j] = _KIND[_j * 6 + _i] = _k
#: ``KIND_OF[c1 * 6 + c2]`` is the kind index of the tile with colour indices c1 and c2.
KIND_OF: tuple[int, ...] = tuple(_KIND)


def kind_of(first: int, second: int) -> int:
    """The kind index (0-20) of a tile given by two colour indices, either order."""
    return KIND_OF[first * 6 + second]


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile: two colour letters in canonical order (``Tile.parse("YO") == Tile("O", "Y")``)."""

    first: str
    second: str

    def __post_init__(self) -> None:
        if self.first not in _COLOUR_INDEX or self.second not in _COLOUR_INDEX:
            tile = f"{self.first}{self.second}"
            raise NotationError("tile_letters", token=tile, tile=tile, colours=COLOURS)
        if _COLOUR_INDEX[self.first] > _COLOUR_INDEX[self.second]:
            tile = f"{self.first}{self.second}"
            raise NotationError("tile_order", token=tile, tile=tile)

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse two colour letters in either order (``"OY"``, ``"YO"``)."""
        try:
            return _TILES[text]
        except (KeyError, TypeError):
            raise NotationError(
                "not_a_tile", token=str(text), text=text, colours=COLOURS
            ) from None

    @property
    def kind(self) -> int:
        """The kind index (0-20)."""
        return KIND_OF[_COLOUR_INDEX[self.first] * 6 + _COLOUR_INDEX[self.second]]

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    def shows(self, colour: str) -> bool:
        """Whether either hex of the tile has this colour."""
        return colour in (self.first, self.second)

    def __str__(self) -> str:
        return self.first + self.second


_TILES: dict[str, Tile] = {}
for _a, _b in KINDS:
    _tile = Tile(COLOURS[_a], COLOURS[_b])
    _TILES[COLOURS[_a] + COLOURS[_b]] = _TILES[COLOURS[_b] + COLOURS[_a]] = _tile
#: Tile objects by kind index.
TILE_OF_KIND: tuple[Tile, ...] = tuple(_TILES[COLOURS[a] + COLOURS[b]] for a, b in KINDS)

_PLACEMENT = re.compile(r"([a-z][0-9]{1,3})([RGBOYP])-([a-z][0-9]{1,3})([RGBOYP])")


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile put on two cells: ``f10R-f9G`` is red on f10 and green on f9.

    Cell names are kept as text: whether they exist and touch depends on the board, which the
    game checks (an unknown cell is an illegal action, not a notation error).
    """

    first: str
    first_colour: str
    second: str
    second_colour: str

    @staticmethod
    def parse(text: str) -> Placement:
        """Parse ``<cell><colour>-<cell><colour>``, e.g. ``"f10R-f9G"``."""
        match = _PLACEMENT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError("not_a_placement", token=str(text), text=text)
        return Placement(*match.groups())

    @property
    def tile(self) -> Tile:
        """The tile this placement uses."""
        return _TILES[self.first_colour + self.second_colour]

    def __str__(self) -> str:
        return f"{self.first}{self.first_colour}-{self.second}{self.second_colour}"


@dataclass(frozen=True, slots=True)
class TileSet:
    """A named tile set: how many tiles of each of the 21 kinds it holds."""

    name: str
    counts: tuple[int, ...]
    max_players: int

    @property
    def total(self) -> int:
        return sum(self.counts)

    def count(self, tile: Tile) -> int:
        """How many tiles of this kind the set holds."""
        return self.counts[tile.kind]

    def tiles(self) -> list[Tile]:
        """Every tile of the set, in kind order (the bag shuffles them)."""
        return [TILE_OF_KIND[k] for k, n in enumerate(self.counts) for _ in range(n)]


def _counts(pair: int, double: int) -> tuple[int, ...]:
    return tuple(double if a == b else pair for a, b in KINDS)


#: Registered tile sets: the boxed game (120) and the Travel Edition (57, two players).
TILE_SETS: dict[str, TileSet] = {
    "standard": TileSet("standard", _counts(6, 5), max_players=4),
    "travel": TileSet("travel", _counts(3, 2), max_players=2),
}


def get_tile_set(name: str) -> TileSet:
    """The tile set registered under ``name``; an unknown name lists the valid ones."""
    try:
        return TILE_SETS[name]
    except (KeyError, TypeError):
        raise NotationError(
            "unknown_tile_set", token=str(name), name=name, valid=", ".join(sorted(TILE_SETS))
        ) from None


def swap_refused_by_bag(in_bag: int) -> IllegalActionError | None:
    """Why a swap is impossible with ``in_bag`` tiles in the bag, or None: the six new tiles are
    drawn before the shown ones go back (game-rules.md section 3 step 5)."""
    if in_bag >= RACK_SIZE:
        return None
    return IllegalActionError("swap_bag", count=in_bag)


class Bag:
    """The bag of hidden tiles; every draw uses the injected ``random.Random``.

    Drawing picks a uniformly random tile; returning puts tiles back, so no reshuffle is needed.
    """

    __slots__ = ("_rng", "_tiles")

    def __init__(self, tile_set: TileSet, rng: random.Random) -> None:
        self._rng = rng
        self._tiles = tile_set.tiles()

    def __len__(self) -> int:
        return len(self._tiles)

    def draw(self, count: int) -> list[Tile]:
        """Draw up to ``count`` tiles (fewer when the bag runs out)."""
        tiles, rng = self._tiles, self._rng
        drawn = []
        for _ in range(min(count, len(tiles))):
            i = rng.randrange(len(tiles))
            tiles[i], tiles[-1] = tiles[-1], tiles[i]
            drawn.append(tiles.pop())
        return drawn

    def put_back(self, tiles: list[Tile]) -> None:
        """Return tiles to the bag."""
        self._tiles.extend(tiles)

    def swap(self, shown: list[Tile]) -> list[Tile]:
        """Swap a rack: draw six new tiles first, then put the ``shown`` ones back, so a shown
        tile cannot come straight back. Refused (nothing drawn) with fewer than six in the bag."""
        refusal = swap_refused_by_bag(len(self._tiles))
        if refusal is not None:
            raise refusal
        drawn = self.draw(RACK_SIZE)
        self.put_back(shown)
        return drawn
