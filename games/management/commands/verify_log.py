"""``manage.py verify_log FILE [--json]``: verify a game record (text or JSON, auto-detected).

Exit status 0 and the verified result for a valid, finished record; 1 and the first error
(line and reason) for an invalid or unfinished one, or a file that cannot be read. With
``--json`` the command prints exactly one JSON object (see docs/notation.md). ``-`` reads
standard input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine import NotationError, Verdict, verify
from games.engine.notation import MAX_RECORD_CHARS


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure core only: no models, no URLs
    help = "Verify an Ingenious game record; exit 0 if valid and finished, 1 otherwise."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record (text or JSON); '-' for standard input")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        verdict = _verify_file(options["file"])
        if options["json"]:
            self.stdout.write(json.dumps(verdict.to_json(), ensure_ascii=False))
        elif verdict.ok:
            self.stdout.write(_describe(verdict))
        else:
            self.stderr.write(f"invalid: {verdict.error}")
        if not verdict.ok:
            sys.exit(1)


def _verify_file(name: str) -> Verdict:
    try:
        if name == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_CHARS * 4 + 1)
        else:
            with Path(name).open("rb") as handle:
                data = handle.read(MAX_RECORD_CHARS * 4 + 1)
    except OSError as error:
        return Verdict(None, NotationError("file_unreadable", name=name, why=error.strerror))
    return verify(data)


def _describe(verdict: Verdict) -> str:
    game = verdict.game
    assert game is not None
    lines = [f"valid: result {game.result} ({game.end})"]
    for seat in game.seats:
        scores = " ".join(f"{c} {n}" for c, n in game.scores[seat].items())
        levels = " ".join(map(str, game.levels[seat]))
        diff = game.differences.get(seat)
        shown = f"  differences {' '.join(f'{d:+d}' for d in diff)}" if diff else ""
        lines.append(f"{seat}: {scores}  levels {levels}{shown}")
    lines.append(
        f"placements {game.placements}, bonus plays {game.bonus_plays}, swaps {game.swaps}"
    )
    return "\n".join(lines)
