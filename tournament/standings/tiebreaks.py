"""The tiebreak criteria, one small class each, and the registry that names them.

An event stores its tiebreaks as an ordered list of registry names (``DEFAULT_TIEBREAKS`` unless
the arbiter edits it). Each criterion has a ``key`` (its registry name), a short ``label`` for a
column header and a one-line ``definition`` shown on screen, and gives every player a
:class:`TiebreakValue` with a sortable key (higher is better) and a display string.

Most criteria are a number per player. Head-to-head is not: it looks at the group of players
still tied when it is applied, so its ``evaluate`` takes that group. The table algorithm
(``table.py``) treats both kinds alike: evaluate a tied group, split it on the values.
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
from .records import Context, Entry

__all__ = [
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "Tiebreak",
    "TiebreakValue",
    "get_tiebreak",
    "resolve_tiebreaks",
]


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


class LowestColourDifference(_PlayerTiebreak):
    """Progressive difference of the lowest colours (tournament-rules.md 6.2)."""

    key = "lowest_colour_difference"
    label = "Diff"
    definition = (
        "Sum over played games of own lowest colour minus the opponent's lowest; "
        "if equal, the same for the second-lowest, and so on."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        vector = ctx.records[pid].difference
        return TiebreakValue(
            self.key, vector, format_signed(vector[0]), format_vector(vector, signed=True)
        )


class LowestColourLevel(_PlayerTiebreak):
    """Progressive level of the lowest colours (tournament-rules.md 6.3)."""

    key = "lowest_colour_level"
    label = "Level"
    definition = (
        "Sum over played games of own lowest colour; "
        "if equal, the sum of own second-lowest, and so on."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        vector = ctx.records[pid].level
        return TiebreakValue(self.key, vector, str(vector[0]), format_vector(vector))


def _opponent_score2(ctx: Context, pid: PlayerId, entry: Entry) -> tuple[int, bool]:
    """(score in half points, is dummy) of the opponent counted for one round (C.07 2023, 16).

    A game played over the board counts the real opponent's adjusted score; any unplayed round
    of the player (bye, forfeit either way, absence, decision without scores) counts a dummy
    opponent with the player's own score.
    """
    if entry.over_the_board and entry.opponent is not None:
        return ctx.adjusted_score2(entry.opponent), False
    return ctx.records[pid].vp2, True


class Buchholz(_PlayerTiebreak):
    """FIDE C.07 (2023) Buchholz with its unplayed-round rules."""

    key = "buchholz"
    label = "BH"
    definition = (
        "Sum of the opponents' VP (FIDE): own unplayed rounds count an opponent with one's own "
        "VP, an opponent's rounds after withdrawing count as draws."
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
    """Buchholz without its least significant contribution (C.07 2023, 14.1 and 16.5)."""

    key = "buchholz_cut1"
    label = "BH-C1"
    definition = (
        "Buchholz without its lowest contribution; a voluntarily unplayed round "
        "(absence, forfeit loss) is cut first."
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
    """FIDE C.07 (2023) Sonneborn–Berger with the same unplayed-round rules as Buchholz."""

    key = "sonneborn_berger"
    label = "SB"
    definition = (
        "Sum over rounds of own VP times that opponent's VP (FIDE): own unplayed rounds use "
        "one's own VP as the opponent's."
    )

    def value(self, ctx: Context, pid: PlayerId) -> TiebreakValue:
        total4 = 0
        for entry in ctx.records[pid].entries:
            score2, _ = _opponent_score2(ctx, pid, entry)
            total4 += entry.vp2 * score2
        total = Fraction(total4, 4)
        return TiebreakValue(self.key, (total,), format_points(total))


class WinsPlayed(_PlayerTiebreak):
    """FIDE C.07 (2023) WON: games won over the board."""

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
    """FIDE C.07 (2023) WIN: rounds with a full point, played or not."""

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
            LowestColourDifference(),
            LowestColourLevel(),
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
        raise UnknownTiebreakError(f"unknown tiebreak {name!r}; valid names: {valid}") from None


def resolve_tiebreaks(names: Iterable[str]) -> tuple[Tiebreak, ...]:
    """An event's ordered tiebreak list by name; unknown or repeated names are refused."""
    if isinstance(names, str):
        raise UnknownTiebreakError(f"expected a list of tiebreak names, got the string {names!r}")
    resolved: list[Tiebreak] = []
    for name in names:
        tiebreak = get_tiebreak(name)
        if tiebreak in resolved:
            raise UnknownTiebreakError(f"tiebreak {name!r} is listed twice")
        resolved.append(tiebreak)
    return tuple(resolved)
