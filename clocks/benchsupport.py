"""What ``bench_clocks`` sets up, and the live-server tests reuse: a benchmark event with clocks,
and daphne (or flag timer) subprocesses on this process's database and channel layer.

It lives in the product, not in tests/, because the benchmark command needs it and a
management command must not import from the test suite; the tests import it from here.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.db import transaction

from tournament import services as event_services
from tournament.models import Round

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


class AsgiServer:
    """A daphne (or flag timer) subprocess on this process's database and channel layer."""

    def __init__(self, *, port: int | None = None, flag_timer: bool = False,
                 command: list[str] | None = None, extra_env: dict | None = None) -> None:
        self.port = port if port is not None else free_port()
        env = {**os.environ, "DATABASE_URL": database_url(settings.DATABASES["default"]),
               "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                        settings.SETTINGS_MODULE),
               "FLAG_TIMER": "on" if flag_timer else "off", **(extra_env or {})}
        env.setdefault("SECRET_KEY", settings.SECRET_KEY)
        self.command = command or [sys.executable, "-m", "daphne", "-b", "127.0.0.1",
                                   "-p", str(self.port), "tournament.asgi:application"]
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
