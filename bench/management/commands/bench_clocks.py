"""``manage.py bench_clocks``: board clocks under load, over real websockets.

Starts ASGI workers (daphne) and the flag timer on this process's database and channel layer,
or targets running servers (``--url``, which must use the same database: the benchmark creates
its event there). Then: an event with ``--boards`` games in a published round, all clocks
started; two player sockets per board (on different workers when there are several): the board's
tablet, which keeps the clock and presses both sides, and a player's phone watching it;
spectator sockets spread over the boards, five arbiter hall views with an arbiter's session.
Each board presses at a human pace (a random 2–6 s per turn) for ``--seconds``, each press as
the board page sends it (with the time the device measured; the server answers each) unless
``--plain-presses``, and each player socket pings as the page does unless ``--no-heartbeat``.
Reported: latency from sending a press to its snapshot arriving at each player and spectator of
the board (p50, p95, p99, max), deliveries lost, how stale the hall views get, and the servers'
CPU. The last lines are ``p50_ms: X``, ``p99_ms: X`` and ``lost: N`` for scripts.
``--largest STEP`` finds the largest hall (as many spectators as boards) held at p99 under
100 ms with nothing lost: from ``--boards`` up by STEP until a run fails, then halving the step
between the last hall held and the first one not held, one run per size.

Only 127.0.0.1 is ever contacted. The event and the server processes come from
``bench/events.py`` and ``bench/servers.py``, which the live-server tests reuse.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench import profile as benchprofile
from bench.events import create_clock_event, delete_event
from bench.figures import cpu_text, latency_text, percentile, reference_ms
from bench.servers import SERVERS, bench_servers, bench_urls
from clocks import rows, services
from tournament.site import worker_gc


def arbiter_cookie(slug: str) -> tuple[str, object]:
    """A session cookie of an arbiter of the event (a user made for the benchmark)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _created = get_user_model().objects.get_or_create(username="bench-arbiter")
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}", user


# --- the load -----------------------------------------------------------------------------


class Load:
    """All client sockets in one event loop; latencies measured against one monotonic clock."""

    def __init__(self, urls: list[str], boards: list[tuple[int, str]], round_id: int,
                 spectators: int, halls: int, cookie: str, gaps: tuple[float, float],
                 heartbeat: bool = True, measured: bool = True) -> None:
        self.urls, self.boards, self.round_id = urls, boards, round_id
        self.heartbeat, self.measured = heartbeat, measured
        # board -> when its running turn began on this device's clock, as the page reads it
        self.turn_began: dict[int, float] = {}
        self.answers: Counter[str] = Counter()  # the "pressed" answers by status
        self.last_message: dict[int, float] = {}  # player socket id -> last message received
        self.silence_before_ping: dict[int, float] = {}  # player socket id -> its page's pace
        self.pings = self.pings_pressing = 0  # pings sent; those by the end of the presses
        self.spectators, self.halls, self.cookie, self.gaps = spectators, halls, cookie, gaps
        self.sent: dict[tuple[int, int], float] = {}  # (board, press number) -> send time
        self.expected: dict[int, int] = {}  # board -> sockets that must see its presses
        self.latencies: list[float] = []
        self.timeline: list[tuple[float, float]] = []  # (press sent, latency) per delivery
        self.received: set[tuple[int, int, int]] = set()  # (socket id, board, press number)
        self.hall_staleness: list[float] = []
        self.latest: dict[int, dict] = {}
        self.stop = asyncio.Event()  # the presses end
        self.quiet = asyncio.Event()  # the heartbeat ends (after ``reconnect``)
        self.errors: list[str] = []
        self.reconnected: dict[str, list[float]] = {}  # ``reconnect``'s timings, by what

    def ws_url(self, index: int, path: str) -> str:
        base = urlparse(self.urls[index % len(self.urls)])
        return f"ws://{base.hostname}:{base.port}{path}"

    async def open(self, index: int, path: str, cookie: str | None = None):
        from websockets.asyncio.client import connect

        base = urlparse(self.urls[index % len(self.urls)])
        headers = {"Cookie": cookie} if cookie else None
        return await connect(self.ws_url(index, path), origin=f"http://{base.netloc}",
                             additional_headers=headers, open_timeout=30, ping_interval=None,
                             max_size=2**22)

    def seen(self, sock_id: int, snap: dict) -> None:
        board, number = snap["board"], snap["press_number"]
        if snap["version"] >= self.latest.get(board, {}).get("version", -1):
            self.latest[board] = snap
            # the board page's model (static/js/clock.js, fromSnapshot): the turn began its
            # elapsed time and the snapshot's age before now (one machine: one wall clock)
            age_ms = max(0.0, time.time() * 1000 - snap["server_time_ms"])
            self.turn_began[board] = time.perf_counter() - (
                snap["turn_elapsed_ms"] + age_ms) / 1000
        key = (sock_id, board, number)
        if (board, number) in self.sent and key not in self.received:
            self.received.add(key)
            sent = self.sent[(board, number)]
            self.latencies.append((time.perf_counter() - sent) * 1000)
            self.timeline.append((sent, self.latencies[-1]))

    async def listen(self, sock_id: int, ws) -> None:
        try:
            async for raw in ws:
                if sock_id in self.last_message:
                    self.last_message[sock_id] = time.perf_counter()
                data = json.loads(raw)
                if data["type"] in ("snapshot", "ignored", "pressed"):
                    self.seen(sock_id, data["clock"])
                    if data["type"] == "pressed":
                        self.answers[data["status"]] += 1
                elif data["type"] == "hall":
                    now = time.perf_counter()
                    for snap in data["boards"]:
                        key = (snap["board"], snap["press_number"])
                        if key in self.sent:
                            self.hall_staleness.append((now - self.sent[key]) * 1000)
                elif data["type"] == "error":
                    self.errors.append(data["message"])
        except Exception as error:  # a dropped socket is reported, not fatal to the run
            if not self.stop.is_set():
                self.errors.append(f"socket {sock_id}: {error!r}")

    def windows(self, seconds: float) -> list[list[float]]:
        """The latencies by the time their press was sent, in windows of ``seconds``."""
        if not self.timeline:
            return []
        first = min(sent for sent, _latency in self.timeline)
        parts: dict[int, list[float]] = {}
        for sent, latency in self.timeline:
            parts.setdefault(int((sent - first) // seconds), []).append(latency)
        return [parts[key] for key in sorted(parts)]

    async def pinger(self, players: dict[int, object]) -> None:
        """The board page's heartbeat (static/js/clock.js): every 250 ms, a ping from each
        player socket that has received nothing for 1.25 s (the tablet, which keeps the clock)
        or 5 s (the phone, which watches), one until something arrives."""
        while not self.quiet.is_set():
            now = time.perf_counter()
            for sock_id, ws in players.items():
                if now - self.last_message[sock_id] >= self.silence_before_ping[sock_id]:
                    self.last_message[sock_id] = now  # one ping until something arrives
                    self.pings += 1
                    with contextlib.suppress(Exception):  # a closed socket: the listener says
                        await ws.send('{"type":"ping"}')
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.quiet.wait(), 0.25)

    async def presser(self, board: int, sockets: dict[str, object], rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, self.gaps[1]))
        while not self.stop.is_set():
            snap = self.latest.get(board)
            if snap and snap.get("running") in ("A", "B") and not snap.get("finished"):
                number = snap["press_number"]
                if (board, number + 1) not in self.sent:
                    now = self.sent[(board, number + 1)] = time.perf_counter()
                    press = {"type": "press", "side": snap["running"], "press": number}
                    if self.measured:  # as the board page sends it: what the device measured
                        press |= {"elapsed_ms": round((now - self.turn_began[board]) * 1000),
                                  "epoch": snap.get("epoch") or 0}
                    try:
                        await sockets["A"].send(json.dumps(press))  # the board's tablet
                    except Exception as error:  # a closed socket: reported, board stops
                        self.errors.append(f"press on board {board}: {error!r}")
                        return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), rng.uniform(*self.gaps))

    async def reconnect(self, paths: dict[int, tuple[int, str]], sockets: dict[int, object],
                        pinged: dict[int, object], tasks: list[asyncio.Task], phase: Phase,
                        seconds: float) -> None:
        """A hall's Wi-Fi back after an outage: every player socket drops at once without a
        closing handshake (as the page drops a silent one), and its page opens a new one under
        the same page id after the page's backoff (static/js/clock.js: 0.5 s, 1 s, 2 s, 4 s,
        each ±25 %), trying again until one opens and the snapshot sent on connect arrives.
        Timed per page: the drop to that snapshot (the clock live again). The servers' CPU is
        taken over ``seconds`` from the drop, so that it holds the closed sockets' reports; the
        new sockets ping as the page's do (``pinged``: the heartbeat's sockets), or the hall
        would read them offline after 3 s."""
        rng = random.Random(11)
        phase.begin(seconds)
        dropped = time.perf_counter()
        for sock_id in paths:
            sockets[sock_id].transport.abort()
        attempts = self.reconnected.setdefault("attempts", [])

        async def come_back(sock_id: int, index: int, path: str) -> None:
            for attempt in range(30):
                delay = min(4.0, 0.5 * 2 ** attempt)
                await asyncio.sleep(delay * rng.uniform(0.75, 1.25))
                try:  # the page gives a handshake 5 s
                    ws = await asyncio.wait_for(self.open(index, path), 5.0)
                    json.loads(await ws.recv())  # the snapshot on connect
                except Exception:
                    continue
                attempts.append(attempt + 1)
                self.reconnected.setdefault("live", []).append(
                    (time.perf_counter() - dropped) * 1000)
                sockets[sock_id] = ws
                self.last_message[sock_id] = time.perf_counter()
                if sock_id in pinged:
                    pinged[sock_id] = ws
                tasks.append(asyncio.create_task(self.listen(sock_id, ws)))
                return
            self.errors.append(f"reconnect {sock_id}: not back after 30 attempts")

        await asyncio.gather(*(come_back(s, i, path) for s, (i, path) in paths.items()))
        await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - dropped)))
        phase.end()

    async def run(self, seconds: float, out, phase: Phase, storm: Phase | None = None,
                  storm_seconds: float = 0) -> dict:
        sockets: dict[int, object] = {}
        tasks, sock_id = [], 0
        players: dict[int, object] = {}  # filled as they open: the page pings from the start
        # without a heartbeat every board socket reads as offline after links.SILENT_MS
        pinged = players if self.heartbeat else {}
        heart = asyncio.create_task(self.pinger(pinged))
        per_board: dict[int, dict[str, object]] = {}
        plan: list[tuple[int, str, str | None, int | None, str | None]] = []
        paths: dict[int, tuple[int, str]] = {}  # player socket -> its worker, its page's path
        # ?device=: the page's device (board.js). The tablets open first and keep the clocks,
        # pressing both sides; a player's phone on each board watches (and pings)
        tablets, phones = [], []
        for i, (board, token) in enumerate(self.boards):
            tablets.append((i, f"/ws/board/{token}/?device=benchtablet{i:09d}", None, board, "A"))
            phones.append((i + 1, f"/ws/board/{token}/?device=benchphone{i:09d}", None, board,
                           "B"))
        plan += tablets + phones
        for s in range(self.spectators):
            board = self.boards[s % len(self.boards)][0]
            plan.append((s, f"/ws/spectate/{board}/", None, board, None))
        for h in range(self.halls):
            plan.append((h, f"/ws/hall/{self.round_id}/", self.cookie, None, None))
        started = time.perf_counter()
        for chunk in range(0, len(plan), 50):
            opened = await asyncio.gather(*(self.open(i, path, cookie)
                                            for i, path, cookie, _b, _s in plan[chunk:chunk + 50]))
            for ws, (i, path, _cookie, board, side) in zip(opened, plan[chunk:chunk + 50],
                                                           strict=True):
                sockets[sock_id] = ws
                if board is not None:
                    self.expected[board] = self.expected.get(board, 0) + 1
                if side is not None:
                    per_board.setdefault(board, {})[side] = ws
                    players[sock_id] = ws
                    self.silence_before_ping[sock_id] = 1.25 if side == "A" else 5.0
                    paths[sock_id] = (i, path)
                    self.last_message[sock_id] = time.perf_counter()
                tasks.append(asyncio.create_task(self.listen(sock_id, ws)))
                sock_id += 1
        out(f"{len(sockets)} sockets open in {time.perf_counter() - started:.1f} s")
        # the client's own collector, tuned as a worker's (tournament/site/worker_gc.py): a
        # full collection of its 3,000 sockets would stall every delivery it is timing
        thresholds = worker_gc.freeze_and_raise()
        await asyncio.sleep(1.0)  # the snapshots on connect
        phase.begin(seconds)
        rng = random.Random(7)
        pressers = [asyncio.create_task(self.presser(b, s, random.Random(rng.random())))
                    for b, s in per_board.items()]
        await asyncio.sleep(seconds)
        self.stop.set()
        await asyncio.gather(*pressers)
        await asyncio.sleep(2.0)  # deliveries still in flight
        phase.end()
        self.pings_pressing = self.pings
        if storm is not None:
            await self.reconnect(paths, sockets, pinged, tasks, storm, storm_seconds)
        self.quiet.set()
        await heart
        for ws in sockets.values():
            await ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        presses = len(self.sent)
        accepted = {key for key in self.sent if key[0] in self.latest
                    and self.latest[key[0]]["press_number"] >= key[1]}
        expected = sum(self.expected[board] for board, _n in accepted)
        received = sum(1 for _s, board, n in self.received if (board, n) in accepted)
        return {"presses": presses, "accepted": len(accepted), "expected": expected,
                "lost": expected - received, "sockets": len(sockets)}


class Phase:
    """The servers' CPU over one phase of the run (the presses, from the first to the last
    delivery; ``--reconnect``'s storm), and its profile when asked for
    (``bench/profile.py``)."""

    def __init__(self, servers: list, profile: Path | None) -> None:
        self.servers, self.profile = servers, profile
        self.cpu: list[float] = [0.0] * len(servers)
        self.wall = 0.0
        self.samplers: list = []
        self.files: list[Path] = []

    def begin(self, seconds: float) -> None:
        self.cpu = [s.cpu_seconds() for s in self.servers]
        self.wall = time.perf_counter()
        if self.profile is not None:
            self.profile.mkdir(parents=True, exist_ok=True)
            for n, server in enumerate(self.servers, 1):
                self.files.append(self.profile / f"worker-{n}.txt")
                self.samplers.append(benchprofile.start(server.process.pid, seconds,
                                                        self.files[-1]))

    def end(self) -> None:
        self.cpu = [s.cpu_seconds() - b for s, b in zip(self.servers, self.cpu, strict=True)]
        self.wall = time.perf_counter() - self.wall
        for sampler in self.samplers:
            _out, err = sampler.communicate(timeout=120)
            if sampler.returncode:
                raise CommandError(f"py-spy failed: {err.decode(errors='replace')[-500:]}")


#: the target for a hall (docs/benchmarks.md): what ``--largest`` holds a size to
LARGEST_P99_MS = 100.0


class Command(BaseCommand):
    help = "Benchmark the board clocks over real websockets (127.0.0.1 only)."

    def add_arguments(self, parser):
        parser.add_argument("--boards", type=int, default=200)
        parser.add_argument("--spectators", type=int, default=200)
        parser.add_argument("--seconds", type=float, default=30)
        parser.add_argument("--halls", type=int, default=5)
        parser.add_argument("--workers", type=int, default=2,
                            help="ASGI workers to start (needs REDIS_URL when more than one)")
        parser.add_argument("--server", choices=sorted(SERVERS), default="daphne",
                            help="the ASGI server of the workers started here")
        parser.add_argument("--url", default="",
                            help="comma-separated running servers (http://127.0.0.1:PORT) "
                                 "sharing this database, instead of starting workers")
        parser.add_argument("--min-gap", type=float, default=2.0)
        parser.add_argument("--max-gap", type=float, default=6.0)
        parser.add_argument("--keep", action="store_true", help="keep the benchmark event")
        parser.add_argument("--no-heartbeat", dest="heartbeat", action="store_false",
                            help="player sockets do not ping as the board page does (each "
                                 "then reads as offline in the hall after 3 s)")
        parser.add_argument("--plain-presses", dest="measured_presses", action="store_false",
                            help="presses without the device's measurement, answered only "
                                 "when ignored (the load before the board page measured them)")
        parser.add_argument("--profile", type=Path, metavar="FOLDER",
                            help="sample each started worker with py-spy over the presses; "
                                 "prints the CPU per press by category and keeps the stacks "
                                 "in FOLDER (bench/profile.py)")
        parser.add_argument("--reconnect", type=float, default=0, metavar="SECONDS",
                            help="after the presses, every player socket drops and its page "
                                 "opens a new one (a hall's Wi-Fi back); prints the handshake "
                                 "times and the servers' CPU over SECONDS from the drop per "
                                 "reconnection (profiled into FOLDER/reconnect with --profile)")
        parser.add_argument("--largest", type=int, default=0, metavar="STEP",
                            help="find the largest hall held at p99 under 100 ms, nothing "
                                 "lost: from --boards up by STEP, then halving the step "
                                 "(spectators as many as boards)")
        parser.add_argument("--press-path", type=int, default=0, metavar="GAMES",
                            help="instead of the socket load: time GAMES games of --presses "
                                 "presses in this process through each press path "
                                 "(clocks/rows.py's SQL, the ORM), alternating")
        parser.add_argument("--presses", type=int, default=100)
        parser.add_argument("--measured", action="store_true",
                            help="with --press-path: presses carry the device's measurement, "
                                 "as the board page sends them (reconciled)")

    def handle(self, *args, **o):
        if o["press_path"]:
            return self.press_path(o["press_path"], o["presses"], o["measured"])
        if o["largest"]:
            return self.largest(o)
        self.run(o)

    def largest(self, o: dict) -> None:
        """The largest hall held (``--largest``), to a quarter of the step: one run per size,
        so a size near the edge may pass in one sitting and fail in the next; the runs are
        printed as they go."""
        def holds(boards: int) -> bool:
            self.stdout.write(f"--- {boards} boards, {boards} spectators")
            p99, lost = self.run(o | {"boards": boards, "spectators": boards})
            ok = p99 < LARGEST_P99_MS and lost == 0
            self.stdout.write(f"--- {boards} boards: p99 {p99:.1f} ms, lost {lost}: "
                              f"{'held' if ok else 'not held'}")
            return ok

        step = o["largest"]
        held, failed = 0, o["boards"]  # the largest size held, the smallest not held
        if holds(o["boards"]):
            held = o["boards"]
            while holds(held + step):
                held += step
            failed = held + step
        else:
            while failed - step > 0 and not holds(failed - step):
                failed -= step
            held = max(0, failed - step)
        while held and failed - held > max(1, step // 4):
            middle = (held + failed) // 2
            if holds(middle):
                held = middle
            else:
                failed = middle
        self.stdout.write(f"largest hall held (p99 under {LARGEST_P99_MS:.0f} ms, nothing lost): "
                          + (f"{held} boards" if held else "none of the sizes tried"))

    def run(self, o: dict) -> tuple[float, int]:
        """One run of the socket load with the options ``o``: its p99 (ms) and lost."""
        urls = bench_urls("bench_clocks", o["url"], o["workers"])
        if o["profile"] and (urls or not benchprofile.available()):
            raise CommandError("--profile needs py-spy (requirements-dev.txt) and workers "
                               "started here (not --url)")
        reference = [reference_ms()]
        slug = f"bench-{int(time.time())}"
        cookie, user = arbiter_cookie(slug)
        round_ = create_clock_event(o["boards"], arbiter=user, slug=slug, time_control="3600",
                                    name="Clock benchmark")
        services.start_round(round_, who="bench", user=user)
        boards = list(round_.boards.values_list("pk", "token"))
        try:
            with bench_servers(urls, o["workers"], o["server"]) as (urls, servers):
                self.stdout.write(
                    f"{o['server'] if servers else 'servers'}: {', '.join(urls)}; database "
                    f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1]}; "
                    f"layer {settings.CHANNEL_LAYERS['default']['BACKEND']}; "
                    f"press path {'SQL' if rows.SQL else 'ORM'}")
                cpu_before = [s.cpu_seconds() for s in servers]
                load = Load(urls, boards, round_.pk, o["spectators"], o["halls"], cookie,
                            (o["min_gap"], o["max_gap"]), o["heartbeat"],
                            o["measured_presses"])
                phase = Phase(servers, o["profile"])
                storm = Phase(servers, o["profile"] and o["profile"] / "reconnect") if (
                    o["reconnect"]) else None
                wall, client_cpu = time.perf_counter(), time.process_time()
                result = asyncio.run(load.run(o["seconds"], self.stdout.write, phase, storm,
                                              o["reconnect"]))
                wall, client_cpu = time.perf_counter() - wall, time.process_time() - client_cpu
                cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
                if load.errors:
                    for server in servers:
                        self.stderr.write(f"log of {server.url}:\n{server.log_tail()}")
        finally:
            if not o["keep"]:
                delete_event(round_)
        reference.append(reference_ms())
        self.report(load, result, cpu, wall, client_cpu, phase, reference)
        if storm is not None:
            self.report_reconnect(load, storm)
        return percentile(load.latencies, 99), result["lost"]

    def press_path(self, games: int, presses: int, measured: bool = False) -> None:
        """The press path alone: ``services.press`` (lock, core, save, log, publish) timed in
        this process, CPU and wall per press, through rows.py's statements and through the ORM
        (``rows.SQL``), game by game on fresh boards, the order alternating. CPU time is the
        figure that another load on the same cores disturbs least. ``measured``: every press
        carries what a device on this machine measured (the time since the previous press, as
        the board page sends it: each is reconciled, by the few ms it took to arrive)."""
        round_ = create_clock_event(2 * games, slug=f"bench-path-{int(time.time())}",
                                    time_control="3600", name="Clock benchmark")
        services.start_round(round_, who="bench")
        boards = list(round_.boards.all())
        timings: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        saved = rows.SQL
        try:
            for game in range(games):
                for sql in (True, False) if game % 2 == 0 else (False, True):
                    rows.SQL = sql
                    board = boards.pop()
                    cpu, wall = time.process_time(), time.perf_counter()
                    turn_began = wall
                    for number in range(presses):
                        pressed = time.perf_counter()
                        device = services.Measured(int((pressed - turn_began) * 1000), 1)
                        turn_began = pressed
                        # the first turn began at the round's start, before this device's time
                        services.press(board, "AB"[number % 2], number, who="bench",
                                       measured=device if measured and number else None)
                    timings[sql].append(((time.process_time() - cpu) / presses * 1000,
                                         (time.perf_counter() - wall) / presses * 1000))
        finally:
            rows.SQL = saved
            delete_event(round_)
        for sql, label in ((True, "SQL (clocks/rows.py)"), (False, "ORM")):
            cpu = statistics.median(c for c, _w in timings[sql])
            wall = statistics.median(w for _c, w in timings[sql])
            self.stdout.write(f"{label}: median per press over {games} games of {presses}: "
                              f"CPU {cpu:.2f} ms, wall {wall:.2f} ms")
        self.stdout.write(f"presses {'measured' if measured else 'plain'}; "
                          f"load average: {os.getloadavg()[0]:.1f}")

    def report(self, load: Load, result: dict, cpu: list[float], wall: float,
               client_cpu: float, phase: Phase, reference: list[float]) -> None:
        lat, hall = load.latencies, load.hall_staleness
        w = self.stdout.write
        w(f"sockets: {result['sockets']}, presses sent: {result['presses']}, accepted: "
          f"{result['accepted']}, deliveries expected: {result['expected']}")
        w(f"press -> players/spectators latency ms: {latency_text(lat)}")
        w("p99 ms by 5 s of presses: " + " ".join(
            f"{percentile(part, 99):.0f}" for part in load.windows(5.0)))
        if load.heartbeat:
            w(f"heartbeat pings: {load.pings_pressing / max(1.0, phase.wall):.0f} a second")
        if load.measured:
            w("presses measured by the device, answered: " + (", ".join(
                f"{status} {n}" for status, n in sorted(load.answers.items())) or "none"))
        else:
            w("presses plain (no measurement, no answer)")
        if hall:
            w(f"hall staleness ms (press -> hall view): p50 {percentile(hall, 50):.0f}, "
              f"p99 {percentile(hall, 99):.0f}, max {max(hall):.0f}, mean "
              f"{statistics.fmean(hall):.0f}")
        if cpu:
            w(cpu_text(cpu, wall))
            # CPU time barely depends on what else runs on the cores, unlike the latencies
            accepted = max(1, result["accepted"])
            w(f"server CPU per accepted press, whole run (socket handshakes included): "
              f"{sum(cpu) / accepted * 1000:.1f} ms")
            w(f"presses: {result['accepted'] / phase.wall:.0f} a second; "
              + cpu_text(phase.cpu, phase.wall).replace("server CPU", "server CPU then"))
            w(f"server CPU per accepted press: {sum(phase.cpu) / accepted * 1000:.2f} ms")
        if phase.files:
            w("where it goes, ms per press (py-spy, both workers):")
            for name, ms, share in benchprofile.breakdown(phase.files, result["accepted"]):
                w(f"  {ms:6.2f}  {share:5.1%}  {name}")
            w(f"stacks: {', '.join(str(f) for f in phase.files)}")
        # the load runs on the same cores: a saturated client would inflate the latencies
        w(f"benchmark client CPU: {client_cpu / wall * 100:.0f}% of one core")
        w(f"machine reference (bench.figures.reference_ms, lower is faster): "
          f"{reference[0]:.0f} ms before, {reference[1]:.0f} ms after")
        if load.errors:
            w(f"errors: {len(load.errors)} (first: {load.errors[0]})")
        w(f"p50_ms: {percentile(lat, 50):.1f}")
        w(f"p99_ms: {percentile(lat, 99):.1f}")
        w(f"lost: {result['lost']}")

    def report_reconnect(self, load: Load, storm: Phase) -> None:
        w = self.stdout.write
        done = load.reconnected.get("live", [])
        w(f"reconnect: {len(done)} player sockets dropped and opened again")
        if done:
            tries = Counter(load.reconnected["attempts"])
            w("  attempts needed: " + ", ".join(f"{n}: {tries[n]}" for n in sorted(tries)))
            w(f"  drop -> snapshot on the new socket ms: {latency_text(done)}")
            w("  " + cpu_text(storm.cpu, storm.wall))
            if load.heartbeat:
                w(f"  heartbeat pings meanwhile: "
                  f"{(load.pings - load.pings_pressing) / storm.wall:.0f} a second")
            w(f"  server CPU per reconnection: {sum(storm.cpu) / len(done) * 1000:.2f} ms")
        if storm.files:
            w("  where it goes, ms per reconnection (py-spy, both workers):")
            for name, ms, share in benchprofile.breakdown(storm.files, len(done)):
                w(f"    {ms:6.2f}  {share:5.1%}  {name}")
            w(f"  stacks: {', '.join(str(f) for f in storm.files)}")
