"""Scale-out: two ASGI worker processes on one PostgreSQL and one Redis channel layer.

A press on one worker must reach a spectator connected to the other, and the separate flag
timer process (``run_flag_timer``) must announce a flag to both without anyone pressing. The
workers are real daphne subprocesses on the test database (the test commits its data).
Skipped unless the suite runs with ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (CI's
second pass).
"""

import asyncio
import json
import os
import sys

import pytest
from django.conf import settings
from django.db import connections

from bench.events import create_clock_event
from bench.servers import AsgiServer
from clocks import services
from tests.clocks.servers import wait_for_other_sessions_to_end
from tests.sockets import board_path

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
        or not os.environ.get("REDIS_URL"),
        reason="needs DATABASE_URL=postgres://... and REDIS_URL (the scale-out configuration)",
    ),
    pytest.mark.django_db(transaction=True),
]

websockets = pytest.importorskip("websockets.asyncio.client")


@pytest.fixture
def workers():
    assert "postgresql" in settings.DATABASES["default"]["ENGINE"]
    servers = [AsgiServer(), AsgiServer()]
    try:
        yield [server.wait_listening() for server in servers]
    finally:
        for server in servers:
            server.stop()
        wait_for_other_sessions_to_end()


def start_in_thread(board) -> None:
    try:
        services.start(board, who="test")
    finally:
        connections.close_all()  # or the test database cannot be dropped at the end


async def open_socket(server: AsgiServer, path: str):
    return await websockets.connect(f"ws://127.0.0.1:{server.port}{path}",
                                    origin=f"http://127.0.0.1:{server.port}", open_timeout=20)


async def next_snapshot(ws, timeout: float = 10) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] == "snapshot":
            return message["clock"]


def test_a_press_on_one_worker_reaches_a_spectator_on_the_other(workers):
    round_ = create_clock_event(2, slug="scale-open")
    services.start_round(round_, who="test")
    board = round_.boards.get(number=1)
    first, second = workers

    async def scenario():
        player = await open_socket(first, board_path(board))
        spectator = await open_socket(second, f"/ws/spectate/{board.pk}/")
        before = await next_snapshot(player)
        assert (await next_snapshot(spectator))["version"] == before["version"]
        await player.send(json.dumps({"type": "press", "side": "A", "press": 0}))
        seen = await next_snapshot(spectator)
        assert (seen["running"], seen["press_number"]) == ("B", 1)
        assert (await next_snapshot(player))["version"] == seen["version"]
        await player.close()
        await spectator.close()

    asyncio.run(scenario())


def test_the_flag_timer_process_announces_flags_to_every_worker(workers):
    round_ = create_clock_event(1, slug="flag-open", time_control="1")
    board = round_.boards.get()
    timer = AsgiServer(command=[sys.executable, "manage.py", "run_flag_timer", "--poll", "0.2"])

    async def scenario():
        watchers = [await open_socket(w, f"/ws/spectate/{board.pk}/") for w in workers]
        for ws in watchers:
            await next_snapshot(ws)
        await asyncio.to_thread(start_in_thread, board)
        running = [await next_snapshot(ws) for ws in watchers]
        assert {r["status"] for r in running} == {"running_a"}
        for ws, started in zip(watchers, running, strict=True):
            # A second later nobody has pressed: the flag arrives by itself, dated exactly
            # at the deadline (B may flag a second after, alone at the board).
            flagged = await next_snapshot(ws, timeout=10)
            assert flagged["status"] in ("a_flagged", "both_flagged")
            assert flagged["flags"]["A"] == started["deadline_ms"]
        for ws in watchers:
            await ws.close()

    try:
        asyncio.run(scenario())
    finally:
        timer.stop()
