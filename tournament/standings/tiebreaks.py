"""The tiebreak criteria, one small class each, and the registry that names them.

An event stores its tiebreaks as an ordered list of registry names (``DEFAULT_TIEBREAKS`` unless
the arbiter edits it). Each criterion has a ``key`` (its registry name), a short ``label`` for a
column header and a one-line ``definition`` shown on screen, and gives every player a
:class:`TiebreakValue` with a sortable key (higher is better) and a display string.

Most criteria are a number per player. Head-to-head is not: it looks at the group of players
still tied when it is applied, so its ``evaluate`` takes that group. The table algorithm
(``table.py``) treats both kinds alike: evaluate a tied group, split it on the values.

"Progressive" in tournament-rules.md section 6 has two readings; each colour criterion exists in
both, and a criterion's ``reading`` says which (``None`` for the others). The settings and
standings pages use :func:`progressive_readings` to state the reading an event uses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import ClassVar

from .display import MINUS, format_points, format_signed, format_vector
from .errors import UnknownTiebreakError
from .model import PlayerId
from .records import Context, Entry, colour_sides

__all__ = [
    "COLOUR_BY_COLOUR",
    "CUMULATIVE",
    "DEFAULT_TIEBREAKS",
    "READINGS",
    "TIEBREAKS",
    "Tiebreak",
    "TiebreakValue",
    "get_tiebreak",
    "progressive_readings",
    "resolve_tiebreaks",
]

COLOUR_BY_COLOUR = "colour-by-colour"
CUMULATIVE = "cumulative"
READINGS: Mapping[str, str] = MappingProxyType(
    {
        COLOUR_BY_COLOUR: (
            "sums over the rounds, lowest colour first; if equal, the second-lowest, and so on"
        ),
        CUMULATIVE: (
            "sum of the running totals after each round, so early games weigh more; lowest "
            "colour first; if equal, the second-lowest, and so on"
        ),
    }
)
"""The two readings of "progressive" (tournament-rules.md 6), with a phrase for the screen."""


@dataclass(frozen=True, slots=True)
class TiebreakValue:
    """One player's value for one criterion.

    ``sort_key`` orders players (higher is better; a tuple, compared element by element);
    ``display`` is the cell text; ``detail`` the full story for a tooltip (whole vectors,
    Buchholz contributions).
    """

    key: str
    sort_key: tuple[int | Fraction, ...]
    display: str
    detail: str = ""


class Tiebreak(ABC):
    """A tiebreak criterion. Stateless: one shared instance per class lives in ``TIEBREAKS``."""

    key: ClassVar[str]
    label: ClassVar[str]
    definition: ClassVar[str]
    reading: ClassVar[str | None] = None
    """For the progressive colour criteria, :data:`COLOUR_BY_COLOUR` or :data:`CUMULATIVE`."""

    @abstractmethod
    def evaluate(
        self, ctx: Context, group: Sequence[PlayerId]
    ) -> Mapping[PlayerId, TiebreakValue]:
        """Values for the players of ``group``, a set of players tied so far."""

    def __repr__(self) -> str:
        return f"<Tiebreak {self.key}>"


class _PlayerTiebreak(Tiebreak):
    """A criterion that is a value per player, whatever group the player is tied in."""

    def evaluate(
        self, ctx: Context, group: Sequence[PlayerId]
    ) -> Mapping[PlayerId, TiebreakValue]:
        return {pid: self.value(ctx, pid) for pid in group}

    @abstractmethod
    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        """This player's value."""


class HeadToHead(Tiebreak):
    """MSO general rule: separates the one who beat, or lost to, every other tied player.

    Applied once per tied group: at most one player is separated to the top ('+': more VP than
    each other member in their games against each other) and at most one to the bottom ('−').
    The rest stay tied ('' / sort key 0) and go on to the next criterion; head-to-head is not
    applied again among them, nor after later criteria (tournament-rules.md 6.1).
    """

    key = "head_to_head"
    label = "H2H"
    definition = (
        "Results between the tied players: one who beat all the others ranks first (+), "
        "one who lost to all of them ranks last (−); applied once."
    )

    def evaluate(
        self, ctx: Context, group: Sequence[PlayerId]
    ) -> Mapping[PlayerId, TiebreakValue]:
        h2h = ctx.head_to_head
        values = {}
        for pid in group:
            others = [q for q in group if q != pid]
            met = ctx.records[pid].opponents
            # Beating or losing to everyone needs a meeting with everyone: skip the pair
            # look-ups for the many players of a large score group who cannot qualify.
            if others and len(others) <= len(met) and all(q in met for q in others):
                mine = [(h2h.get((pid, q), 0), h2h.get((q, pid), 0)) for q in others]
            else:
                mine = []
            if mine and all(own > their for own, their in mine):
                values[pid] = TiebreakValue(
                    self.key, (1,), "+", "beat every other tied player"
                )
            elif mine and all(own < their for own, their in mine):
                values[pid] = TiebreakValue(
                    self.key, (-1,), MINUS, "lost to every other tied player"
                )
            else:
                detail = "not tied" if not others else "not separated"
                values[pid] = TiebreakValue(self.key, (0,), "", detail)
        return values


class HeadToHeadTable(Tiebreak):
    """Head-to-head in the mini-table reading (an event option; MSO's own is :class:`HeadToHead`).

    The tied players' results among themselves, summed per player as a table: the VP each
    scored against the other members of the group. It applies only when every two of them met
    (a table with holes would favour whoever happened to meet the weak): otherwise it
    separates nobody and the next criterion decides. Applied once per tied group, like every
    criterion; players it leaves level stay tied.
    """

    key = "head_to_head_table"
    label = "H2H-T"
    definition = (
        "Results between the tied players as a table: the VP each scored against the other "
        "tied players, when every two of them met (otherwise it separates nobody)."
    )

    def evaluate(
        self, ctx: Context, group: Sequence[PlayerId]
    ) -> Mapping[PlayerId, TiebreakValue]:
        h2h = ctx.head_to_head
        complete = len(group) > 1 and all(
            (p, q) in h2h for p in group for q in group if p != q
        )
        if not complete:
            detail = "not tied" if len(group) == 1 else "not every two tied players met"
            return {pid: TiebreakValue(self.key, (0,), "", detail) for pid in group}
        values = {}
        for pid in group:
            vp2 = sum(h2h[(pid, q)] for q in group if q != pid)
            shown = format_points(Fraction(vp2, 2))
            values[pid] = TiebreakValue(self.key, (vp2,), shown,
                                        f"{shown} VP against the other tied players")
        return values


class LowestColourDifference(_PlayerTiebreak):
    """Progressive difference of the lowest colours, colour by colour (tournament-rules.md 6.2)."""

    key = "lowest_colour_difference"
    label = "Diff"
    definition = (
        "Sum over the rounds of own lowest colour minus the opponent's lowest (an unplayed "
        "round as the event's rule says); if equal, the same for the second-lowest, and so on."
    )
    reading = COLOUR_BY_COLOUR

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        return _colour_value(self.key, ctx.records[pid].difference, signed=True)


class LowestColourLevel(_PlayerTiebreak):
    """Progressive level of the lowest colours, colour by colour (tournament-rules.md 6.3)."""

    key = "lowest_colour_level"
    label = "Level"
    definition = (
        "Sum over the rounds of own lowest colour (an unplayed round as the event's rule "
        "says); if equal, the sum of own second-lowest, and so on."
    )
    reading = COLOUR_BY_COLOUR

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        return _colour_value(self.key, ctx.records[pid].level, signed=False)


class LowestColourDifferenceCumulative(_PlayerTiebreak):
    """The difference criterion in the cumulative (chess) reading of "progressive".

    The per-colour running total of the differences after each round 1..R, summed over the
    rounds: a game of round r counts R − r + 1 times, so early games weigh more. A round without
    colour scores adds its virtual game (``colour_sides``) to its running total.
    """

    key = "lowest_colour_difference_cumulative"
    label = "CDiff"
    definition = (
        "Sum of the running totals after each round of own lowest colour minus the opponent's "
        "lowest (an unplayed round as the event's rule says); if equal, the same for the "
        "second-lowest, and so on."
    )
    reading = CUMULATIVE

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        return _colour_value(self.key, _cumulative(ctx, pid, difference=True), signed=True)


class LowestColourLevelCumulative(_PlayerTiebreak):
    """The level criterion in the cumulative (chess) reading of "progressive"."""

    key = "lowest_colour_level_cumulative"
    label = "CLevel"
    definition = (
        "Sum of the running totals after each round of own lowest colour (an unplayed round as "
        "the event's rule says); if equal, the same for the second-lowest, and so on."
    )
    reading = CUMULATIVE

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        return _colour_value(self.key, _cumulative(ctx, pid, difference=False), signed=False)


def _colour_value(key: str, vector: tuple[int, ...], signed: bool) -> TiebreakValue:
    """A colour vector as a value: compared whole, the lowest colour shown, all in the detail."""
    shown = format_signed(vector[0]) if signed else str(vector[0])
    return TiebreakValue(key, vector, shown, format_vector(vector, signed=signed))


def _cumulative(ctx: Context, pid: PlayerId, difference: bool) -> tuple[int, ...]:
    """Per colour rank, the sum over rounds 1..R of the running total after that round.

    Summing running totals is summing each round's value weighted by the number of running
    totals it is part of: the game of round r (1-based) counts R − r + 1 times. A round without
    scores counts as the event's rule for unplayed rounds says (:func:`colour_sides`).
    """
    entries = ctx.records[pid].entries
    rounds = len(entries)
    totals = [0, 0, 0, 0, 0, 0]
    for index, entry in enumerate(entries):
        sides = colour_sides(entry, ctx.unplayed)
        if sides is None:
            continue
        own, other = sides
        weight = rounds - index
        for colour in range(6):
            value = own[colour] - other[colour] if difference else own[colour]
            totals[colour] += weight * value
    return tuple(totals)


def _opponent_score2(ctx: Context, pid: PlayerId, entry: Entry) -> tuple[int, bool]:
    """(score in half points, is dummy) of the opponent counted for one round (C.07, 16).

    A game played over the board counts the real opponent's adjusted score (16.3, see
    :meth:`Context.adjusted_score2`); any unplayed round of the player (bye, forfeit either way,
    absence, decision without scores) counts a dummy opponent with the player's own final VP
    (16.4), as FIDE's Tie-Break Server does.
    """
    if entry.over_the_board and entry.opponent is not None:
        return ctx.adjusted_score2(entry.opponent), False
    return ctx.records[pid].vp2, True


class Buchholz(_PlayerTiebreak):
    """FIDE C.07 (2023, unchanged in 2024) Buchholz with its unplayed-round rules (article 16)."""

    key = "buchholz"
    label = "BH"
    definition = (
        "Sum of the opponents' VP (FIDE C.07): an own unplayed round counts a dummy opponent with "
        "one's own VP; in an opponent's VP, absences after their last round not voluntarily "
        "missed count as draws, forfeit losses as 0."
    )
    cut = 0

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        parts = _contributions(ctx, pid)
        kept = _cut(parts, self.cut)
        total = Fraction(sum(score2 for score2, _, _ in kept), 2)
        detail = " + ".join(_half_text(s) + ("*" if dummy else "") for s, dummy, _ in kept)
        if len(kept) != len(parts):
            detail += " (lowest cut)"
        return TiebreakValue(self.key, (total,), format_points(total), detail)


def _contributions(ctx: Context, pid: PlayerId) -> list[tuple[int, bool, bool]]:
    """Per round: (opponent's score in half points, is dummy, is voluntarily unplayed)."""
    memo_key = ("buchholz", pid)
    cached = ctx.cache.get(memo_key)
    if cached is None:
        cached = []
        for entry in ctx.records[pid].entries:
            score2, dummy = _opponent_score2(ctx, pid, entry)
            cached.append((score2, dummy, entry.voluntarily_unplayed))
        ctx.cache[memo_key] = cached
    return cached  # type: ignore[return-value]


@lru_cache(maxsize=512)
def _half_text(value2: int) -> str:
    """Half points as display text, memoised: Buchholz details format thousands of them."""
    return format_points(Fraction(value2, 2))


class BuchholzCut1(Buchholz):
    """Buchholz without its least significant contribution (C.07, 14.1 and 16.5)."""

    key = "buchholz_cut1"
    label = "BH-C1"
    definition = (
        "Buchholz without its lowest contribution; if the player has voluntarily unplayed rounds "
        "(absence, forfeit loss, double forfeit), the lowest of those is cut instead."
    )
    cut = 1


def _cut(
    parts: list[tuple[int, bool, bool]], count: int
) -> list[tuple[int, bool, bool]]:
    """Drop ``count`` least significant contributions, voluntarily unplayed rounds first."""
    kept = list(parts)
    for _ in range(min(count, len(kept))):
        voluntary = [i for i, part in enumerate(kept) if part[2]]
        pool = voluntary or range(len(kept))
        lowest = min(pool, key=lambda i: kept[i][0])
        del kept[lowest]
    return kept


class SonnebornBerger(_PlayerTiebreak):
    """FIDE C.07 (2023, unchanged in 2024) Sonneborn–Berger: Buchholz's opponents, weighted."""

    key = "sonneborn_berger"
    label = "SB"
    definition = (
        "Sum over rounds of own VP times that round's opponent's VP as counted for Buchholz "
        "(FIDE C.07): an own unplayed round uses one's own VP."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        total4 = 0
        for entry in ctx.records[pid].entries:
            score2, _ = _opponent_score2(ctx, pid, entry)
            total4 += entry.vp2 * score2
        total = Fraction(total4, 4)
        return TiebreakValue(self.key, (total,), format_points(total))


class WinsPlayed(_PlayerTiebreak):
    """FIDE C.07 WON: games won over the board."""

    key = "wins_played"
    label = "WON"
    definition = (
        "Number of games won over the board (forfeits, byes and decisions without scores "
        "do not count)."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        wins = ctx.records[pid].wins
        return TiebreakValue(self.key, (wins,), str(wins))


class Wins(_PlayerTiebreak):
    """FIDE C.07 WIN: rounds with a full point, played or not."""

    key = "wins"
    label = "WIN"
    definition = (
        "Number of rounds with 1 VP, played or not: wins, forfeit wins, 1-VP byes and decisions."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        wins = sum(1 for e in ctx.records[pid].entries if e.vp2 == 2)
        return TiebreakValue(self.key, (wins,), str(wins))


TIEBREAKS: Mapping[str, Tiebreak] = MappingProxyType(
    {
        tb.key: tb
        for tb in (
            HeadToHead(),
            HeadToHeadTable(),
            LowestColourDifference(),
            LowestColourLevel(),
            LowestColourDifferenceCumulative(),
            LowestColourLevelCumulative(),
            SonnebornBerger(),
            Buchholz(),
            BuchholzCut1(),
            WinsPlayed(),
            Wins(),
        )
    }
)
"""Every tiebreak by registry name, in the order a settings form should offer them."""

DEFAULT_TIEBREAKS: tuple[str, ...] = (
    HeadToHead.key,
    LowestColourDifference.key,
    LowestColourLevel.key,
)
"""The MSO order of tournament-rules.md section 6."""


def get_tiebreak(name: str) -> Tiebreak:
    """The tiebreak registered as ``name``; an unknown name is refused with the valid ones."""
    try:
        return TIEBREAKS[name]
    except (KeyError, TypeError):
        valid = ", ".join(TIEBREAKS)
        raise UnknownTiebreakError("unknown", name=repr(name), valid=valid) from None


def resolve_tiebreaks(names: Iterable[str]) -> tuple[Tiebreak, ...]:
    """An event's ordered tiebreak list by name; unknown or repeated names are refused."""
    if isinstance(names, str):
        raise UnknownTiebreakError("not_a_list", names=repr(names))
    resolved: list[Tiebreak] = []
    for name in names:
        tiebreak = get_tiebreak(name)
        if tiebreak in resolved:
            raise UnknownTiebreakError("twice", name=repr(name))
        resolved.append(tiebreak)
    return tuple(resolved)


def progressive_readings(names: Iterable[str]) -> tuple[str, ...]:
    """The readings of "progressive" an event's tiebreak list uses, in list order, each once.

    ``("colour-by-colour",)`` for the default list, ``("cumulative",)`` when only cumulative
    colour criteria are listed, both when the arbiter mixed them, ``()`` without any colour
    criterion. Names are checked as by :func:`resolve_tiebreaks`.

    >>> progressive_readings(DEFAULT_TIEBREAKS)
    ('colour-by-colour',)
    >>> progressive_readings(["head_to_head", "lowest_colour_level_cumulative", "buchholz"])
    ('cumulative',)
    """
    readings: list[str] = []
    for tiebreak in resolve_tiebreaks(names):
        if tiebreak.reading is not None and tiebreak.reading not in readings:
            readings.append(tiebreak.reading)
    return tuple(readings)
