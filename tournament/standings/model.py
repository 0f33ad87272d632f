"""Input value objects of the standings core: players, games, byes, the event's results.

A game is modelled once, as a pair (the player named first, the player named second), not as
two per-player entries: the two halves of one result can then never disagree. Byes and absences
are one-player entries. Every object checks itself on construction, so a malformed result is
refused where it is built (the service that turns database rows into these objects), not deep
inside a tiebreak.

Victory points are exact :class:`fractions.Fraction` values in half points: float VP would make
``0.1 + 0.2``-style errors decide places.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from .errors import InvalidEventError, InvalidResultError

__all__ = [
    "Bye",
    "EventResults",
    "Game",
    "Player",
    "PlayerId",
    "ResultKind",
    "Scores",
    "VPLike",
    "compare_levels",
    "level_vector",
    "played_vp",
]

PlayerId = int | str
"""A player's identity: the database primary key in the Django shell, anything hashable in tests."""

Scores = tuple[int, int, int, int, int, int]
"""A player's six colour scores at the end of a game, in any colour order."""

COLOURS = 6
MAX_SCORE = 18
HALF = Fraction(1, 2)
_VP_VALUES = frozenset({Fraction(0), HALF, Fraction(1)})

VPLike = Fraction | int | float | Decimal | str
"""VP as the shell may hold them; converted to an exact Fraction (0, ½ or 1) on construction."""


class ResultKind(StrEnum):
    """How a round's result came about (tournament-rules.md, section 2)."""

    PLAYED = "played"
    """Both players' six scores; the VP follow from them."""
    RESIGNED = "resigned"
    """Scores at the moment of resignation; the player who did not resign wins."""
    FORFEIT = "forfeit"
    """One player absent: 1 VP / 0 VP, no scores."""
    DOUBLE_FORFEIT = "double_forfeit"
    """Both absent: 0 / 0, no scores."""
    DECISION = "decision"
    """VP set by the arbiter (penalty, adjudication); scores optional."""
    BYE = "bye"
    """Pairing-allocated bye (odd number of players); VP = the event's bye value."""
    ABSENT = "absent"
    """Requested absence or not paired; 0 VP unless the arbiter grants ½."""


GAME_KINDS = frozenset(
    {
        ResultKind.PLAYED,
        ResultKind.RESIGNED,
        ResultKind.FORFEIT,
        ResultKind.DOUBLE_FORFEIT,
        ResultKind.DECISION,
    }
)
BYE_KINDS = frozenset({ResultKind.BYE, ResultKind.ABSENT})


def _vp(value: VPLike, what: str) -> Fraction:
    """Accept 0, ½ or 1 VP as Fraction, int, Decimal, exact float or a string such as ``"1/2"``."""
    if isinstance(value, bool):
        raise InvalidResultError(f"{what}: VP must be a number, got {value!r}")
    try:
        vp = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise InvalidResultError(f"{what}: VP {value!r} is not a number") from exc
    if vp not in _VP_VALUES:
        raise InvalidResultError(f"{what}: VP must be 0, 1/2 or 1, got {value!r}")
    return vp


def _scores(value: Iterable[int] | None, what: str) -> Scores | None:
    """Six integer colour scores between 0 and 18, or None."""
    if value is None:
        return None
    scores = tuple(value)
    if len(scores) != COLOURS or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SCORE for s in scores
    ):
        raise InvalidResultError(
            f"{what}: expected six integer colour scores 0..{MAX_SCORE}, got {value!r}"
        )
    return scores  # type: ignore[return-value]


def level_vector(scores: Sequence[int]) -> Scores:
    """The ascending "level vector": the game is decided on it, lowest colour first."""
    return tuple(sorted(scores))  # type: ignore[return-value]


def compare_levels(first_scores: Sequence[int], second_scores: Sequence[int]) -> int:
    """The game's result rule, the one implementation: +1 if the first player wins, -1 if the
    second does, 0 for the only draw.

    The lexicographically higher ascending level vector wins (lowest colour first);
    identical level vectors (all six colours at the same levels) are the only draw.
    """
    first, second = level_vector(first_scores), level_vector(second_scores)
    return (first > second) - (first < second)


def played_vp(
    first_scores: Sequence[int], second_scores: Sequence[int]
) -> tuple[Fraction, Fraction]:
    """VP of a game played to the end (see :func:`compare_levels`)."""
    return {
        1: (Fraction(1), Fraction(0)),
        -1: (Fraction(0), Fraction(1)),
        0: (HALF, HALF),
    }[compare_levels(first_scores, second_scores)]


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player. Club and rating are carried through for display only."""

    id: PlayerId
    name: str
    club: str | None = None
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game between two players in one round; ``first`` is the player named first.

    Prefer the named constructors (:meth:`played`, :meth:`resigned`, :meth:`forfeit`,
    :meth:`double_forfeit`, :meth:`decision`): they derive the VP the rules fix. The plain
    constructor checks that VP, scores and kind agree and raises :class:`InvalidResultError`.
    """

    round: int
    first: PlayerId
    second: PlayerId
    kind: ResultKind
    first_vp: Fraction
    second_vp: Fraction
    first_scores: Scores | None = None
    second_scores: Scores | None = None

    def __post_init__(self) -> None:
        where = f"round {self.round}, {self.first!r}–{self.second!r}"
        if isinstance(self.round, bool) or not isinstance(self.round, int) or self.round < 1:
            raise InvalidResultError(f"{where}: round must be an int >= 1")
        if self.first == self.second:
            raise InvalidResultError(f"{where}: a player cannot meet themself")
        try:
            kind = ResultKind(self.kind)
        except ValueError as exc:
            raise InvalidResultError(f"{where}: unknown result kind {self.kind!r}") from exc
        if kind not in GAME_KINDS:
            raise InvalidResultError(f"{where}: {kind.value!r} is not a kind of game")
        object.__setattr__(self, "kind", kind)
        first_vp, second_vp = _vp(self.first_vp, where), _vp(self.second_vp, where)
        object.__setattr__(self, "first_vp", first_vp)
        object.__setattr__(self, "second_vp", second_vp)
        first_scores = _scores(self.first_scores, where)
        second_scores = _scores(self.second_scores, where)
        object.__setattr__(self, "first_scores", first_scores)
        object.__setattr__(self, "second_scores", second_scores)
        if (first_scores is None) != (second_scores is None):
            raise InvalidResultError(f"{where}: give both players' scores or neither")
        scored = first_scores is not None
        vps = (first_vp, second_vp)
        if kind in (ResultKind.PLAYED, ResultKind.RESIGNED) and not scored:
            raise InvalidResultError(f"{where}: a {kind.value} game needs both players' scores")
        if kind in (ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT) and scored:
            raise InvalidResultError(f"{where}: a {kind.value} has no colour scores")
        if kind is ResultKind.PLAYED and vps != played_vp(first_scores, second_scores):  # type: ignore[arg-type]
            raise InvalidResultError(
                f"{where}: VP {first_vp}–{second_vp} do not follow from the scores "
                f"{first_scores} / {second_scores}"
            )
        if kind in (ResultKind.RESIGNED, ResultKind.FORFEIT) and sorted(vps) != [0, 1]:
            raise InvalidResultError(f"{where}: a {kind.value} gives 1 VP and 0 VP")
        if kind is ResultKind.DOUBLE_FORFEIT and vps != (0, 0):
            raise InvalidResultError(f"{where}: a double forfeit gives 0 VP to both")

    @property
    def scored(self) -> bool:
        """True when both colour score vectors are known: the game counts for colour tiebreaks."""
        return self.first_scores is not None

    @classmethod
    def played(
        cls,
        round: int,
        first: PlayerId,
        second: PlayerId,
        first_scores: Sequence[int],
        second_scores: Sequence[int],
    ) -> Game:
        """A game played to the end; the VP follow from the scores."""
        where = f"round {round}, {first!r}–{second!r}"
        a, b = _scores(first_scores, where), _scores(second_scores, where)
        first_vp, second_vp = played_vp(a, b)  # type: ignore[arg-type]
        return cls(round, first, second, ResultKind.PLAYED, first_vp, second_vp, a, b)

    @classmethod
    def resigned(
        cls,
        round: int,
        first: PlayerId,
        second: PlayerId,
        first_scores: Sequence[int],
        second_scores: Sequence[int],
        resigned: PlayerId,
    ) -> Game:
        """A resignation: the scores at that moment; the other player wins."""
        first_vp = _who(resigned, first, second, round, "resigned")
        return cls(
            round,
            first,
            second,
            ResultKind.RESIGNED,
            first_vp,
            1 - first_vp,
            tuple(first_scores),  # type: ignore[arg-type]
            tuple(second_scores),  # type: ignore[arg-type]
        )

    @classmethod
    def forfeit(cls, round: int, first: PlayerId, second: PlayerId, absent: PlayerId) -> Game:
        """One player absent: the present player gets 1 VP, no scores."""
        first_vp = _who(absent, first, second, round, "absent")
        return cls(round, first, second, ResultKind.FORFEIT, first_vp, 1 - first_vp)

    @classmethod
    def double_forfeit(cls, round: int, first: PlayerId, second: PlayerId) -> Game:
        """Both players absent: 0 VP each."""
        zero = Fraction(0)
        return cls(round, first, second, ResultKind.DOUBLE_FORFEIT, zero, zero)

    @classmethod
    def decision(
        cls,
        round: int,
        first: PlayerId,
        second: PlayerId,
        first_vp: VPLike,
        second_vp: VPLike,
        first_scores: Sequence[int] | None = None,
        second_scores: Sequence[int] | None = None,
    ) -> Game:
        """VP set by the arbiter; with scores the game also counts for the colour tiebreaks."""
        return cls(
            round,
            first,
            second,
            ResultKind.DECISION,
            first_vp,  # type: ignore[arg-type]
            second_vp,  # type: ignore[arg-type]
            None if first_scores is None else tuple(first_scores),  # type: ignore[arg-type]
            None if second_scores is None else tuple(second_scores),  # type: ignore[arg-type]
        )


def _who(loser: PlayerId, first: PlayerId, second: PlayerId, round: int, what: str) -> Fraction:
    """First player's VP when ``loser`` (who resigned / was absent) is one of the two."""
    if loser == first:
        return Fraction(0)
    if loser == second:
        return Fraction(1)
    raise InvalidResultError(
        f"round {round}, {first!r}–{second!r}: the player who {what} ({loser!r}) is not in the game"
    )


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without an opponent: a pairing-allocated bye or an absence, with its VP.

    The VP are the event's setting (bye 1 by default, ½ or 0; absence 0 unless the arbiter
    grants ½); the core does not second-guess them.
    """

    round: int
    player: PlayerId
    kind: ResultKind = ResultKind.BYE
    vp: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        where = f"round {self.round}, bye of {self.player!r}"
        if isinstance(self.round, bool) or not isinstance(self.round, int) or self.round < 1:
            raise InvalidResultError(f"{where}: round must be an int >= 1")
        try:
            kind = ResultKind(self.kind)
        except ValueError as exc:
            raise InvalidResultError(f"{where}: unknown result kind {self.kind!r}") from exc
        if kind not in BYE_KINDS:
            raise InvalidResultError(f"{where}: {kind.value!r} is a kind of game, not of bye")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "vp", _vp(self.vp, where))


@dataclass(frozen=True, slots=True)
class EventResults:
    """Everything the standings need: the players and every game and bye recorded so far.

    Construction checks the whole: unique player ids, games and byes naming registered players,
    nobody twice in one round. A player without any entry in a round (withdrawn, not yet paired)
    counts as absent with 0 VP in that round.
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()
    _ids: frozenset[PlayerId] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players, games, byes = tuple(self.players), tuple(self.games), tuple(self.byes)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "games", games)
        object.__setattr__(self, "byes", byes)
        ids: set[PlayerId] = set()
        for player in players:
            if player.id in ids:
                raise InvalidEventError(f"player id {player.id!r} is registered twice")
            ids.add(player.id)
        object.__setattr__(self, "_ids", frozenset(ids))
        seen: set[tuple[int, PlayerId]] = set()
        for game in games:
            for pid in (game.first, game.second):
                self._check(pid, game.round, seen)
        for bye in byes:
            self._check(bye.player, bye.round, seen)

    def _check(self, pid: PlayerId, round: int, seen: set[tuple[int, PlayerId]]) -> None:
        if pid not in self._ids:
            raise InvalidEventError(f"round {round}: unknown player id {pid!r}")
        if (round, pid) in seen:
            raise InvalidEventError(f"round {round}: player {pid!r} has more than one result")
        seen.add((round, pid))

    @property
    def last_round(self) -> int:
        """The highest round with any recorded result (0 before the first result)."""
        return max((e.round for e in (*self.games, *self.byes)), default=0)
