"""``python manage.py simulate_self_running --players N --rounds R --seed S [--json]``: a whole
online event that runs itself, played by bots on simulated time (``autopilot.simulation``):
registrations (some late), players who never come, some who stop in mid-game, a dispute the
arbiter settles with the automation paused; then the final standings re-checked against an
independent sum of the stored records and results. Exit 1 when the recheck finds a difference.
The event stays, like ``simulate_event``'s.
"""

from __future__ import annotations

import json as jsonlib
import time

from django.core.management.base import BaseCommand, CommandError

from autopilot import simulation


class Command(BaseCommand):
    help = ("Run a whole self-running online event with bots on simulated time and re-check "
            "its final standings independently.")

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=20)
        parser.add_argument("--rounds", type=int, default=7)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, players: int, rounds: int, seed: int, json: bool, **options):
        if not 4 <= players <= 1000:
            raise CommandError("--players must be between 4 and 1000")
        if not 1 <= rounds <= 15:
            raise CommandError("--rounds must be between 1 and 15")
        began = time.monotonic()
        report = simulation.run(players=players, rounds=rounds, seed=seed,
                                slug=f"self-running-{seed}-{time.time_ns()}")
        out = {"event": report.event.slug, "rounds": report.rounds, "games": report.games,
               "no_show_forfeits": report.forfeits, "withdrawn": report.withdrawn,
               "late": report.late, "disputed": report.disputed, "problems": report.problems,
               "seconds": round(time.monotonic() - began, 1)}
        if json:
            self.stdout.write(jsonlib.dumps(out, ensure_ascii=False))
        else:
            for key, value in out.items():
                self.stdout.write(f"{key}: {value}")
        if report.problems:
            raise CommandError("the recheck found differences: " + "; ".join(report.problems))
