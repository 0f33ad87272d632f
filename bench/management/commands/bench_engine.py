"""``manage.py bench_engine``: how fast the rules engine verifies records and places tiles.

Generates ``--count`` random full two-player records (seeded, ``mso``, claims on every
placement, some swaps), then times

- ``records/s``: :func:`games.engine.verify` on their text form (parsing included);
- ``us/placement``: the raw :class:`games.engine.Game` API replaying the same placements
  (``Game.place_indices`` with cell indices: no parsing, no claims), game set-up included.

Times are CPU time of this process (``time.process_time``), best of ``--repeat`` runs, so a
busy machine disturbs them less; wall-clock figures are printed too. Targets: >= 2,000
records/s and < 10 us per placement on one core.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import Game, format_record, random_game, verify
from games.engine.board import COLOURS
from games.engine.record import PLACE

_COLOUR = {c: i for i, c in enumerate(COLOURS)}


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure core only: no models, no URLs
    help = "Benchmark the rules engine: records verified per second, microseconds per placement."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, default=2000, help="random records to verify")
        parser.add_argument("--seed", type=int, default=2025)
        parser.add_argument("--repeat", type=int, default=5, help="timed runs (best is kept)")
        parser.add_argument("--profile", default="mso", help="rules profile (mso or kosmos)")

    def handle(self, *args: Any, **options: Any) -> None:
        count, repeat = options["count"], max(1, options["repeat"])
        rng = random.Random(options["seed"])
        games = [random_game(rng, profile=options["profile"], swap_rate=0.3) for _ in range(count)]
        texts = [format_record(g.record) for g in games]
        cpu, wall = _best(repeat, lambda: _verify_all(texts))
        placements = sum(g.game.placements for g in games)
        self.stdout.write(
            f"records: {count} placements: {placements} (mean {placements / count:.1f} per record)"
        )
        self.stdout.write(f"records/s: {count / cpu:.0f}")
        self.stdout.write(f"records/s wall: {count / wall:.0f}")
        moves = [_indices(g.record) for g in games]
        cpu, wall = _best(repeat, lambda: _place_all(moves))
        self.stdout.write(f"us/placement: {cpu / placements * 1e6:.2f}")
        self.stdout.write(f"us/placement wall: {wall / placements * 1e6:.2f}")


def _best(repeat: int, run: Any) -> tuple[float, float]:
    cpu = wall = float("inf")
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return max(cpu, 1e-9), max(wall, 1e-9)


def _verify_all(texts: list[str]) -> None:
    for text in texts:
        verdict = verify(text)
        if not verdict.ok:
            raise CommandError(f"a generated record failed to verify: {verdict.error}")


def _indices(record: Any) -> list[tuple[int, int, int, int, int]]:
    index = Game().board.index
    return [
        (
            "AB".index(action.seat),
            index[action.placement.first],
            _COLOUR[action.placement.first_colour],
            index[action.placement.second],
            _COLOUR[action.placement.second_colour],
        )
        for action in record.actions
        if action.kind == PLACE
    ]


def _place_all(moves: list[list[tuple[int, int, int, int, int]]]) -> None:
    for game_moves in moves:
        place = Game().place_indices
        for move in game_moves:
            place(*move)
