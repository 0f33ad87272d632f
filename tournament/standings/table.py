"""The standings table: VP, the event's tiebreaks in order, ranks with shared places.

Ranking is a refinement: players are grouped by VP; each criterion in the event's list is then
applied once, in order, to every group still tied, splitting it by the criterion's value (higher
first). A criterion never moves a player out of their group, so VP always come first and
head-to-head can only separate players tied on everything before it. Whoever is still tied
when the list is exhausted shares the place ("3–4"); within a shared place rows are listed by
name so that the table does not depend on the order of the input.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .display import format_points
from .model import EventResults, PlayerId
from .records import WIDEST, Context
from .tiebreaks import DEFAULT_TIEBREAKS, Tiebreak, TiebreakValue, resolve_tiebreaks

__all__ = ["StandingRow", "Standings", "compute_standings", "place_label"]

EN_DASH = "\u2013"


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings.

    ``rank`` is the first place number of the (possibly shared) place, ``place`` its label:
    ``"3"`` or ``"3–4"``. ``vp`` is exact; ``vp_display`` reads ``3½``. ``games_played``,
    ``wins``, ``draws`` and ``losses`` count games played over the board (with colour scores);
    ``rounds`` counts every round of the standings. ``tiebreaks`` follows the event's order.
    """

    rank: int
    place: str
    player_id: PlayerId
    name: str
    club: str | None
    rating: int | None
    vp: Fraction
    vp_display: str
    games_played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: tuple[TiebreakValue, ...]

    @property
    def shared(self) -> bool:
        """True when the place is shared with another player."""
        return EN_DASH in self.place

    def tiebreak(self, key: str) -> TiebreakValue:
        """This row's value of the criterion registered as ``key``."""
        for value in self.tiebreaks:
            if value.key == key:
                return value
        raise KeyError(key)

    @property
    def sort_key(self) -> tuple[object, ...]:
        """Everything the ranking compared, best first: (VP, each criterion's sort key)."""
        return (self.vp, *(value.sort_key for value in self.tiebreaks))


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings after ``rounds`` rounds: the criteria used (columns) and the rows."""

    rounds: int
    tiebreaks: tuple[Tiebreak, ...]
    rows: tuple[StandingRow, ...]
    context: Context | None = field(default=None, repr=False, compare=False)
    """The indexed results the rows came from (internal; lets the crosstable reuse them)."""

    def __iter__(self) -> Iterator[StandingRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, player_id: PlayerId) -> StandingRow:
        """The row of one player."""
        for row in self.rows:
            if row.player_id == player_id:
                return row
        raise KeyError(player_id)


def place_label(first: int, size: int) -> str:
    """``"3"`` for a place held alone, ``"3–4"`` for one shared by two players.

    >>> place_label(3, 1), place_label(3, 2)
    ('3', '3–4')
    """
    return str(first) if size == 1 else f"{first}{EN_DASH}{first + size - 1}"


def compute_standings(
    event: EventResults,
    tiebreaks: Iterable[str] = DEFAULT_TIEBREAKS,
    *,
    after_round: int | None = None,
    unplayed: str = WIDEST,
) -> Standings:
    """Standings counting the results of rounds 1..``after_round`` (default: the last recorded).

    ``tiebreaks`` are registry names in the event's order; an unknown name raises
    ``UnknownTiebreakError`` listing the valid ones. A player with no entry in a counted round
    is treated as absent with 0 VP in that round. ``unplayed`` is the rule for rounds without
    colour scores in the colour tiebreaks (``UNPLAYED_RULES``).
    """
    criteria = resolve_tiebreaks(tiebreaks)
    ctx = Context(event, after_round, unplayed)
    records = ctx.records
    values: dict[PlayerId, list[TiebreakValue]] = {p.id: [] for p in event.players}

    by_vp: dict[int, list[PlayerId]] = {}
    for player in event.players:
        by_vp.setdefault(records[player.id].vp2, []).append(player.id)
    groups = [by_vp[vp2] for vp2 in sorted(by_vp, reverse=True)]

    for criterion in criteria:
        groups = _split(criterion, ctx, groups, values)

    players = {p.id: p for p in event.players}
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        place = place_label(rank, len(group))
        ordered = sorted(group, key=lambda pid: _name_order(players[pid].name, pid))
        for pid in ordered:
            player, record = players[pid], records[pid]
            vp = Fraction(record.vp2, 2)
            rows.append(
                StandingRow(
                    rank=rank,
                    place=place,
                    player_id=pid,
                    name=player.name,
                    club=player.club,
                    rating=player.rating,
                    vp=vp,
                    vp_display=format_points(vp),
                    games_played=record.games_played,
                    wins=record.wins,
                    draws=record.draws,
                    losses=record.losses,
                    tiebreaks=tuple(values[pid]),
                )
            )
    return Standings(ctx.rounds, criteria, tuple(rows), ctx)


def _split(
    criterion: Tiebreak,
    ctx: Context,
    groups: Sequence[list[PlayerId]],
    values: dict[PlayerId, list[TiebreakValue]],
) -> list[list[PlayerId]]:
    """Apply one criterion to every group: record its values and split the tied groups."""
    result: list[list[PlayerId]] = []
    for group in groups:
        evaluated = criterion.evaluate(ctx, group)
        for pid in group:
            values[pid].append(evaluated[pid])
        if len(group) == 1:
            result.append(group)
            continue
        buckets: dict[tuple[object, ...], list[PlayerId]] = {}
        for pid in group:
            buckets.setdefault(evaluated[pid].sort_key, []).append(pid)
        result.extend(buckets[key] for key in sorted(buckets, reverse=True))  # type: ignore[type-var]
    return result


def _name_order(name: str, pid: PlayerId) -> tuple[str, str, str]:
    """Listing order inside a shared place: by name, then by id, independent of input order."""
    return (name.casefold(), name, str(pid))
