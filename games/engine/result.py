"""Results: level vectors, differences, winner or draw, and the verified-game value object.

A side's *level vector* is its six track levels sorted ascending; sides compare
lexicographically (the higher lowest colour wins, then the second-lowest, ...), and only
identical vectors draw. With two sides (two players, or the two partnerships A+C and B+D) the
result is written ``1-0``, ``0-1`` or ``½-½``; with three or four players it is each seat's
place, e.g. ``2-1-3`` (shared places repeat); solo, it is the final score (the lowest colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import COLOURS

if TYPE_CHECKING:
    from .game import Game

__all__ = ["VerifiedGame", "normalize_result", "summarize"]

Levels = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class VerifiedGame:
    """What a replay established about a game.

    ``scores``, ``levels`` and ``differences`` are keyed by seat (``"A"``...; partners show
    their shared tracks). ``differences[seat]`` is the seat's level vector minus the opponent's
    element by element (with three or more players: minus the best other seat's). ``history``
    holds, after every action of the record, each seat's six track levels in colour order
    R G B O Y P. ``result`` is None and ``finished`` False while the game is not over.
    """

    seats: tuple[str, ...]
    players: int
    profile: str
    tile_set: str
    partnership: bool
    finished: bool
    end: str
    scores: dict[str, dict[str, int]]
    levels: dict[str, Levels]
    differences: dict[str, Levels]
    result: str | None
    winners: tuple[str, ...]
    placements: int
    bonus_plays: int
    swaps: int
    flagged: tuple[str, ...]
    resigned: tuple[str, ...]
    history: tuple[tuple[Levels, ...], ...]

    @property
    def lowest(self) -> dict[str, int]:
        """Each seat's lowest colour level (what the match slip shows)."""
        return {seat: levels[0] for seat, levels in self.levels.items()}

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready summary (the shape ``verify_log --json`` prints, without ``ok``)."""
        return {
            "scores": {seat: dict(colours) for seat, colours in self.scores.items()},
            "levels": {seat: list(v) for seat, v in self.levels.items()},
            "differences": {seat: list(v) for seat, v in self.differences.items()},
            "result": self.result,
            "placements": self.placements,
            "bonus_plays": self.bonus_plays,
            "swaps": self.swaps,
        }


def normalize_result(text: str) -> str:
    """Read ``1/2-1/2`` as ``½-½``; other spellings are kept as written."""
    return text.strip().replace("1/2", "½")


def summarize(game: Game) -> VerifiedGame:
    """Build the :class:`VerifiedGame` of a game's current state."""
    seats, side = game.seats, game._side
    tracks = [tuple(t) for t in game._tracks]
    side_levels = [tuple(sorted(t)) for t in tracks]
    nsides = len(tracks)
    finished = game.is_over
    # rank key per side: a side that resigned ranks below every side that did not.
    resigned_side = [False] * nsides
    for s in range(game.players):
        if game._resigned[s]:
            resigned_side[side[s]] = True
    key = [(not resigned_side[i], side_levels[i]) for i in range(nsides)]
    if game._winner_side >= 0:
        key[game._winner_side] = (True, (10**6,) * 6)
    best_other = [
        max((j for j in range(nsides) if j != i), key=lambda j: key[j], default=-1)
        for i in range(nsides)
    ]
    differences: dict[str, Levels] = {}
    if nsides > 1:
        for s, seat in enumerate(seats):
            mine, other = side_levels[side[s]], side_levels[best_other[side[s]]]
            differences[seat] = tuple(x - y for x, y in zip(mine, other, strict=True))
    result: str | None = None
    winners: tuple[str, ...] = ()
    if finished:
        places = [1 + sum(1 for j in range(nsides) if key[j] > key[i]) for i in range(nsides)]
        if nsides == 1:
            result = str(side_levels[0][0])
        elif nsides == 2:
            result = {(1, 2): "1-0", (2, 1): "0-1"}.get((places[0], places[1]), "½-½")
        else:
            result = "-".join(str(p) for p in places)
        winners = tuple(seat for s, seat in enumerate(seats) if places[side[s]] == 1)
        if nsides == 2 and result == "½-½":
            winners = ()
    if game.partnership:
        history = tuple(tuple(snap[side[s]] for s in range(game.players)) for snap in game._history)
    else:
        history = tuple(game._history)
    return VerifiedGame(
        seats=tuple(seats),
        players=game.players,
        profile=game.profile.name,
        tile_set=game.tile_set.name,
        partnership=game.partnership,
        finished=finished,
        end=game.end,
        scores={
            seat: dict(zip(COLOURS, tracks[side[s]], strict=True)) for s, seat in enumerate(seats)
        },
        levels={seat: side_levels[side[s]] for s, seat in enumerate(seats)},
        differences=differences,
        result=result,
        winners=winners,
        placements=game.placements,
        bonus_plays=game.bonus_plays,
        swaps=game.swaps,
        flagged=tuple(seat for s, seat in enumerate(seats) if game._flagged[s]),
        resigned=tuple(seat for s, seat in enumerate(seats) if game._resigned[s]),
        history=history,
    )
