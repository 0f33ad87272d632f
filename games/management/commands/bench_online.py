"""``manage.py bench_online --games N --seconds S [--workers W]``: online games under load.

Like ``bench_clocks``: starts ASGI workers (daphne) and the flag timer on this process's
database and channel layer (several workers need ``REDIS_URL``), or targets running servers
(``--url``). An event with ``--games`` boards in one online round, its clocks started; two bot
seats per game (``games/botclient.py``'s choice of move, on different workers when there are
several) and ``--spectators`` spectator sockets per game. Each seat thinks a random
``--min-think``–``--max-think`` seconds before its move. Reported: latency from sending a
move to its view arriving at the opponent and at each spectator (p50, p95, p99, max),
deliveries lost, games finished, the servers' CPU; the last lines are ``p50_ms:``,
``p99_ms:``, ``lost:`` and ``finished:`` for scripts. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from clocks.benchsupport import (
    bench_servers,
    bench_urls,
    cpu_text,
    create_clock_event,
    delete_event,
    latency_text,
    percentile,
)
from games import online
from games.botclient import open_socket
from games.dealt.bot import choose_move


class OnlineLoad:
    """Every socket in one event loop; latencies against one monotonic clock."""

    def __init__(self, urls: list[str], games: list[tuple[int, str, str]], spectators: int,
                 think: tuple[float, float]) -> None:
        self.urls, self.games, self.spectators, self.think = urls, games, spectators, think
        self.sent: dict[tuple[int, int], tuple[float, str]] = {}  # (board, move) -> time, seat
        self.received: set[tuple[int, int, int]] = set()  # (socket, board, move)
        self.latencies: list[float] = []
        self.finished: set[int] = set()
        self.errors: list[str] = []
        self.stop = asyncio.Event()

    def seen(self, sock: int, board: int, seat: str | None, view: dict) -> None:
        key = (board, view["number"])
        sent = self.sent.get(key)
        if view["over"]:
            self.finished.add(board)
        if sent is not None and sent[1] != seat and (sock, *key) not in self.received:
            self.received.add((sock, *key))
            self.latencies.append((time.perf_counter() - sent[0]) * 1000)

    async def socket(self, sock: int, url: str, path: str, board: int, seat: str | None,
                     rng: random.Random) -> None:
        try:
            ws = await open_socket(url, path)
        except Exception as error:
            self.errors.append(f"socket {sock}: {error!r}")
            return
        acted = -1
        try:
            async for raw in ws:
                data = json.loads(raw)
                if data["type"] in ("error", "refused"):
                    self.errors.append(f"board {board} seat {seat}: {data['message']}")
                if data["type"] not in ("state", "refused"):
                    continue
                view = data["view"]
                self.seen(sock, board, seat, view)
                if seat and view["to_act"] == seat and view["number"] > acted \
                        and not self.stop.is_set():
                    acted = view["number"]
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.stop.wait(), rng.uniform(*self.think))
                    if self.stop.is_set():
                        continue
                    move = choose_move(view, rng)
                    self.sent[(board, view["number"] + 1)] = (time.perf_counter(), seat)
                    await ws.send(json.dumps({"type": "move", **{
                        k: v for k, v in move.items() if k != "seat"}}))
        except Exception as error:  # a dropped socket is reported, not fatal to the run
            if not self.stop.is_set():
                self.errors.append(f"socket {sock}: {error!r}")
        finally:
            await ws.close()

    async def run(self, seconds: float, out) -> dict:
        plan = []
        for i, (board, token_a, token_b) in enumerate(self.games):
            plan += [(i, f"/ws/play/{token_a}/", board, "A"),
                     (i + 1, f"/ws/play/{token_b}/", board, "B")]
            plan += [(i + 2 + s, f"/ws/watch/{board}/", board, None)
                     for s in range(self.spectators)]
        rng = random.Random(7)
        tasks = [asyncio.create_task(self.socket(
            sock, self.urls[worker % len(self.urls)], path, board, seat,
            random.Random(rng.random()))) for sock, (worker, path, board, seat) in enumerate(plan)]
        out(f"{len(plan)} sockets for {len(self.games)} games")
        await asyncio.sleep(seconds)
        self.stop.set()
        await asyncio.sleep(2.0)  # deliveries still in flight
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        expected = len(self.sent) * (1 + self.spectators)
        return {"moves": len(self.sent), "expected": expected, "sockets": len(plan),
                "lost": expected - len(self.received)}


class Command(BaseCommand):
    help = "Benchmark online games over real websockets (127.0.0.1 only)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=500)
        parser.add_argument("--seconds", type=float, default=30)
        parser.add_argument("--spectators", type=int, default=1, help="per game")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--url", default="", help="running servers, comma-separated")
        parser.add_argument("--min-think", type=float, default=2.0)
        parser.add_argument("--max-think", type=float, default=6.0)
        parser.add_argument("--keep", action="store_true", help="keep the benchmark event")

    def handle(self, *args, **o):
        urls = bench_urls("bench_online", o["url"], o["workers"])
        round_ = create_clock_event(o["games"], slug=f"bench-online-{int(time.time())}",
                                    time_control="3600", name="Online benchmark")
        games = online.mark_online(round_)
        online.start_round(round_, who="bench")
        tokens = [(g.board_id, g.token_a, g.token_b) for g in games]
        try:
            with bench_servers(urls, o["workers"]) as (urls, servers):
                self.stdout.write(
                    f"servers: {', '.join(urls)}; database "
                    f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1]}; "
                    f"layer {settings.CHANNEL_LAYERS['default']['BACKEND']}")
                cpu_before = [s.cpu_seconds() for s in servers]
                load = OnlineLoad(urls, tokens, o["spectators"],
                                  (o["min_think"], o["max_think"]))
                wall = time.perf_counter()
                result = asyncio.run(load.run(o["seconds"], self.stdout.write))
                wall = time.perf_counter() - wall
                cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
        finally:
            if not o["keep"]:
                delete_event(round_)
        self.report(load, result, cpu, wall)

    def report(self, load: OnlineLoad, result: dict, cpu: list[float], wall: float) -> None:
        lat, w = load.latencies, self.stdout.write
        w(f"sockets: {result['sockets']}, moves sent: {result['moves']}, deliveries expected: "
          f"{result['expected']}")
        w(f"move -> opponent/spectators latency ms: {latency_text(lat)}")
        if cpu:
            w(cpu_text(cpu, wall))
            w(f"server CPU per move: {sum(cpu) / max(1, result['moves']) * 1000:.1f} ms")
        if load.errors:
            w(f"errors: {len(load.errors)} (first: {load.errors[0]})")
        w(f"p50_ms: {percentile(lat, 50):.1f}")
        w(f"p99_ms: {percentile(lat, 99):.1f}")
        w(f"lost: {result['lost']}")
        w(f"finished: {len(load.finished)}")
