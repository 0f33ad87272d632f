"""Where a worker runs its presses: on PostgreSQL, a few threads of their own.

Channels runs every database call of a process on one thread (``database_sync_to_async``), so
the presses of a whole hall wait in one queue, and each of them waits there through its own
round trips to the database as well. A press locks only its own clock row (``clocks.rows``),
so presses of different boards need not wait for each other: on PostgreSQL they run on
``PRESS_THREADS`` threads, each with its own connection, and the network waits of one overlap
the work of the others. Two presses of one board still take turns on the row's lock, in the
order they reach it, and the clients order snapshots by version (docs/clock.md).

Each call also skips what ``database_sync_to_async`` does around every call for request-sized
work: closing old connections, which re-arms Django's health check (``CONN_HEALTH_CHECKS``), a
``SELECT 1`` round trip before every press. Here a connection is checked when its last use
raised an error (Django's own ``close_if_unusable_or_obsolete``, which then tests it) and
replaced when it reaches ``CONN_MAX_AGE``, as Django would; a press that meets a connection the
database dropped fails once with an error, and the board page sends it again (presses are
idempotent by their number).

On SQLite (the embedded default) nothing changes: SQLite has one writer at a time, so presses
go through ``database_sync_to_async`` on the shared thread as before.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.db import connection, connections

PRESS_THREADS = 4
T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=PRESS_THREADS, thread_name_prefix="press")
    return _executor


def close_connections() -> None:
    """Close every press thread's database connection and the threads (a test's teardown:
    PostgreSQL drops no database that a session still uses). Each thread closes its own, as
    Django requires: the threads all wait at one barrier, so each takes exactly one call."""
    global _executor
    executor, _executor = _executor, None
    if executor is None:
        return
    barrier = threading.Barrier(PRESS_THREADS)

    def close() -> None:
        barrier.wait(timeout=10)
        connections.close_all()

    for future in [executor.submit(close) for _n in range(PRESS_THREADS)]:
        future.result()
    executor.shutdown()


def _ready_connection() -> None:
    """This thread's connection, closed first if its last use failed or it is too old."""
    if connection.connection is None:
        return
    if connection.errors_occurred or (connection.close_at is not None
                                      and time.monotonic() >= connection.close_at):
        connection.close_if_unusable_or_obsolete()


def _call(func: Callable[..., T], *args: Any) -> T:
    _ready_connection()
    return func(*args)


def concurrent() -> bool:
    """Whether presses run on their own threads (PostgreSQL), not the shared database thread."""
    return connection.vendor == "postgresql"


async def run(func: Callable[..., T], *args: Any) -> T:
    """Run ``func(*args)`` (a press: one short transaction on one clock row) off the event
    loop: on the press threads on PostgreSQL, on the shared database thread elsewhere."""
    if not concurrent():
        return await database_sync_to_async(func)(*args)
    # the caller's context variables go along (the server's loop the press publishes to, the
    # active language), as ``sync_to_async`` would carry them, for far less of its machinery
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_pool(), context.run, _call, func,
                                                            *args)
