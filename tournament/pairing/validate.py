"""Checks for a round pairing, above all one the arbiter edited by hand.

Warnings, not errors: the arbiter may knowingly break a rule (FIDE lets top scorers in the
last round break the first-move limits), so the page shows what is wrong and lets them
decide. The same checks guard engine output (see :mod:`tournament.pairing.swiss`), where the
"hard" codes in :data:`HARD` mean the engine is broken.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tournament.pairing.boards import RoundPairing
from tournament.pairing.model import Event, Status

#: Code -> English text of each warning (``str.format`` fields: the warning's ``params``).
#: ``status`` is a :class:`Status` value, ``had`` is ``bye``, ``forfeit_win`` or
#: ``win_unplayed`` (``Event.bye_barred``), ``side`` is
#: ``first`` or ``second``: words a shell says in its own language (:data:`WORDS` in English).
PAIRING_WARNINGS: dict[str, str] = {
    "unknown": "no player has pairing number {number}",
    "twice": "{name} is paired {count} times",
    "unavailable": "{name} is {status} but paired",
    "missing": "{name} is neither paired nor given the bye",
    "rematch": "board {board}: {first} and {second} must not meet again",
    "second_bye": "{name} already had {had}",
    "first_move_imbalance": "board {board}: {name} would have moved first {first} and second "
                            "{second} times",
    "first_move_streak": "board {board}: {name} would move {side} three games running",
}
WORDS = {"absent": "absent", "half_bye": "half bye", "full_bye": "full bye",
         "withdrawn": "withdrawn", "bye": "a bye", "forfeit_win": "a forfeit win",
         "win_unplayed": "a win's points without playing"}

#: Codes no engine output may ever have.
HARD = frozenset({"unknown", "twice", "missing", "unavailable", "rematch", "second_bye"})


@dataclass(frozen=True, slots=True)
class PairingWarning:
    """One problem in a pairing: a stable ``code``, a message naming players, their numbers.

    Codes: ``unknown`` (no such player), ``twice`` (in the round more than once), ``missing``
    (available but not paired), ``unavailable`` (absent or withdrawn but paired), ``rematch``
    (met before, or a forbidden pair), ``second_bye`` (pairing-allocated bye to a player who had
    one or a forfeit win), ``first_move_imbalance`` (moved first minus second beyond ±2),
    ``first_move_streak`` (first, or second, three played games running).
    """

    code: str
    message: str
    players: tuple[int, ...]
    params: Mapping[str, object] = field(default_factory=dict)
    """The values the message names (players by name, board, counts), for a shell that says
    the warning in another language from ``code`` and these."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def validate_pairing(event: Event, pairing: RoundPairing) -> list[PairingWarning]:
    """Every rule ``pairing`` breaks for the next round of ``event``, board order first."""
    warnings: list[PairingWarning] = []
    known = {p.number for p in event.players}

    def name(number: int) -> str:
        return str(event.player(number)) if number in known else f"#{number}"

    def warn(code: str, *players: int, **params: object) -> None:
        words = {k: WORDS.get(v, v) if k in ("status", "had") else v for k, v in params.items()}
        warnings.append(PairingWarning(code, PAIRING_WARNINGS[code].format(**words), players,
                                       params))

    counts = Counter(pairing.players)
    for number in sorted(counts):
        if number not in known:
            warn("unknown", number, number=number)
        elif counts[number] > 1:
            warn("twice", number, name=name(number), count=counts[number])
        elif event.player(number).status is not Status.PLAYING:
            warn("unavailable", number, name=name(number),
                 status=event.player(number).status.value)
    for player in event.players:
        if player.status is Status.PLAYING and player.number not in counts:
            warn("missing", player.number, name=str(player))

    for index, board in enumerate(pairing.boards, start=1):
        a, b = board.first, board.second
        if a in known and b in known and event.met(a, b):
            warn("rematch", a, b, board=index, first=name(a), second=name(b))
        for number, first in ((a, True), (b, False)):
            if number in known:
                _first_moves(event, number, first, index, warn)

    if pairing.bye is not None and pairing.bye in known:
        had = event.bye_barred(pairing.bye)
        if had is not None:
            warn("second_bye", pairing.bye, name=name(pairing.bye), had=had)
    return warnings


def forfeit_rematches(event: Event, pairing: RoundPairing) -> list[tuple[int, int, int, int]]:
    """The boards of ``pairing`` whose two players were paired before in a game not played
    (a forfeit): ``(board, first, second, round)`` for each such earlier round. FIDE does not
    count a forfeit as a meeting, so the pairing may bring them together again; an arbiter
    who sees the same two names twice is told why it is allowed. Empty when the event counts
    forfeits as meetings (then it is a ``rematch`` warning)."""
    if event.settings.forfeit_is_meeting:
        return []
    known = {p.number for p in event.players}
    return [(index, board.first, board.second, number)
            for index, board in enumerate(pairing.boards, start=1)
            if board.first in known and board.second in known
            for number, record in enumerate(event.player(board.first).history, start=1)
            if record.opponent == board.second and record.result.forfeit]


def _first_moves(
    event: Event, number: int, first: bool, board: int, warn: Callable[..., None]
) -> None:
    """FIDE's colour limits with "first move" for White, over played games only."""
    player = event.player(number)
    moves = (*player.first_moves, first)
    balance = sum(1 if m else -1 for m in moves)
    side = "first" if first else "second"
    if abs(balance) > 2:
        firsts = moves.count(True)
        warn("first_move_imbalance", number, board=board, name=str(player), first=firsts,
             second=len(moves) - firsts)
    if len(moves) >= 3 and len(set(moves[-3:])) == 1:
        warn("first_move_streak", number, board=board, name=str(player), side=side)
