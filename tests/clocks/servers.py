"""Helpers of the live-server tests (tests/clocks/test_scaleout.py, tests/browser/): what only
a test needs after stopping the server processes of ``bench.servers``."""

import time

from django.db import connection


def wait_for_other_sessions_to_end(timeout: float = 10) -> None:
    """After stopping servers: PostgreSQL ends their sessions a moment later, and a test
    database cannot be dropped before (SQLite has no sessions to wait for)."""
    if connection.vendor != "postgresql":
        return
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND pid <> pg_backend_pid()")
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.1)
