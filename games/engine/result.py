"""Results: level vectors, differences, winner or draw, and the verified-game value object.

A side's *level vector* is its six track levels sorted ascending; sides compare
lexicographically (the higher lowest colour wins, then the second-lowest, ...), and only
identical vectors draw. With two sides (two players, or the two partnerships A+C and B+D) the
result is written ``1-0``, ``0-1`` or ``½-½``; with three or four players it is each seat's
place, e.g. ``2-1-3`` (shared places repeat); solo, it is the final score (the lowest colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import not_, sub
from typing import Any, Protocol

from .board import COLOURS

__all__ = ["Snapshot", "VerifiedGame", "normalize_result", "summarize"]

Levels = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The part of a game's private state that results need (``Game.snapshot``, copied).

    Indexed by seat (A is 0): ``side``, the score side each seat plays for (0/1 in a
    partnership game, else the seat itself); ``flagged`` and ``resigned``. Indexed by side:
    ``tracks``, six levels each in colour order. ``winner_side`` is the side that brought all
    six colours to the top (it wins outright), or -1. ``history`` holds every side's tracks
    after each action.
    """

    side: tuple[int, ...]
    tracks: tuple[Levels, ...]
    flagged: tuple[bool, ...]
    resigned: tuple[bool, ...]
    winner_side: int
    history: tuple[tuple[Levels, ...], ...]


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


class _Named(Protocol):
    name: str


class Played(Protocol):
    """What a result is made of, as :class:`games.engine.game.Game` has it: the results read a
    game through this, so that they need not know the game (the game makes its summary from
    them: the arrow runs one way)."""

    seats: str
    players: int
    partnership: bool
    end: str
    profile: _Named
    tile_set: _Named
    placements: int
    bonus_plays: int
    swaps: int

    def snapshot(self) -> Snapshot: ...


def summarize(game: Played) -> VerifiedGame:
    """Build the :class:`VerifiedGame` of a game's current state."""
    state = game.snapshot()
    seats, side, players, tracks = game.seats, state.side, game.players, state.tracks
    side_levels = list(map(tuple, map(sorted, tracks)))
    nsides = len(tracks)
    finished = bool(game.end)
    resigned, flagged = state.resigned, state.flagged
    # rank key per side: a side that resigned ranks below every side that did not.
    if True in resigned:
        resigned_side = [False] * nsides
        for s in range(players):
            if resigned[s]:
                resigned_side[side[s]] = True
        key = list(zip(map(not_, resigned_side), side_levels, strict=True))
    else:
        key = [(True, levels) for levels in side_levels]
    if state.winner_side >= 0:
        key[state.winner_side] = (True, (10**6,) * 6)
    if nsides == 2:
        best_other = [1, 0]
    else:
        best_other = [
            max((j for j in range(nsides) if j != i), key=lambda j: key[j], default=-1)
            for i in range(nsides)
        ]
    differences: dict[str, Levels] = {}
    if nsides > 1:
        for s, seat in enumerate(seats):
            i = side[s]
            differences[seat] = tuple(map(sub, side_levels[i], side_levels[best_other[i]]))
    result: str | None = None
    winners: tuple[str, ...] = ()
    if finished:
        if nsides == 2:
            first, second = key
            if first > second:
                result, places = "1-0", (1, 2)
            elif second > first:
                result, places = "0-1", (2, 1)
            else:
                result, places = "½-½", (1, 1)
        else:
            places = tuple(
                1 + sum(1 for j in range(nsides) if key[j] > key[i]) for i in range(nsides)
            )
            result = str(side_levels[0][0]) if nsides == 1 else "-".join(map(str, places))
        if result != "½-½" or nsides != 2:
            winners = tuple(seat for s, seat in enumerate(seats) if places[side[s]] == 1)
    if game.partnership:
        history = tuple(tuple(snap[side[s]] for s in range(players)) for snap in state.history)
    else:
        history = state.history
    scores: dict[str, dict[str, int]] = {}
    levels: dict[str, Levels] = {}
    for s, seat in enumerate(seats):
        i = side[s]
        scores[seat] = dict(zip(COLOURS, tracks[i], strict=True))
        levels[seat] = side_levels[i]
    return VerifiedGame(
        seats=tuple(seats),
        players=players,
        profile=game.profile.name,
        tile_set=game.tile_set.name,
        partnership=game.partnership,
        finished=finished,
        end=game.end,
        scores=scores,
        levels=levels,
        differences=differences,
        result=result,
        winners=winners,
        placements=game.placements,
        bonus_plays=game.bonus_plays,
        swaps=game.swaps,
        flagged=tuple(seat for s, seat in enumerate(seats) if flagged[s])
        if True in flagged
        else (),
        resigned=tuple(seat for s, seat in enumerate(seats) if resigned[s])
        if True in resigned
        else (),
        history=history,
    )
