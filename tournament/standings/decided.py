"""Why two players with the same VP stand in different places.

With the colour-by-colour reading a tie often falls on the second- or third-lowest colour,
while a table shows only the lowest: a reader then sees an order its columns contradict. For
each pair of neighbouring rows with equal VP and different places, :func:`decided_by` names the
criterion that separated them, which element of its value (for the colour criteria: which
colour, counted from the lowest), and both values.

>>> from .model import EventResults, Game, Player
>>> from .table import compute_standings
>>> event = EventResults(
...     players=[Player(1, "Ada"), Player(2, "Ben"), Player(3, "Cy"), Player(4, "Di")],
...     games=[Game.played(1, 1, 3, [5, 9, 12, 7, 7, 10], [4, 11, 13, 9, 8, 6]),
...            Game.played(1, 2, 4, [5, 8, 12, 7, 7, 10], [4, 11, 13, 9, 8, 6])])
>>> table = compute_standings(event, ["lowest_colour_difference"])
>>> [(row.place, row.name) for row in table]
[('1', 'Ada'), ('2', 'Ben'), ('3', 'Di'), ('4', 'Cy')]
>>> table.row(1).tiebreaks[0].display, table.row(2).tiebreaks[0].display
('+1', '+1')
>>> split = decided_by(table)[2]
>>> (split.above, split.key, split.element, split.upper, split.lower)
(1, 'lowest_colour_difference', 3, 0, -1)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from .model import PlayerId
from .table import Standings

__all__ = ["Decision", "decided_by"]


@dataclass(frozen=True, slots=True)
class Decision:
    """The criterion that put ``above`` (the row before) ahead of this row, with equal VP.

    ``element`` is the first position at which the two values differ (0 for a criterion with
    one number; for the colour criteria 0 is the lowest colour, 1 the second-lowest, …);
    ``upper`` and ``lower`` are the two values there. Higher is better in every criterion.
    """

    above: PlayerId
    key: str
    element: int
    upper: int | Fraction
    lower: int | Fraction


def decided_by(standings: Standings) -> dict[PlayerId, Decision]:
    """For each row below another with the same VP in a different place: what decided it."""
    decisions: dict[PlayerId, Decision] = {}
    rows = standings.rows
    for upper, lower in itertools.pairwise(rows):
        if upper.vp != lower.vp or upper.rank == lower.rank:
            continue
        for mine, theirs in zip(upper.tiebreaks, lower.tiebreaks, strict=True):
            if mine.sort_key == theirs.sort_key:
                continue
            element = next(i for i, (a, b) in enumerate(
                zip(mine.sort_key, theirs.sort_key, strict=False)) if a != b)
            decisions[lower.player_id] = Decision(
                upper.player_id, mine.key, element, mine.sort_key[element],
                theirs.sort_key[element])
            break
    return decisions
