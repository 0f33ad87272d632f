"""Benchmark: standings and crosstable PDFs of a 300-player, 9-round event.

Run: ``.venv/bin/python bench/scripts/bench_printing.py``. Builds the event as plain data (the
seeded random event of ``bench_standings.py``; no database), computes standings and crosstable
with the core, and prints the median seconds over several runs of turning them into a PDF
(``build``) and of the whole path from results to PDF (``total``). The target is under 2 s
per document. Scoresheets and slips for a 150-board round are timed too, for reference.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from bench_standings import make_event  # noqa: E402

from tournament.printing.crosstable import build_crosstable  # noqa: E402
from tournament.printing.data import (  # noqa: E402
    BoardSheet,
    EventInfo,
    SheetPlayer,
    crosstable_doc_from,
    standings_doc_from,
)
from tournament.printing.scoresheet import build_scoresheets  # noqa: E402
from tournament.printing.slips import build_slips  # noqa: E402
from tournament.printing.standings import build_standings  # noqa: E402
from tournament.standings import build_crosstable as core_crosstable  # noqa: E402
from tournament.standings import compute_standings  # noqa: E402

REPEATS = 5
INFO = EventInfo("Benchmark Open", "14 June 2025", "Hall", "10 min per player", "MSO",
                 "printed for the benchmark")


def median_seconds(func) -> tuple[float, object]:
    times, result = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    event = make_event(random.Random(1))
    table = compute_standings(event)
    rows = core_crosstable(event, table)
    standings_doc = standings_doc_from(INFO, table)
    cross_doc = crosstable_doc_from(INFO, table, rows)
    import io

    from pypdf import PdfReader

    def report(label: str, seconds: float, pdf: bytes) -> None:
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        print(f"{label:<44} {seconds:6.3f} s  ({pages} pages, {len(pdf) / 1024:,.0f} KiB)")

    print(f"{len(event.players)} players, {event.last_round} rounds, median of {REPEATS} runs")
    seconds, pdf = median_seconds(lambda: build_standings(standings_doc))
    report("standings PDF (build)", seconds, pdf)
    seconds, pdf = median_seconds(
        lambda: build_standings(standings_doc_from(INFO, compute_standings(event))))
    report("standings PDF (total: results -> PDF)", seconds, pdf)
    seconds, pdf = median_seconds(lambda: build_crosstable(cross_doc))
    report("crosstable PDF (build)", seconds, pdf)

    def crosstable_total() -> bytes:
        t = compute_standings(event)
        return build_crosstable(crosstable_doc_from(INFO, t, core_crosstable(event, t)))

    seconds, pdf = median_seconds(crosstable_total)
    report("crosstable PDF (total: results -> PDF)", seconds, pdf)
    sheets = [
        BoardSheet(INFO, 9, b, SheetPlayer(f"Player {2 * b:03d}"),
                   SheetPlayer(f"Player {2 * b + 1:03d}"),
                   f"http://127.0.0.1:8000/b/token{b:04d}xxxxxxxxxxxxxxxx/")
        for b in range(1, 151)
    ]
    seconds, pdf = median_seconds(lambda: build_scoresheets(sheets))
    report("scoresheets PDF, 150 boards", seconds, pdf)
    seconds, pdf = median_seconds(lambda: build_slips(sheets))
    report("result slips PDF, 150 boards", seconds, pdf)


if __name__ == "__main__":
    main()
