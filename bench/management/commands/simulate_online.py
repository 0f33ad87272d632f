"""``python manage.py simulate_online --games N --seed S [--json]``: bots play online games.

Creates an event with ``--games`` boards in one published round, marks the round online,
starts its clocks, starts its own server (daphne, on this process's database and channel
layer, like ``bench_clocks``) and lets two bots play every game through real websockets
(``games/botclient.py``). ``--seed`` seeds the bots' choices; the deal is the server's secret
seed, as in real play. Each finished record is checked against the seed the server revealed
and the commitment the bots saw at the start (``games.dealt.check_deal``). ``--json`` prints
``{"games": [{"board", "record", "result", "seed", "commitment"}, ...]}``; the event stays,
like ``simulate_event``'s.
"""

from __future__ import annotations

import asyncio
import json as jsonlib
import random
import time

from django.core.management.base import BaseCommand, CommandError

from bench.events import create_clock_event
from bench.servers import AsgiServer
from games.botclient import BotError, SeatGame, play_seat
from games.dealt import DealMismatch, check_deal
from games.models import GameRecord
from games.online import play as online


async def play_all(url: str, games: list[tuple[int, str, str]], seed: int) -> list[SeatGame]:
    """Both seats of every game at once; the first seat's view of each game, in order."""
    tasks = []
    for number, token_a, token_b in games:
        for seat, token in (("A", token_a), ("B", token_b)):
            rng = random.Random(f"{seed}-{number}-{seat}")
            tasks.append(play_seat(url, token, rng))
    seen = await asyncio.gather(*tasks)
    return list(seen[::2])


class Command(BaseCommand):
    help = ("Play N complete online games between bots through real websockets on a server "
            "this command starts, and print the records with their revealed seeds.")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, games: int, seed: int = 1, json: bool = False, **options):
        if not 1 <= games <= 500:
            raise CommandError("--games must be between 1 and 500")
        try:
            import websockets  # noqa: F401
        except ImportError as error:
            raise CommandError("simulate_online needs `websockets` (requirements-dev.txt)") \
                from error
        round_ = create_clock_event(games, slug=f"online-{seed}-{time.time_ns()}",
                                    name=f"Online simulation (seed {seed})")
        dealt = online.mark_online(round_)
        online.start_round(round_, who="simulate_online")
        tokens = [(g.board.number, g.token_a, g.token_b) for g in dealt]
        server = AsgiServer()
        try:
            server.wait_listening()
            seen = asyncio.run(play_all(server.url, tokens, seed))
        except (BotError, TimeoutError) as error:
            raise CommandError(f"{error}\nserver log:\n{server.log_tail()}") from error
        finally:
            server.stop()
        out = []
        for game, seat in zip(dealt, seen, strict=True):
            record = GameRecord.objects.get(board=game.board)
            last = seat.last
            try:
                check_deal(record.text, last["seed"], seat.first["commitment"])
            except DealMismatch as error:
                raise CommandError(f"board {game.board.number}: {error}") from error
            out.append({"board": game.board.number, "record": record.text,
                        "result": last["result"], "seed": last["seed"],
                        "commitment": seat.first["commitment"]})
        if json:
            self.stdout.write(jsonlib.dumps({"games": out}, ensure_ascii=False))
            return
        self.stdout.write(f"{round_.event.name} ({round_.event.slug}): {games} online games")
        for game in out:
            self.stdout.write(f"board {game['board']}: {game['result']}  commitment "
                              f"{game['commitment'][:16]}…  seed {game['seed'][:16]}…  "
                              "deal checked")
