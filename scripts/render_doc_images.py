"""Render the first page of every printed document to PNG for the docs (docs/images/print-*.png).

    .venv/bin/python scripts/render_doc_images.py              # a demo event in a throwaway DB
    .venv/bin/python scripts/render_doc_images.py --slug SLUG  # an event of the current DB

Without ``--slug`` a demo-like event (14 players, three rounds played by the rules engine,
round 4 paired) is built in a temporary SQLite database, so the images never depend on (or
touch) anyone's data. Needs ``pdftoppm`` (Debian: poppler-utils).

Besides the event's own print language, the standings are also rendered in Russian
(``print-standings-ru.png``, for the README): the event's ``print_language`` is set on a copy in
memory only, so nothing is written to the database.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"
IMAGES = {
    "pairings": "print-pairings", "standings": "print-standings",
    "crosstable": "print-crosstable", "scoresheets": "print-scoresheet", "slips": "print-slips",
}
#: Documents rendered once more in another print language: (document, language, image).
TRANSLATED = [("standings", "ru", "print-standings-ru")]


def build_demo_event():
    """The demo's players and clubs, three rounds played, round 4 paired and published."""
    from games import simulation
    from games.demo import DEMO_PLAYERS
    from tournament import services

    rng = random.Random(2025)
    event = services.create_event(
        name="Demo Open", slug="demo-open", venue="Mind Sports Hall",
        start_date=datetime.date(2025, 6, 14), end_date=datetime.date(2025, 6, 15),
        rounds_planned=7,
    )
    for name, club in DEMO_PLAYERS:
        services.add_player(event, name=name, club=club, rating=rng.randint(1200, 2200))
    simulation.run(event, rng, rounds=3)
    services.publish_round(services.pair_next_round(event))
    return event


def first_page_png(pdf: bytes, target: Path, resolution: int) -> Path:
    """The PDF's first page as ``target``.png."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "document.pdf"
        source.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", str(resolution), "-f", "1", "-l", "1",
                        "-singlefile", str(source), str(target)], check=True)
    return target.with_suffix(".png")


def render(event, out: Path, resolution: int) -> list[Path]:
    from django.conf import settings

    from tournament.printing import documents

    last_round = event.rounds.order_by("-number").first()

    def pdf(of_event, name: str) -> bytes:
        number = documents.resolve_round(
            of_event, name,
            last_round.number if documents.DOCUMENTS[name].round_required else None)
        return documents.render(of_event, name, number, base_url=settings.PUBLIC_BASE_URL or "http://192.168.1.10:8000")

    written = [first_page_png(pdf(event, name), out / image, resolution)
               for name, image in IMAGES.items()]
    for name, language, image in TRANSLATED:
        translated = copy.copy(event)
        translated.print_language = language
        written.append(first_page_png(pdf(translated, name), out / image, resolution))
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slug", help="use this event of the configured database")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--dpi", type=int, default=100)
    args = parser.parse_args()
    if shutil.which("pdftoppm") is None:
        parser.error("pdftoppm is missing: apt-get install poppler-utils")
    sys.path.insert(0, str(ROOT))
    tmp = None
    if not args.slug:
        tmp = tempfile.TemporaryDirectory()
        os.environ["DATA_DIR"] = tmp.name
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("SECRET_KEY", "render-doc-images-only")
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.models import Event

    if args.slug:
        event = Event.objects.get(slug=args.slug)
    else:
        call_command("migrate", verbosity=0)
        event = build_demo_event()
    args.out.mkdir(parents=True, exist_ok=True)
    for path in render(event, args.out, args.dpi):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
