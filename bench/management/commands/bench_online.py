"""``manage.py bench_online --games N --seconds S [--workers W] [--clients C]``: online games
under load.

Like ``bench_clocks``: starts ASGI workers (daphne, or uvicorn with ``--server``) and the flag
timer on this process's database and channel layer (several workers need ``REDIS_URL``), or
targets running servers (``--url``). An event with ``--games`` boards in one online round, its
clocks started; two bot seats per game (``games/botclient.py``'s choice of move, on different
workers when there are several) and ``--spectators`` spectator sockets per game.

The client is ``--clients`` processes, each with its own event loop and a share of the games
(every socket of a game in the same process, so a latency is measured on one clock), so that
the figures measure the servers rather than one client process's loop. First every socket
connects, ``--ramp`` handshakes at a time per process, as players arrive at a venue; the
measurement starts when all are in: each seat thinks a random ``--min-think``–``--max-think``
seconds before its move. The default, 10–30 s, is the pace of a real game with ten minutes a
side: about nineteen turns each, most of the clock used (a bot's game has about 38 moves), so
500 games make about 25 moves a second; 2–6 s is a stress load five times that. Reported:
latency from sending a move to its view arriving at the opponent and at each spectator (p50,
p95, p99, max), deliveries lost, games finished, the servers' CPU over the measurement; the
last lines are ``p50_ms:``, ``p99_ms:``, ``lost:`` and ``finished:`` for scripts. Only
127.0.0.1 is contacted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections

from bench.events import create_clock_event, delete_event
from bench.figures import cpu_text, latency_text, percentile
from bench.servers import SERVERS, bench_servers, bench_urls
from games.botclient import open_socket
from games.dealt.bot import choose_move
from games.online import play as online


@dataclass(frozen=True)
class Plan:
    """One client process's share: its games' sockets and how they behave."""

    urls: list[str]
    games: list[tuple[int, str, str]]  # (board, token A, token B)
    first_socket: int  # sockets are numbered across processes (seat sockets alternate workers)
    spectators: int
    think: tuple[float, float]
    ramp: int
    seed: int


@dataclass
class Tally:
    """What one client process measured (sent back to the command through a queue)."""

    moves: int = 0
    expected: int = 0
    received: int = 0
    sockets: int = 0
    connect_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class OnlineLoad:
    """One client process's sockets in one event loop; latencies against one monotonic clock."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.sent: dict[tuple[int, int], tuple[float, str]] = {}  # (board, move) -> time, seat
        self.received: set[tuple[int, int, int]] = set()  # (socket, board, move)
        self.tally = Tally()
        self.finished: set[int] = set()
        self.go = asyncio.Event()
        self.stop = asyncio.Event()

    def seen(self, sock: int, board: int, seat: str | None, view: dict) -> None:
        key = (board, view["number"])
        sent = self.sent.get(key)
        if view["over"]:
            self.finished.add(board)
        if sent is not None and sent[1] != seat and (sock, *key) not in self.received:
            self.received.add((sock, *key))
            self.tally.latencies.append((time.perf_counter() - sent[0]) * 1000)

    def sockets(self) -> list[tuple[int, str, str, int, str | None]]:
        """(number, url, path, board, seat) of every socket of this process."""
        plan, out = self.plan, []
        number = plan.first_socket
        for board, token_a, token_b in plan.games:
            paths = [(f"/ws/play/{token_a}/", "A"), (f"/ws/play/{token_b}/", "B")]
            paths += [(f"/ws/watch/{board}/", None)] * plan.spectators
            for i, (path, seat) in enumerate(paths):
                out.append((number + i, plan.urls[(number + i) % len(plan.urls)], path, board,
                            seat))
            number += len(paths)
        return out

    async def socket(self, sock: int, url: str, path: str, board: int, seat: str | None,
                     rng: random.Random, gate: asyncio.Semaphore, ready: list) -> None:
        try:
            async with gate:
                ws = await open_socket(url, path)
                first = json.loads(await ws.recv())  # the view on connect
        except Exception as error:
            self.tally.errors.append(f"socket {sock}: {error!r}")
            ready.append(False)
            return
        ready.append(True)
        try:
            await self.go.wait()
            if first.get("type") == "state":
                await self.act(ws, board, seat, first["view"], rng)
            async for raw in ws:
                data = json.loads(raw)
                if data["type"] in ("error", "refused"):
                    self.tally.errors.append(f"board {board} seat {seat}: {data['message']}")
                if data["type"] not in ("state", "refused"):
                    continue
                view = data["view"]
                self.seen(sock, board, seat, view)
                await self.act(ws, board, seat, view, rng)
        except Exception as error:  # a dropped socket is reported, not fatal to the run
            if not self.stop.is_set():
                self.tally.errors.append(f"socket {sock}: {error!r}")
        finally:
            await ws.close()

    async def act(self, ws, board: int, seat: str | None, view: dict,
                  rng: random.Random) -> None:
        """A seat to act thinks, then moves (once per position)."""
        if not seat or view["to_act"] != seat or view["over"] or self.stop.is_set() \
                or (board, view["number"] + 1) in self.sent:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), rng.uniform(*self.plan.think))
        if self.stop.is_set():
            return
        move = choose_move(view, rng)
        self.sent[(board, view["number"] + 1)] = (time.perf_counter(), seat)
        await ws.send(json.dumps({"type": "move", **{
            k: v for k, v in move.items() if k != "seat"}}))

    async def run(self, connected, go, seconds: float) -> Tally:
        """Connect every socket, report ``connected``, wait for ``go`` (both
        ``multiprocessing`` events), then play for ``seconds``."""
        plan = self.sockets()
        rng = random.Random(self.plan.seed)
        gate, ready = asyncio.Semaphore(self.plan.ramp), []
        started = time.perf_counter()
        tasks = [asyncio.create_task(self.socket(
            sock, url, path, board, seat, random.Random(rng.random()), gate, ready))
            for sock, url, path, board, seat in plan]
        while len(ready) < len(tasks):
            await asyncio.sleep(0.05)
        self.tally.connect_s = time.perf_counter() - started
        connected.set()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        self.go.set()
        await asyncio.sleep(seconds)
        self.stop.set()
        await asyncio.sleep(2.0)  # deliveries still in flight
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        spectators = self.plan.spectators
        self.tally.moves = len(self.sent)
        self.tally.expected = len(self.sent) * (1 + spectators)
        self.tally.received = len(self.received)
        self.tally.sockets = len(plan)
        self.tally.finished = sorted(self.finished)
        return self.tally


def client_process(plan: Plan, seconds: float, connected, go, results) -> None:
    """One client process (forked): play ``plan`` and put its ``Tally`` on ``results``."""
    results.put(asyncio.run(OnlineLoad(plan).run(connected, go, seconds)))


class Command(BaseCommand):
    help = "Benchmark online games over real websockets (127.0.0.1 only)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=500)
        parser.add_argument("--seconds", type=float, default=30)
        parser.add_argument("--spectators", type=int, default=1, help="per game")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--clients", type=int, default=2, help="client processes")
        parser.add_argument("--ramp", type=int, default=25,
                            help="handshakes in flight per client process while connecting")
        parser.add_argument("--server", choices=sorted(SERVERS), default="daphne",
                            help="the ASGI server of the workers started here")
        parser.add_argument("--url", default="", help="running servers, comma-separated")
        parser.add_argument("--min-think", type=float, default=10.0)
        parser.add_argument("--max-think", type=float, default=30.0)
        parser.add_argument("--keep", action="store_true", help="keep the benchmark event")

    def handle(self, *args, **o):
        urls = bench_urls("bench_online", o["url"], o["workers"])
        round_ = create_clock_event(o["games"], slug=f"bench-online-{int(time.time())}",
                                    time_control="3600", name="Online benchmark")
        games = online.mark_online(round_)
        online.start_round(round_, who="bench")
        tokens = [(g.board_id, g.token_a, g.token_b) for g in games]
        try:
            with bench_servers(urls, o["workers"], o["server"]) as (urls, servers):
                self.stdout.write(
                    f"servers: {', '.join(urls)}; database "
                    f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1]}; "
                    f"layer {settings.CHANNEL_LAYERS['default']['BACKEND']}; {o['server']}; "
                    f"{o['clients']} client processes")
                tallies, cpu, wall = self.measure(urls, servers, tokens, o)
        finally:
            if not o["keep"]:
                delete_event(round_)
        self.report(tallies, cpu, wall)

    def measure(self, urls, servers, tokens, o) -> tuple[list[Tally], list[float], float]:
        """Fork the client processes, let them connect, then measure ``--seconds`` of play."""
        per_socket = 2 + o["spectators"]
        clients = max(1, min(o["clients"], len(tokens)))
        shares = [tokens[i::clients] for i in range(clients)]
        context = multiprocessing.get_context("fork")
        connections.close_all()  # the children must not share this process's connection
        go, results = context.Event(), context.Queue()
        processes, ready = [], []
        first = 0
        for i, share in enumerate(shares):
            plan = Plan(urls, share, first, o["spectators"], (o["min_think"], o["max_think"]),
                        o["ramp"], seed=7 + i)
            first += len(share) * per_socket
            connected = context.Event()
            process = context.Process(target=client_process,
                                      args=(plan, o["seconds"], connected, go, results))
            process.start()
            processes.append(process)
            ready.append(connected)
        for connected in ready:
            connected.wait()
        self.stdout.write(f"{first} sockets for {len(tokens)} games connected")
        cpu_before = [s.cpu_seconds() for s in servers]
        wall = time.perf_counter()
        go.set()
        tallies = [results.get() for _p in processes]
        wall = time.perf_counter() - wall
        cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
        for process in processes:
            process.join()
        return tallies, cpu, wall

    def report(self, tallies: list[Tally], cpu: list[float], wall: float) -> None:
        w = self.stdout.write
        lat = [x for t in tallies for x in t.latencies]
        moves = sum(t.moves for t in tallies)
        expected = sum(t.expected for t in tallies)
        lost = expected - sum(t.received for t in tallies)
        errors = [e for t in tallies for e in t.errors]
        w(f"sockets: {sum(t.sockets for t in tallies)} (connected in "
          f"{max(t.connect_s for t in tallies):.1f} s), moves sent: {moves}, "
          f"deliveries expected: {expected}")
        w(f"move -> opponent/spectators latency ms: {latency_text(lat)}")
        if cpu:
            w(cpu_text(cpu, wall))
            w(f"server CPU per move: {sum(cpu) / max(1, moves) * 1000:.1f} ms")
        if errors:
            w(f"errors: {len(errors)} (first: {errors[0]})")
        w(f"p50_ms: {percentile(lat, 50):.1f}")
        w(f"p99_ms: {percentile(lat, 99):.1f}")
        w(f"lost: {lost}")
        w(f"finished: {len({b for t in tallies for b in t.finished})}")
