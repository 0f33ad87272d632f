"""The pairing core's input: an event's players, their history and the event settings.

Everything is a frozen, slotted dataclass validated on construction, so a bad event is refused
where it is built (in the shell's bridge module) and never half-way through a pairing. The
per-round vocabulary is FIDE's TRF vocabulary (`Result` values are the TRF result codes), so an
event maps one-to-one onto a TRF file and onto what every Swiss engine understands.

"The player named first moves first": moving first plays the role of White everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tournament.pairing.errors import InvalidEvent, TrfError


class Result(StrEnum):
    """A player's result in one round, as its FIDE TRF code."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAIRING_BYE = "U"  # pairing-allocated bye (odd player out)
    HALF_BYE = "H"  # requested absence granted half a point
    FULL_BYE = "F"  # full-point bye granted by the arbiter
    ZERO_BYE = "Z"  # absent, not paired, late entry before joining, withdrawn

    @property
    def played(self) -> bool:
        """A game actually played: it counts as a meeting and for first-move history."""
        return self in (Result.WIN, Result.DRAW, Result.LOSS)

    @property
    def forfeit(self) -> bool:
        """A scheduled game that was not played (FIDE: not a meeting, no colour)."""
        return self in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS)

    @property
    def bye(self) -> bool:
        """No opponent this round."""
        return self in (Result.PAIRING_BYE, Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE)


#: Result pairs that can make up one game (player's result, opponent's result).
#: Results two opponents may have for one game: a played game any two of win, draw and loss,
#: as an arbiter's decision may score it (½–0, 1–1, 0–0: each code the points the player
#: scored, which bbpPairings reads as JaVaFo does); a forfeit one win and one loss or none.
_PLAYED = (Result.WIN, Result.DRAW, Result.LOSS)
_COMPATIBLE = frozenset(
    {
        *((a, b) for a in _PLAYED for b in _PLAYED),
        (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
        (Result.FORFEIT_LOSS, Result.FORFEIT_WIN),
        (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS),
    }
)
_ABSENCES = (Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE)
_COLOUR = {"w": True, "b": False, "-": None, " ": None}
_UNPLAYED_COLOUR = {None: "-", True: "w", False: "b"}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's round: result, opponent's pairing number (0 for none), who moved first.

    ``first`` is True when this player moved first, False when second, None without a game.
    ``tenths`` is the round's true points in tenths of a VP when no result code scores them
    (an arbiter's ½–0 or 1–1, a bye worth what it was worth when given); None means what the
    code scores under the event's settings. Prints and parses itself as the 8-character TRF
    cell, e.g. ``"  12 w 1"`` (the true points travel on the TRF's ``XXA`` line).
    """

    result: Result
    opponent: int = 0
    first: bool | None = None
    tenths: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", Result(self.result))
        if self.tenths is not None and (
            isinstance(self.tenths, bool) or not isinstance(self.tenths, int)
            or not 0 <= self.tenths <= 999
        ):
            raise InvalidEvent(f"a round's points must be 0 to 99.9 in tenths: {self!r}")
        if self.result.bye:
            if self.opponent != 0 or self.first is not None:
                raise InvalidEvent(f"a bye has no opponent and no first move: {self!r}")
        elif not 1 <= self.opponent <= 9999 or self.first is None:
            raise InvalidEvent(
                f"a game or forfeit needs an opponent (1-9999) and who moved first: {self!r}"
            )

    @classmethod
    def parse(cls, cell: str) -> RoundRecord:
        """Parse a TRF round cell (``"  12 w 1"``, ``"0000 - U"``; blanks mean 0 / - / Z)."""
        text = cell.ljust(8)
        if len(text) != 8 or text[4] != " " or text[6] != " ":
            raise TrfError(f"round entry {cell!r} is not 'NNNN c r'")
        number, colour, code = text[:4].strip(), text[5], text[7]
        if number and not number.isdigit():
            raise TrfError(f"opponent {text[:4]!r} in round entry {cell!r} is not a number")
        if colour not in _COLOUR:
            raise TrfError(f"colour {colour!r} in round entry {cell!r} is not w, b or -")
        # Unrated results (W/D/L: "game lasted less than one move") count as played games.
        code = {"W": "1", "D": "=", "L": "0", " ": "Z"}.get(code.upper(), code.upper())
        try:
            result = Result(code)
        except ValueError:
            raise TrfError(f"result {text[7]!r} in round entry {cell!r} is no TRF code") from None
        try:
            return cls(result, int(number or 0), _COLOUR[colour])
        except InvalidEvent as exc:
            raise TrfError(f"round entry {cell!r}: {exc}") from None

    def __str__(self) -> str:
        number = f"{self.opponent:4d}" if self.opponent else "0000"
        return f"{number} {_UNPLAYED_COLOUR[self.first]} {self.result.value}"


class Status(StrEnum):
    """Whether a player takes part in the round about to be paired."""

    PLAYING = "playing"
    ABSENT = "absent"  # requested absence or late entry not yet joined: 0 points (Z)
    HALF_BYE = "half_bye"  # requested absence granted half a point (H)
    FULL_BYE = "full_bye"  # arbiter grants a full point without a game (F)
    WITHDRAWN = "withdrawn"  # left the event; never paired again

    @property
    def absence(self) -> Result | None:
        """The TRF code written for the coming round (None: paired, or withdrawn)."""
        return {
            Status.ABSENT: Result.ZERO_BYE,
            Status.HALF_BYE: Result.HALF_BYE,
            Status.FULL_BYE: Result.FULL_BYE,
        }.get(self)


def _tenths(value: float, what: str) -> int:
    """Points as tenths: TRF writes one decimal, and integers compare exactly."""
    tenths = round(float(value) * 10)
    if abs(float(value) * 10 - tenths) > 1e-9 or not 0 <= tenths <= 999:
        raise InvalidEvent(f"{what} must be a multiple of 0.1 between 0 and 99.9, got {value!r}")
    return tenths


#: The editions of the FIDE (Dutch) System (C.04.3) an event may be paired by: the 2025
#: amendment (in force since 2026, the default) and the 2017 edition an event begun under it
#: keeps. ``tournament.pairing.engines.EDITION_ENGINES`` names the engine of each.
EDITIONS = ("2025", "2017")


@dataclass(frozen=True, slots=True)
class Settings:
    """How the event scores and pairs.

    ``first_move`` says whether pairing number 1 moves ``"first"`` or ``"second"`` in round 1
    (TRF ``XXC white1`` / ``black1``); draw it with :meth:`first_move_by_lot` when the arbiter
    leaves it to chance. ``forfeit_is_meeting`` makes a forfeit block a rematch (FIDE: it does
    not). Points are VP; a loss, a forfeit loss and a zero-point bye score 0. ``edition`` is
    the FIDE (Dutch) System's edition the Swiss rounds are paired by (:data:`EDITIONS`).
    """

    rounds: int
    first_move: str = "first"
    win: float = 1.0
    draw: float = 0.5
    bye: float = 1.0
    half_bye: float = 0.5
    full_bye: float = 1.0
    forfeit_win: float = 1.0
    forfeit_is_meeting: bool = False
    edition: str = "2025"

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 99:
            raise InvalidEvent(f"rounds must be between 1 and 99, got {self.rounds!r}")
        if self.edition not in EDITIONS:
            raise InvalidEvent(f"edition must be one of {', '.join(EDITIONS)}, "
                               f"got {self.edition!r}")
        if self.first_move not in ("first", "second"):
            raise InvalidEvent(f"first_move must be 'first' or 'second', got {self.first_move!r}")
        for name in ("win", "draw", "bye", "half_bye", "full_bye", "forfeit_win"):
            _tenths(getattr(self, name), name)

    @staticmethod
    def first_move_by_lot(rng: random.Random) -> str:
        """Draw whether pairing number 1 moves first in round 1 (store the seed to replay)."""
        return rng.choice(("first", "second"))

    def scored(self, record: RoundRecord) -> int:
        """A round's points in tenths: its true points, or what its code scores."""
        return self.tenths(record.result) if record.tenths is None else record.tenths

    def tenths(self, result: Result) -> int:
        """Points for ``result`` in tenths of a VP (what the code scores)."""
        attribute = {
            Result.WIN: "win",
            Result.DRAW: "draw",
            Result.PAIRING_BYE: "bye",
            Result.HALF_BYE: "half_bye",
            Result.FULL_BYE: "full_bye",
            Result.FORFEIT_WIN: "forfeit_win",
        }.get(result)
        return 0 if attribute is None else _tenths(getattr(self, attribute), attribute)


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the pairing sees them.

    ``number`` is the pairing number (seed order, 1 = top seed). ``history`` holds exactly one
    record per completed round; a late entry who joined in round ``joined_round`` has byes
    (normally ``Z``) for the rounds before. ``status`` is about the round to be paired.
    """

    number: int
    name: str
    rating: int | None = None
    history: tuple[RoundRecord, ...] = ()
    status: Status = Status.PLAYING
    joined_round: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "history", tuple(self.history))
        object.__setattr__(self, "status", Status(self.status))
        if not 1 <= self.number <= 9999:
            raise InvalidEvent(f"pairing number must be 1-9999, got {self.number!r}")
        if "\n" in self.name or "\r" in self.name:
            raise InvalidEvent(f"player {self.number}: name {self.name!r} contains a line break")
        if self.rating is not None and not 0 <= self.rating <= 9999:
            raise InvalidEvent(f"player {self.number}: rating {self.rating!r} is not 0-9999")
        if self.joined_round < 1:
            raise InvalidEvent(f"player {self.number}: joined_round {self.joined_round!r} < 1")
        for index, record in enumerate(self.history[: self.joined_round - 1], start=1):
            if record.result not in _ABSENCES:
                raise InvalidEvent(
                    f"player {self.number} joined in round {self.joined_round} but has "
                    f"{str(record)!r} in round {index}"
                )
        if self.status is Status.PLAYING and self.joined_round > len(self.history) + 1:
            raise InvalidEvent(
                f"player {self.number} joins in round {self.joined_round} and cannot play "
                f"round {len(self.history) + 1}"
            )

    def __str__(self) -> str:
        return f"{self.name} ({self.number})"

    @property
    def first_moves(self) -> tuple[bool, ...]:
        """Who moved first in each *played* game, oldest first (forfeits and byes skipped)."""
        return tuple(bool(r.first) for r in self.history if r.result.played)


@dataclass(frozen=True, slots=True)
class Event:
    """The whole event so far: settings, players (numbered 1..N) and forbidden pairs.

    ``forbidden`` lists pairs that must never meet (e.g. family members; TRF ``XXP``).
    Construction checks that every game is recorded consistently on both sides.
    """

    settings: Settings
    players: tuple[Player, ...]
    name: str = ""
    forbidden: frozenset[tuple[int, int]] = frozenset()
    _by_number: dict[int, Player] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = tuple(sorted(map(self._plain, self.players), key=lambda p: p.number))
        object.__setattr__(self, "players", players)
        numbers = [p.number for p in players]
        if numbers != list(range(1, len(players) + 1)):
            raise InvalidEvent(f"pairing numbers must be 1..{len(players)}, got {numbers}")
        object.__setattr__(self, "_by_number", {p.number: p for p in players})
        if "\n" in self.name:
            raise InvalidEvent(f"event name {self.name!r} contains a line break")
        object.__setattr__(self, "forbidden", frozenset(self._forbidden_pairs()))
        lengths = {len(p.history) for p in players}
        if len(lengths) > 1:
            counts = {p.number: len(p.history) for p in players}
            raise InvalidEvent(f"players have different numbers of completed rounds: {counts}")
        if self.rounds_played > self.settings.rounds:
            raise InvalidEvent(
                f"{self.rounds_played} rounds recorded but the event has {self.settings.rounds}"
            )
        for player in players:
            self._check_games(player)
            if player.status.absence and self.rounds_played == self.settings.rounds:
                raise InvalidEvent(f"player {player} is {player.status} but no round is left")

    def _plain(self, player: Player) -> Player:
        """``player`` without true points that equal their code's: one event, one spelling."""
        scores = self.settings.tenths
        if all(r.tenths is None or r.tenths != scores(r.result) for r in player.history):
            return player
        history = tuple(
            replace(r, tenths=None) if r.tenths == scores(r.result) else r for r in player.history
        )
        return replace(player, history=history)

    def _forbidden_pairs(self) -> set[tuple[int, int]]:
        pairs = set()
        for pair in self.forbidden:
            a, b = sorted(pair)
            if a == b or a not in self._by_number or b not in self._by_number:
                raise InvalidEvent(f"forbidden pair {pair!r} does not name two players")
            pairs.add((a, b))
        return pairs

    def _check_games(self, player: Player) -> None:
        for index, record in enumerate(player.history):
            if record.result.bye:
                continue
            where = f"round {index + 1}: player {player.number} has {str(record)!r}"
            other = self._by_number.get(record.opponent)
            if other is None or other is player:
                raise InvalidEvent(f"{where} but there is no such opponent")
            theirs = other.history[index]
            if theirs.opponent != player.number:
                raise InvalidEvent(f"{where} but player {other.number} has {str(theirs)!r}")
            if (record.result, theirs.result) not in _COMPATIBLE:
                raise InvalidEvent(f"{where}, incompatible with {other.number}'s {str(theirs)!r}")
            if record.first == theirs.first:
                raise InvalidEvent(f"{where}: both players cannot move {_side(record.first)}")

    @property
    def rounds_played(self) -> int:
        """Number of completed rounds (the next round to pair is one more)."""
        return len(self.players[0].history) if self.players else 0

    def player(self, number: int) -> Player:
        """The player with pairing number ``number``."""
        try:
            return self._by_number[number]
        except KeyError:
            raise InvalidEvent(f"no player has pairing number {number!r}") from None

    def tenths(self, number: int) -> int:
        """A player's score so far in tenths of a VP."""
        return sum(self.settings.scored(r) for r in self.player(number).history)

    def corrections(self, number: int) -> tuple[int, ...]:
        """True points minus what the codes score, before each round 1 .. rounds played + 1.

        Running totals in tenths (the first is 0): what a FIDE engine must add to the codes'
        score to pair on the true score (``XXA``, docs/pairing.md). All zero for most players.
        """
        settings, total, running = self.settings, 0, [0]
        for record in self.player(number).history:
            total += settings.scored(record) - settings.tenths(record.result)
            running.append(total)
        return tuple(running)

    def bye_barred(self, number: int) -> str | None:
        """Why criterion C.2 bars ``number`` from the pairing-allocated bye, None if it does
        not: ``"bye"`` (had one), else by the event's edition ``"forfeit_win"`` (2017: a
        forfeit win) or ``"win_unplayed"`` (2025: any round not played that scored a win's
        points, a forfeit win or a full-point bye among them)."""
        history = self.player(number).history
        if any(r.result is Result.PAIRING_BYE for r in history):
            return "bye"
        settings = self.settings
        if settings.edition == "2017":
            won = any(r.result is Result.FORFEIT_WIN for r in history)
            return "forfeit_win" if won else None
        win = settings.tenths(Result.WIN)
        won = any(not r.result.played and settings.tenths(r.result) >= win for r in history)
        return "win_unplayed" if won else None

    def points(self, number: int) -> float:
        """A player's score so far in VP."""
        return self.tenths(number) / 10

    def met(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` may not meet again: played, forbidden, or forfeit if so set."""
        if (min(a, b), max(a, b)) in self.forbidden:
            return True
        counts = self.settings.forfeit_is_meeting
        return any(
            r.opponent == b and (r.result.played or (counts and r.result.forfeit))
            for r in self.player(a).history
        )


def _side(first: bool | None) -> str:
    return "first" if first else "second"
