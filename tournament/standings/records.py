"""Per-player view of the results, built once and shared by every tiebreak.

Internal to the standings core. Games are stored as pairs in the input; the tiebreaks want
"player P's round r": opponent, points, scores. This module turns the one into the other once,
counting points in integer *half points* so that the hot loops never touch ``Fraction``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from .errors import InvalidEventError
from .model import EventResults, Game, PlayerId, ResultKind, level_vector

__all__ = [
    "NOTHING", "UNPLAYED_RULES", "WIDEST", "Context", "Entry", "PlayerRecord", "colour_sides",
]

ZERO6 = (0, 0, 0, 0, 0, 0)
_TOP = (18,) * 6  # a colour's score stops at 18 (game-rules.md): the widest a game can end

WIDEST = "widest"
NOTHING = "nothing"
UNPLAYED_RULES: Mapping[str, str] = MappingProxyType(
    {
        WIDEST: (
            "an unplayed round (bye, forfeit, absence, decision without scores) counts as a game "
            "by its VP: a full point as 18 in every colour against 0, no point as 0 against 18, "
            "a half point as 0 against 0; so not playing never ranks above a played loss, nor a "
            "forfeit win below a played win"
        ),
        NOTHING: (
            "an unplayed round adds nothing to the colour tiebreaks (the earlier rule, kept for "
            "events begun under it): not playing can rank above a played loss"
        ),
    }
)
"""How rounds without colour scores count in the colour tiebreaks (tournament-rules.md 6,
docs/tiebreaks.md). ``WIDEST`` is the default: every played game's vectors lie between
0 and 18 in each colour, so the widest loss and win bound every real one, colour by colour,
and sums compared lowest colour first keep that order."""

_VIRTUAL = {
    2: (_TOP, ZERO6),  # a full point: the widest win
    1: (ZERO6, ZERO6),  # a half point: a draw with nothing placed
    0: (ZERO6, _TOP),  # no point: the widest loss
}


@dataclass(slots=True)
class Entry:
    """One player's result in one round, seen from that player's side.

    Not frozen only because frozen dataclasses are slow to build and thousands are built per
    call; nothing mutates an entry after construction.
    """

    round: int
    kind: ResultKind
    vp2: int
    """Own VP in half points (2 = a win)."""
    opponent: PlayerId | None = None
    opponent_vp2: int = 0
    first: bool | None = None
    """True if the player was named first (played first); None without an opponent."""
    levels: tuple[int, ...] | None = None
    """Own ascending level vector, when the game has colour scores."""
    opponent_levels: tuple[int, ...] | None = None
    recorded: bool = True
    """False for a round with no entry at all (treated as an absence with 0 VP)."""

    @property
    def over_the_board(self) -> bool:
        """Played over the board: an opponent and both score vectors (FIDE: a played game)."""
        return self.levels is not None

    @property
    def voluntarily_unplayed(self) -> bool:
        """FIDE C.07 (2023) 'VUR': absence, forfeit loss, double forfeit, no entry at all.

        A pairing-allocated bye, a forfeit win and an arbiter decision are not voluntary.
        """
        if self.kind in (ResultKind.ABSENT, ResultKind.DOUBLE_FORFEIT):
            return True
        return self.kind is ResultKind.FORFEIT and self.vp2 == 0


@dataclass(slots=True)
class PlayerRecord:
    """All of one player's rounds (1..R, every round present) and the sums derived from them."""

    id: PlayerId
    entries: list[Entry]
    vp2: int = 0
    opponents: frozenset[PlayerId] = frozenset()
    difference: tuple[int, ...] = ZERO6
    level: tuple[int, ...] = ZERO6
    games_played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


class Context:
    """The results of rounds 1..R indexed per player, plus the head-to-head table."""

    __slots__ = ("_adjusted2", "cache", "event", "head_to_head", "records", "rounds", "unplayed")

    def __init__(
        self, event: EventResults, after_round: int | None = None, unplayed: str = WIDEST
    ) -> None:
        if unplayed not in UNPLAYED_RULES:
            raise InvalidEventError(
                f"unplayed must be one of {', '.join(UNPLAYED_RULES)}, got {unplayed!r}"
            )
        self.unplayed = unplayed
        if after_round is None:
            rounds = event.last_round
        elif isinstance(after_round, bool) or not isinstance(after_round, int) or after_round < 0:
            raise InvalidEventError(f"after_round must be an int >= 0, got {after_round!r}")
        else:
            rounds = after_round
        self.event = event
        self.rounds: int = rounds
        slots: dict[PlayerId, list[Entry | None]] = {p.id: [None] * rounds for p in event.players}
        self.head_to_head: dict[tuple[PlayerId, PlayerId], int] = {}
        h2h = self.head_to_head
        for game in event.games:
            if game.round > rounds:
                continue
            first, second = _entries(game)
            slots[game.first][game.round - 1] = first
            slots[game.second][game.round - 1] = second
            pair = (game.first, game.second)
            h2h[pair] = h2h.get(pair, 0) + first.vp2
            back = (game.second, game.first)
            h2h[back] = h2h.get(back, 0) + second.vp2
        for bye in event.byes:
            if bye.round <= rounds:
                slots[bye.player][bye.round - 1] = Entry(bye.round, bye.kind, _half_points(bye.vp))
        self.records: dict[PlayerId, PlayerRecord] = {}
        for pid, row in slots.items():
            entries = [
                e if e is not None else Entry(r, ResultKind.ABSENT, 0, recorded=False)
                for r, e in enumerate(row, start=1)
            ]
            self.records[pid] = _summarise(pid, entries, unplayed)
        self._adjusted2: dict[PlayerId, int] = {}
        self.cache: dict[tuple[str, PlayerId], object] = {}
        """Per-call memo for values several criteria share (Buchholz contributions)."""

    def adjusted_score2(self, pid: PlayerId) -> int:
        """A player's score as an *opponent* in Buchholz and Sonneborn–Berger (C.07, 16.3).

        After the player's last round that is not voluntarily unplayed (a withdrawal, or
        requested byes to the end), a round without any opponent (absence, requested bye, no
        entry: category 16.2.5) counts as a draw (16.3.2). Every other round counts the VP
        actually scored (16.3.1): a forfeit loss or double forfeit among those last rounds
        still counts 0, since the player was paired.
        """
        cached = self._adjusted2.get(pid)
        if cached is not None:
            return cached
        entries = self.records[pid].entries
        last = len(entries)
        while last > 0 and entries[last - 1].voluntarily_unplayed:
            last -= 1
        value = self.records[pid].vp2
        for entry in entries[last:]:
            if entry.opponent is None:
                value += 1 - entry.vp2
        self._adjusted2[pid] = value
        return value


def _entries(game: Game) -> tuple[Entry, Entry]:
    """Both players' sides of one game."""
    a2, b2 = _half_points(game.first_vp), _half_points(game.second_vp)
    a_levels = b_levels = None
    if game.first_scores is not None and game.second_scores is not None:
        a_levels, b_levels = level_vector(game.first_scores), level_vector(game.second_scores)
    first = Entry(game.round, game.kind, a2, game.second, b2, True, a_levels, b_levels)
    second = Entry(game.round, game.kind, b2, game.first, a2, False, b_levels, a_levels)
    return first, second


def colour_sides(entry: Entry, unplayed: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The own and the opponent's level vectors a round adds to the colour tiebreaks.

    A game with scores adds its own; any other round adds the virtual game of ``unplayed``
    (:data:`UNPLAYED_RULES`) for its VP, or nothing (``None``) under ``NOTHING``.
    """
    if entry.levels is not None and entry.opponent_levels is not None:
        return entry.levels, entry.opponent_levels
    if unplayed == NOTHING:
        return None
    return _VIRTUAL[entry.vp2]


def _summarise(pid: PlayerId, entries: list[Entry], unplayed: str) -> PlayerRecord:
    """VP, colour sums and over-the-board counts of one player."""
    record = PlayerRecord(pid, entries)
    record.vp2 = sum(e.vp2 for e in entries)
    record.opponents = frozenset(e.opponent for e in entries if e.opponent is not None)
    own: list[tuple[int, ...]] = []
    other: list[tuple[int, ...]] = []
    for e in entries:
        if e.over_the_board:
            record.games_played += 1
            if e.vp2 > e.opponent_vp2:
                record.wins += 1
            elif e.vp2 < e.opponent_vp2:
                record.losses += 1
            else:
                record.draws += 1
        sides = colour_sides(e, unplayed)
        if sides is not None:
            own.append(sides[0])
            other.append(sides[1])
    if own:
        # Column sums: the i-th lowest colour summed over the counted rounds.
        level = tuple(map(sum, zip(*own, strict=True)))
        opponent = tuple(map(sum, zip(*other, strict=True)))
        record.level = level
        record.difference = tuple(a - b for a, b in zip(level, opponent, strict=True))
    return record


def _half_points(vp: Fraction) -> int:
    """VP (0, ½, 1) as an int count of half points, without slow Fraction arithmetic."""
    return vp.numerator * 2 // vp.denominator
