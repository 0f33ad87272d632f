"""``manage.py bench_pairing``: time one Swiss round at several field sizes, by each edition.

Each field plays ``--before`` simulated rounds with random results (seeded), then the next
round is paired ``--repeat`` times and the fastest wall time is printed (as ``timeit`` does:
the pairing is deterministic, so slower runs only measure other load on the machine).
Targets: under 0.2 s at 40 players, under 1 s at 100, under 2 s at 300. The 2025
edition runs bbpPairings (a process per round, as the server does); the 2017 edition py4swiss.
"""

import random
import time
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandParser

from tournament.bridges.pairing_simulation import new_event, simulate
from tournament.pairing import EDITIONS, Settings, pair_swiss


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure core only: no models, no URLs
    help = "Time the pairing of one Swiss round after some simulated rounds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, nargs="+", default=[40, 100, 300])
        parser.add_argument("--before", type=int, default=4, help="rounds played before")
        parser.add_argument("--rounds", type=int, default=9, help="rounds of the event")
        parser.add_argument("--seed", type=int, default=2025)
        parser.add_argument("--repeat", type=int, default=3, help="timed runs, best is shown")
        parser.add_argument("--editions", nargs="+", choices=EDITIONS, default=list(EDITIONS))

    def handle(self, *args: object, **options: object) -> None:
        before, rounds, seed = int(options["before"]), int(options["rounds"]), int(options["seed"])
        for players in options["players"]:  # type: ignore[attr-defined]
            rng = random.Random(f"{seed}-{players}")
            event = simulate(new_event(players, Settings(rounds)), before, rng, draw_rate=0.05)
            for edition in options["editions"]:  # type: ignore[attr-defined]
                by = replace(event, settings=replace(event.settings, edition=edition))
                seconds = float("inf")
                for _ in range(max(1, int(options["repeat"]))):
                    start = time.perf_counter()
                    pair_swiss(by)
                    seconds = min(seconds, time.perf_counter() - start)
                self.stdout.write(f"players: {players} edition: {edition} "
                                  f"seconds: {seconds:.3f}")
