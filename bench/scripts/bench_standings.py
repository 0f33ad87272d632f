"""Benchmark: standings and crosstable of a 300-player, 9-round Swiss-like event.

Run: ``.venv/bin/python bench/scripts/bench_standings.py``. Prints the median of several runs in
milliseconds for the default tiebreaks, for every registered tiebreak, and for the crosstable.
The event is random but seeded, so the figure is comparable between runs and machines.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournament.standings import (
    TIEBREAKS,
    Bye,
    EventResults,
    Game,
    Player,
    build_crosstable,
    compute_standings,
)

PLAYERS = 300
ROUNDS = 9
REPEATS = 7


def make_event(rng: random.Random, players: int = PLAYERS, rounds: int = ROUNDS) -> EventResults:
    """Players paired by current VP each round (a crude Swiss), mostly played games."""
    roster = [Player(i, f"Player {i:03d}", rating=rng.randint(1000, 2200)) for i in range(players)]
    vp = dict.fromkeys(range(players), 0.0)
    games: list[Game] = []
    byes: list[Bye] = []
    for rnd in range(1, rounds + 1):
        order = sorted(range(players), key=lambda i: (-vp[i], rng.random()))
        if len(order) % 2:
            bye = order.pop()
            byes.append(Bye(rnd, bye))
            vp[bye] += 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            roll = rng.random()
            if roll < 0.03:
                game = Game.forfeit(rnd, a, b, absent=b)
            else:
                game = Game.played(
                    rnd,
                    a,
                    b,
                    [rng.randint(0, 18) for _ in range(6)],
                    [rng.randint(0, 18) for _ in range(6)],
                )
            games.append(game)
            vp[a] += float(game.first_vp)
            vp[b] += float(game.second_vp)
    return EventResults(roster, games, byes)


def median_ms(func) -> float:
    """Median CPU time of this process (not wall time: other jobs on the machine skew that)."""
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        func()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    event = make_event(random.Random(20240601))
    every = list(TIEBREAKS)
    standings = compute_standings(event, every)
    print(f"{PLAYERS} players x {ROUNDS} rounds, median CPU time of {REPEATS} runs:")
    print(f"  standings, default tiebreaks: {median_ms(lambda: compute_standings(event)):.1f} ms")
    print(f"  standings, all {len(every)} tiebreaks: "
          f"{median_ms(lambda: compute_standings(event, every)):.1f} ms")
    print(f"  crosstable:                   "
          f"{median_ms(lambda: build_crosstable(event, standings)):.1f} ms")
    print(f"  building EventResults:        "
          f"{median_ms(lambda: EventResults(event.players, event.games, event.byes)):.1f} ms")


if __name__ == "__main__":
    main()
