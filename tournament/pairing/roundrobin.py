"""Round robin by the FIDE Berger tables (C.05 Annex 1).

The tables are generated, not stored, from the board formula in tournament-rules.md section 8,
so any field size works and the published tables (4 to 16 players) are the test oracle.
With an odd number of players a dummy player makes the count even; meeting it is the bye.
"""

from __future__ import annotations

from tournament.pairing.boards import Board, RoundPairing
from tournament.pairing.errors import InvalidEvent


def berger_round(players: int, round_number: int) -> RoundPairing:
    """Round ``round_number`` of the single Berger table for ``players`` (numbers 1..players).

    Board 1 is the game of the highest (possibly dummy) number; for odd ``players`` that game
    is the bye and the remaining boards move up.
    """
    _check_size(players)
    n = players + players % 2
    if not 1 <= round_number <= n - 1:
        raise InvalidEvent(f"{players} players have rounds 1..{n - 1}, not {round_number}")
    r = round_number
    k = (r + 1) // 2 if r % 2 else n // 2 + r // 2
    games = [(k, n) if r % 2 else (n, k)]
    for b in range(2, n // 2 + 1):
        games.append(((k + b - 2) % (n - 1) + 1, (k - b) % (n - 1) + 1))
    bye = None
    if players % 2:
        bye = k  # the dummy player n always sits on board 1
        games = games[1:]
    return RoundPairing(r, tuple(Board(a, b) for a, b in games), bye)


def berger_schedule(players: int, *, double: bool = False) -> tuple[RoundPairing, ...]:
    """Every round of the round robin, in playing order.

    ``double``: a second cycle with first and second move reversed; the last two rounds of the
    first cycle are swapped (FIDE's advice) so nobody moves first, or second, three games
    running across the cycles.
    """
    _check_size(players)
    n = players + players % 2
    cycle = [berger_round(players, r) for r in range(1, n)]
    if not double:
        return tuple(cycle)
    first = cycle[:-2] + cycle[:-3:-1]
    second = [
        RoundPairing(
            len(cycle) + p.round,
            tuple(Board(b.second, b.first) for b in p.boards),
            p.bye,
        )
        for p in cycle
    ]
    renumbered = [RoundPairing(i, p.boards, p.bye) for i, p in enumerate(first, start=1)]
    return (*renumbered, *second)


def _check_size(players: int) -> None:
    if players < 2:
        raise InvalidEvent(f"a round robin needs at least 2 players, got {players}")
