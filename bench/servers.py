"""The one way the benchmarks (and the live-server tests) start servers: daphne or uvicorn,
and the flag timer, as subprocesses on this process's database and channel layer, and the
checks a socket benchmark makes before it loads them.

It lives in the benchmarks' app, not in tests/, because the benchmark commands need it and a
management command must not import from the test suite; the tests import it from here.
"""

from __future__ import annotations

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

from tournament.site.daphne_command import APPLICATION, daphne_arguments

BASE_DIR = Path(__file__).resolve().parents[1]


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
