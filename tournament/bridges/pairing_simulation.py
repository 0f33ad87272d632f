"""Random results for a paired round: the benchmark's and the property tests' event maker.

Outside the pairing core on purpose: it is a helper for measuring and testing the core, not
part of it.

Randomness comes from the caller's ``random.Random`` so every simulated event can be replayed
from its seed.
"""

from __future__ import annotations

import random
from dataclasses import replace

from tournament.pairing import (
    Event,
    Player,
    Result,
    RoundPairing,
    RoundRecord,
    Settings,
    Status,
    pair_swiss,
)


def new_event(players: int, settings: Settings, name: str = "") -> Event:
    """An event before round 1: ``players`` players named ``Player 1`` ... in seed order."""
    return Event(settings, tuple(Player(n, f"Player {n}") for n in range(1, players + 1)), name)


def play_round(
    event: Event,
    pairing: RoundPairing,
    rng: random.Random,
    *,
    draw_rate: float = 0.02,
    forfeit_rate: float = 0.0,
) -> Event:
    """``event`` with ``pairing`` played: random wins, rare draws, optional forfeits.

    Absent players get their absence code, withdrawn players ``Z``; afterwards every absent
    player is back to PLAYING (an absence is for one round), withdrawn players stay out.
    """
    records: dict[int, RoundRecord] = {}
    for board in pairing.boards:
        a, b = board.first, board.second
        roll = rng.random()
        if roll < forfeit_rate:
            first, second = (
                (Result.FORFEIT_WIN, Result.FORFEIT_LOSS)
                if rng.random() < 0.5
                else (Result.FORFEIT_LOSS, Result.FORFEIT_WIN)
            )
        elif roll < forfeit_rate + draw_rate:
            first, second = Result.DRAW, Result.DRAW
        elif rng.random() < 0.5:
            first, second = Result.WIN, Result.LOSS
        else:
            first, second = Result.LOSS, Result.WIN
        records[a] = RoundRecord(first, b, True)
        records[b] = RoundRecord(second, a, False)
    if pairing.bye is not None:
        records[pairing.bye] = RoundRecord(Result.PAIRING_BYE)
    players = []
    for player in event.players:
        record = records.get(player.number)
        if record is None:
            record = RoundRecord(player.status.absence or Result.ZERO_BYE)
        status = Status.WITHDRAWN if player.status is Status.WITHDRAWN else Status.PLAYING
        if status is Status.PLAYING and player.joined_round > event.rounds_played + 2:
            status = Status.ABSENT  # a late entry who has not arrived yet
        players.append(replace(player, history=(*player.history, record), status=status))
    return replace(event, players=tuple(players))


def simulate(event: Event, rounds: int, rng: random.Random, **rates: float) -> Event:
    """Pair and play ``rounds`` Swiss rounds with :func:`play_round`."""
    for _ in range(rounds):
        event = play_round(event, pair_swiss(event), rng, **rates)
    return event
