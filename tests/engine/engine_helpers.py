"""Helpers for the engine tests: an independent, naive model of the board and its scoring.

The reference model below shares no code with ``games.engine``: it works on axial coordinates
in a dict, walks lines step by step and recomputes everything from scratch. Comparing the
engine with it on random games checks the precomputed tables and the incremental counters.
"""

from __future__ import annotations

from games.engine import Game

COLOURS = "RGBOYP"
STARTS = {(5, 0): "R", (0, 5): "G", (-5, 5): "B", (-5, 0): "O", (0, -5): "Y", (5, -5): "P"}
STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
RADIUS = {1: 5, 2: 5, 3: 6, 4: 7}


def coords(name: str, radius: int) -> tuple[int, int]:
    """Axial coordinates of a cell name, straight from the formula in game-rules.md."""
    row, number = ord(name[0]) - ord("a"), int(name[1:])
    return number - radius - 1, radius - row


def on_board(q: int, r: int, radius: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= radius


class ReferenceBoard:
    """A board as a dict ``(q, r) -> colour letter``, start symbols included."""

    def __init__(self, players: int) -> None:
        self.radius = RADIUS[players]
        self.cells: dict[tuple[int, int], str] = dict(STARTS)

    def score(self, first: str, colour1: str, second: str, colour2: str) -> dict[str, int]:
        """Raw points of a placement (no cap), by colour, counting outward line by line."""
        a, b = coords(first, self.radius), coords(second, self.radius)
        points: dict[str, int] = {}
        for here, colour, other in ((a, colour1, b), (b, colour2, a)):
            for dq, dr in STEPS:
                if (here[0] + dq, here[1] + dr) == other:
                    continue  # the line through the tile's other hex
                q, r = here[0] + dq, here[1] + dr
                while on_board(q, r, self.radius) and self.cells.get((q, r)) == colour:
                    points[colour] = points.get(colour, 0) + 1
                    q, r = q + dq, r + dr
        return points

    def put(self, first: str, colour1: str, second: str, colour2: str) -> None:
        self.cells[coords(first, self.radius)] = colour1
        self.cells[coords(second, self.radius)] = colour2

    def empty_pairs(self) -> int:
        """Adjacent pairs of empty cells, counted by scanning the whole board."""
        n = self.radius
        empty = {
            (q, r)
            for q in range(-n, n + 1)
            for r in range(-n, n + 1)
            if on_board(q, r, n) and (q, r) not in self.cells
        }
        return sum(1 for q, r in empty for dq, dr in STEPS[:3] if (q + dq, r + dr) in empty)


def preset(game: Game, seat: str, **levels: int) -> None:
    """Set score tracks directly (test set-up only), e.g. ``preset(game, "A", R=17)``."""
    track = game._tracks[game._side[game.seats.index(seat)]]
    for colour, value in levels.items():
        track[COLOURS.index(colour)] = value
    game._snap = tuple(map(tuple, game._tracks))


def play(game: Game, *lines: str) -> list[dict[str, int]]:
    """Apply actions written like record lines without claims: ``"A f10R-f9R"``,
    ``"B swap RR GG"``, ``"A draw RG"``, ``"A flag"``, ``"B resign"``."""
    from games.engine import Tile

    gains = []
    for line in lines:
        seat, verb, *rest = line.split()
        if verb in ("swap", "draw"):
            getattr(game, verb)(seat, [Tile.parse(t) for t in rest])
        elif verb in ("flag", "resign"):
            getattr(game, verb)(seat)
        else:
            gains.append(game.place(seat, verb))
    return gains


#: The opening of game-rules.md section 7 (a legal opening under ``mso``).
EXAMPLE = """[Event "Demo Open"]
[Round "3"]
[Board "2"]
[First "Ada Lovelace"]
[Second "Blaise Pascal"]
[Players "2"]
[Rules "mso"]
[TileSet "standard"]
[TimeControl "600"]
[Result "0-1"]

1. A d1B-e1R
2. B e2B-f2O {B+1 O+1}
3. A g2O-g3O {O+3}
4. B j10P-k10P {P+2}
5. A j9P-k9G {P+2}  ; a comment
6. B k7Y-k8G {G+1 Y+1} @9:12
7. B swap OY YP GY YP YP
8. A i8P-j8G {G+2 P+2}
"""
