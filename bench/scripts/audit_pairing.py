"""Audit: eleven messy Swiss events played through the services, each round's TRF download
given to bbpPairings as it is, its draw compared with the round the product paired.

Run: ``.venv/bin/python bench/scripts/audit_pairing.py``. The events (11-150 players, 7-9
rounds) are those of ``tests.messy_swiss``: absences at 0 and ½, a late entry at ½, withdrawals,
forfeits, double forfeits, ½–0, 0–½ and 1–1 decisions, and in every other event a bye worth 1
before byes became worth ½. They are played in a throwaway SQLite database in a temporary
folder. Prints each event's rounds and those that differ (board order, first moves and the bye
count), then the total.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

EVENTS = [(11, 7), (14, 7), (20, 7), (27, 7), (33, 8), (40, 8), (52, 8), (64, 8), (80, 9),
          (110, 9), (150, 9)]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="audit-") as folder:
        os.environ.update(DATA_DIR=folder, DEBUG="1", DJANGO_SETTINGS_MODULE="tournament.settings")
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        from tests import messy_swiss
        from tournament.pairing.engines import ExternalEngine, bbpairings_program

        engine = ExternalEngine(bbpairings_program())
        total = same = 0
        for index, (players, rounds) in enumerate(EVENTS, start=1):
            differing = []
            for paired in messy_swiss.play(f"Audit {index}", index, players, rounds, engine,
                                           bye_change=index % 2 == 0):
                total += 1
                if paired.stored == paired.engines and paired.round.paired_by.startswith(
                        "bbpairings:2025"):
                    same += 1
                else:
                    differing.append(paired.number)
            print(f"event {index}: {players} players, {rounds} rounds, "
                  f"differing rounds: {differing or 'none'}")
        print(f"identical to bbpPairings given the downloaded TRF: {same} of {total} rounds")


if __name__ == "__main__":
    main()
