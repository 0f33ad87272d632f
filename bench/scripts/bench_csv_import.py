"""Benchmark: a 5,000-player CSV import beside another event's writes.

Run: ``.venv/bin/python bench/scripts/bench_csv_import.py [--players N] [--backup-players P
--backup-rounds R]``. On the embedded
setup's database (a SQLite file, in a throwaway ``DATA_DIR``; or ``DATABASE_URL``'s database,
which must be empty and migratable) it imports N players into one event through
``services.import_players`` while a second thread writes to another event every 20 ms, as a
clock press does: a short transaction that needs SQLite's one write lock. It prints how long
the import took and how long the other writer waited at most (SQLite makes it wait for as
long as the import holds the lock). With ``--backup-players`` it does the same for the
import of a JSON backup (written in one transaction: it is not split, see
``docs/deployment.md``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="bench-csv-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from backups import document  # noqa: E402
from games import simulation  # noqa: E402
from tournament import services  # noqa: E402
from tournament.models import Event  # noqa: E402

PRESS_EVERY_S = 0.02


def other_writer(event_id: int, stop: threading.Event, waits: list[float]) -> None:
    """Short write transactions on another event until ``stop``; each one's duration."""
    try:
        while not stop.is_set():
            start = time.perf_counter()
            with transaction.atomic():
                Event.objects.filter(pk=event_id).update(venue=f"{start:.3f}")
            waits.append(time.perf_counter() - start)
            time.sleep(PRESS_EVERY_S)
    finally:
        connection.close()


def beside_writes(what: str, work) -> None:
    """Run ``work()`` while another event is written to; print both timings."""
    other = services.create_event(name=f"Side Event {what}", rounds_planned=5)
    stop, waits = threading.Event(), []
    thread = threading.Thread(target=other_writer, args=(other.pk, stop, waits))
    thread.start()
    time.sleep(0.2)
    start = time.perf_counter()
    work()
    took = time.perf_counter() - start
    time.sleep(0.2)
    stop.set()
    thread.join()
    print(f"{what}: {took:.2f} s; other event's writes: {len(waits)}, longest "
          f"{max(waits):.3f} s, median {sorted(waits)[len(waits) // 2] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--backup-players", type=int, default=0,
                        help="also import the backup of an event of this many players with "
                             "--backup-rounds rounds played by the engine")
    parser.add_argument("--backup-rounds", type=int, default=3)
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    target = services.create_event(name="Big Open", rounds_planned=9)
    text = "name,club,country,rating\n" + "".join(
        f"Player {i:05d},Club {i % 97},NL,{1000 + i % 1500}\n" for i in range(options.players))
    beside_writes(f"CSV import of {options.players} players",
                  lambda: services.import_players(target, text))
    if options.backup_players:
        rng = random.Random(21)
        played = simulation.create_event("Backup Open", options.backup_players, rng,
                                         rounds=max(options.backup_rounds, 5))
        simulation.run(played, rng, rounds=options.backup_rounds)
        data = document.export_event(played)
        beside_writes(f"backup import of {options.backup_players} players, "
                      f"{options.backup_rounds} rounds played",
                      lambda: document.import_event(data, slug="backup-copy"))


if __name__ == "__main__":
    main()
