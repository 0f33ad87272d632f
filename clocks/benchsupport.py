"""What ``bench_clocks`` sets up, and the live-server tests reuse: a benchmark event with clocks,
and daphne (or flag timer) subprocesses on this process's database and channel layer.

It lives in the product, not in tests/, because the benchmark command needs it and a
management command must not import from the test suite; the tests import it from here.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings
from django.core.management.base import CommandError
from django.db import transaction

from tournament import services as event_services
from tournament.models import Round
from tournament.site.daphne_command import APPLICATION, daphne_arguments

BASE_DIR = Path(__file__).resolve().parents[1]


@transaction.atomic
def create_clock_event(boards: int, *, arbiter=None, slug: str | None = None,
                       time_control: str = "600", name: str = "Clock test") -> Round:
    """An event with ``boards`` games in one published round, made through the event services."""
    event = event_services.create_event(name=name, slug=slug, arbiter=arbiter,
                                        time_control=time_control, rounds_planned=1)
    players = [event_services.add_player(event, name=f"Player {n:04d}")
               for n in range(1, 2 * boards + 1)]
    round_ = event_services.start_manual_round(event, reason="clock benchmark")
    for number in range(1, boards + 1):
        first, second = players[2 * number - 2], players[2 * number - 1]
        event_services.edit_pairing(round_, first_id=first.pk, second_id=second.pk,
                                    board_number=number, reason="clock benchmark")
    return event_services.publish_round(round_)


def delete_event(round_: Round) -> None:
    """Remove a benchmark's event (boards protect their players: rounds go first)."""
    with transaction.atomic():
        Round.objects.filter(event_id=round_.event_id).delete()
        round_.event.delete()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


# --- server processes ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(db: dict) -> str:
    """A ``DATABASE_URL`` for the database ``db`` (a ``DATABASES`` entry) names."""
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def _daphne(port: int, application: str = APPLICATION) -> list[str]:
    # as docs/deployment.md starts it
    return [sys.executable, "-m", "daphne", *daphne_arguments("127.0.0.1", port)[:-1],
            application]


def _uvicorn(port: int, application: str = APPLICATION) -> list[str]:
    return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port),
            "--ws-max-size", str(settings.WEBSOCKET_SERVER_LIMIT),
            "--no-access-log", "--log-level", "warning", application]


SERVERS = {"daphne": _daphne, "uvicorn": _uvicorn}  # the ASGI servers a benchmark can start


class AsgiServer:
    """An ASGI server (daphne or uvicorn) or flag timer subprocess on this process's database
    and channel layer; ``application`` another ASGI application than the project's (a test's
    wrapper of it)."""

    def __init__(self, *, port: int | None = None, flag_timer: bool = False,
                 command: list[str] | None = None, extra_env: dict | None = None,
                 server: str = "daphne", application: str = APPLICATION) -> None:
        self.port = port if port is not None else free_port()
        env = {**os.environ, "DATABASE_URL": database_url(settings.DATABASES["default"]),
               "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                        settings.SETTINGS_MODULE),
               "FLAG_TIMER": "on" if flag_timer else "off", **(extra_env or {})}
        env.setdefault("SECRET_KEY", settings.SECRET_KEY)
        self.command = command or SERVERS[server](self.port, application)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open for the process's life)
        self.process = subprocess.Popen(self.command, cwd=BASE_DIR, env=env,
                                        stdout=subprocess.DEVNULL, stderr=self.log)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_listening(self, timeout: float = 30) -> AsgiServer:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_tail()}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"server on port {self.port} did not start within {timeout} s")

    def log_tail(self, size: int = 3000) -> str:
        """The end of the process's stderr (its log)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-size:]

    def cpu_seconds(self) -> float:
        """User + system CPU time of the process so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


# --- what the socket benchmarks share ------------------------------------------------------


def bench_urls(command: str, url_option: str, workers: int) -> list[str]:
    """The ``--url`` servers of a socket benchmark (empty: it starts its own), after checking
    that ``websockets`` is installed, that only 127.0.0.1 is targeted and that several
    workers have a shared channel layer; a ``CommandError`` otherwise."""
    try:
        import websockets  # noqa: F401
    except ImportError as error:
        raise CommandError(f"{command} needs `websockets` (requirements-dev.txt)") from error
    urls = [u.strip() for u in url_option.split(",") if u.strip()]
    for url in urls:
        if urlparse(url).hostname not in ("127.0.0.1", "localhost"):
            raise CommandError(f"only servers on 127.0.0.1 may be benchmarked, not {url}")
    if not urls and workers > 1 and not os.environ.get("REDIS_URL"):
        raise CommandError("several workers need REDIS_URL (a shared channel layer)")
    return urls


@contextmanager
def bench_servers(urls: list[str], workers: int, server: str = "daphne",
                  ) -> Iterator[tuple[list[str], list[AsgiServer]]]:
    """The servers to load: ``urls`` as given, or ``workers`` ASGI server processes
    (``server``: daphne or uvicorn) and the flag timer started here (stopped on the way out).
    Yields the URLs and the started workers."""
    servers = [] if urls else [AsgiServer(server=server) for _ in range(workers)]
    timer = None if urls else AsgiServer(command=[sys.executable, "manage.py", "run_flag_timer"])
    try:
        for server in servers:
            server.wait_listening()
        yield urls or [s.url for s in servers], servers
    finally:
        for server in [*servers, *([timer] if timer else [])]:
            server.stop()


def latency_text(values: list[float]) -> str:
    """``p50 …, p95 …, p99 …, max …`` of latencies in ms, as the benchmarks print them."""
    return (f"p50 {percentile(values, 50):.1f}, p95 {percentile(values, 95):.1f}, "
            f"p99 {percentile(values, 99):.1f}, max {max(values, default=float('nan')):.1f}")


def cpu_text(cpu: list[float], wall: float) -> str:
    """Each worker's CPU as a share of one core over ``wall`` seconds."""
    return ("server CPU: " + ", ".join(f"worker {i + 1} {c / wall * 100:.0f}%"
                                       for i, c in enumerate(cpu))
            + f" of one core over {wall:.0f} s")


REFERENCE_SNAPSHOT = {
    "version": 1, "server_time_ms": 1000, "status": "running_a", "running": "A", "turn": "A",
    "paused": False, "press_number": 0, "epoch": 1, "turn_elapsed_ms": 1000,
    "compensated_ms": 0, "remaining_ms": {"A": 599000, "B": 600000}, "delay_left_ms": 0,
    "deadline_ms": 600000, "flags": {"A": None, "B": None}, "finished": None,
    "time_control": "600",
}


def reference_ms() -> float:
    """The CPU time of one fixed piece of pure Python (additions and a clock snapshot encoded
    to JSON, the interpreter's everyday work), fastest of three tries: how fast this machine
    ran when the benchmark did. Machines of one kind, and one machine from one minute to the
    next, differ by up to three times (docs/benchmarks.md), and every CPU figure with them, so
    the benchmarks print it beside their figures. Its snapshot is written out as the clock
    wrote it in December 2026: a reference that followed the clock's code would move when the
    snapshot grew, and figures of two versions would no longer compare."""
    snapshot = REFERENCE_SNAPSHOT
    tries = []
    for _try in range(3):
        began, total = time.process_time(), 0
        for n in range(200_000):
            total += n
        for _n in range(5_000):
            json.dumps(snapshot)
        tries.append((time.process_time() - began) * 1000)
    return min(tries)
