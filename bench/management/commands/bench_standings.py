"""``python manage.py bench_standings [--players 300] [--rounds 9]``: time the standings page.

Builds a Swiss event inside a transaction that is rolled back at the end (nothing is left in
the database): players entered, every round paired by the real pairing code, random slip
results recorded through the services. Then renders the standings and crosstable pages
several times and prints the figures, with the number of queries of one render.

The pages are asked for in this process (Django's test client), as the server would answer
them, with the test client's host accepted and static file names unhashed (no
``collectstatic`` needed: the bench measures the pages, not the static files), so it runs as
the README lists it, with no variable set.
"""

import random
import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from games import simulation
from games.engine.board import COLOURS
from tournament import services

PLAIN_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


class Command(BaseCommand):
    help = "Measure the standings and crosstable pages of a large event (rolled back)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=300)
        parser.add_argument("--rounds", type=int, default=9)
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, players, rounds, repeat, seed, **options):
        rng = random.Random(seed)
        with transaction.atomic():
            started = time.perf_counter()
            event = simulation.create_event("Bench", players, rng, rounds=rounds)
            event.pairing_system = "swiss"
            event.rounds_planned = rounds
            event.save()
            for _ in range(rounds):
                round_ = services.pair_next_round(event)
                services.publish_round(round_)
                for board, result in services.boards_with_results(round_):
                    if result is None:
                        scores = [{c: rng.randint(0, 18) for c in COLOURS} for _ in "AB"]
                        services.record_result(board, "played", first_scores=scores[0],
                                               second_scores=scores[1])
            self.stdout.write(f"built {players} players x {rounds} rounds in "
                              f"{time.perf_counter() - started:.1f} s")
            with override_settings(STORAGES=PLAIN_STATIC, SECURE_SSL_REDIRECT=False,
                                   ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
                self._measure(Client(), event, repeat)
            transaction.set_rollback(True)

    def _measure(self, client: Client, event, repeat: int) -> None:
        for name in ("event_standings", "event_crosstable"):
            url = reverse(name, args=[event.slug])
            client.get(url)  # warm caches and imports
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - t0)
                if response.status_code != 200:
                    raise CommandError(f"{url} answered {response.status_code}")
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            self.stdout.write(
                f"{name}: median {statistics.median(times) * 1000:.0f} ms, "
                f"max {max(times) * 1000:.0f} ms, {len(queries.captured_queries)} queries"
            )
