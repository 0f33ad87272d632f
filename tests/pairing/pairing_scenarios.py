"""Random Swiss events for the pairing tests: late entries, absences, withdrawals, forfeits.

Everything is driven by one seed so a failing example names the event that broke.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from tournament.bridges.pairing_simulation import play_round
from tournament.pairing import Event, NoLegalPairing, Player, RoundPairing, Settings, Status
from tournament.pairing.swiss import pair_swiss


def start_event(players: int, rounds: int, rng: random.Random, *, late: bool = True) -> Event:
    """An event before round 1 with random settings and a few late entries."""
    settings = Settings(
        rounds,
        first_move=Settings.first_move_by_lot(rng),
        bye=rng.choice([1.0, 1.0, 0.5, 0.0]),
        half_bye=rng.choice([0.5, 0.0]),
        forfeit_is_meeting=rng.random() < 0.3,
    )
    if settings.half_bye != settings.draw:  # bbpPairings scores H as a draw: the 2017 engine
        settings = replace(settings, edition="2017")
    late_ones = set(rng.sample(range(1, players + 1), players // 8)) if late else set()
    entries = []
    for number in range(1, players + 1):
        rating = None if rng.random() < 0.2 else 2400 - 7 * number
        if number in late_ones:
            joined = rng.randint(2, min(4, rounds))
            entries.append(Player(number, f"Late {number}", rating, (), Status.ABSENT, joined))
        else:
            entries.append(Player(number, f"Player {number}", rating))
    forbidden = frozenset()
    if players >= 4 and rng.random() < 0.3:
        forbidden = frozenset({tuple(sorted(rng.sample(range(1, players + 1), 2)))})
    return Event(settings, tuple(entries), f"Seeded {players}", forbidden)


def before_round(event: Event, rng: random.Random, absent: float, withdraw: float) -> Event:
    """Some PLAYING players ask for an absence in the coming round, a few withdraw."""
    players = []
    for player in event.players:
        if player.status is Status.PLAYING:
            roll = rng.random()
            if roll < withdraw:
                player = replace(player, status=Status.WITHDRAWN)
            elif roll < withdraw + absent:
                status = rng.choice([Status.ABSENT, Status.HALF_BYE, Status.FULL_BYE])
                player = replace(player, status=status)
        players.append(player)
    return replace(event, players=tuple(players))


def run_event(
    event: Event,
    rng: random.Random,
    *,
    absent: float = 0.03,
    withdraw: float = 0.01,
    forfeit: float = 0.02,
    draws: float = 0.03,
) -> Iterator[tuple[Event, RoundPairing | NoLegalPairing]]:
    """Yield (event before the round, its pairing) until the last round or a refusal."""
    while event.rounds_played < event.settings.rounds:
        event = before_round(event, rng, absent, withdraw)
        if not any(p.status is Status.PLAYING for p in event.players):
            return
        try:
            pairing = pair_swiss(event)
        except NoLegalPairing as refusal:
            yield event, refusal
            return
        yield event, pairing
        event = play_round(event, pairing, rng, draw_rate=draws, forfeit_rate=forfeit)
