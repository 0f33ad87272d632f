"""The hot path's statements (lock and read, update, append log entries) in plain SQL.

A press is the busiest write of a tournament (hundreds a minute), and building the same ORM
queries every time cost more CPU than the database's work on them. These statements are built
once per database vendor from the models' metadata and run on the thread's Django connection,
so they share its transaction and column adaptation (``get_db_prep_save``: JSON, datetimes)
with the ORM. Everything else about clocks keeps using the ORM.

On PostgreSQL they go further (measured in docs/benchmarks.md):

- the board device's right to press (its token, the round, the other apps' press guards:
  ``clocks.access.PressVet``) is read by the lock's own statement, one round trip instead of
  two; only the clock row is locked (``FOR UPDATE OF``);
- they are sent with server-side binding and prepared once per connection: Django binds
  parameters on the client, which quoted every press's JSON states into the statement's text
  in Python and had the server parse and plan the same three statements again each time.
  Prepared statements live in one connection: behind a pooler in transaction mode (PgBouncer)
  that needs PgBouncer 1.21 or later with ``max_prepared_statements`` set (docs/deployment.md).
- the log entries are rows of values (``LogRow``), not model instances.

``SQL`` off (``CLOCK_PRESS_SQL=0`` in the environment) makes ``lock`` and ``save`` run the
equivalent ORM queries instead. It exists for two readers only: ``bench_clocks``, so that the
gain of this module is measured with the same benchmark, alone and end to end
(docs/benchmarks.md), and the test that both ways write identical rows. Deployments leave it
on.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from clocks.models import Clock, ClockLogEntry
from tournament.models import Board, Round

_UPDATED = ("state", "version", "deadline_ms", "updated_at")

SQL = os.environ.get("CLOCK_PRESS_SQL", "1") != "0"


class LogRow(NamedTuple):
    """One clock log entry as written: the ``ClockLogEntry`` columns but its id, its clock
    and ``created_at``, which ``save`` fills in."""

    action: str
    who: str
    user_id: int | None
    server_ms: int
    version: int
    state_before: dict | None
    state_after: dict | None
    detail: dict

    def entry(self, clock: Clock) -> ClockLogEntry:
        return ClockLogEntry(clock=clock, action=self.action, who=self.who,
                             user_id=self.user_id, server_ms=self.server_ms,
                             version=self.version, state_before=self.state_before,
                             state_after=self.state_after, detail=self.detail)


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _round_join() -> str:
    """The board ``b``'s round ``r``, which ``PressVet``'s columns read beside the board."""
    return f"JOIN {_q(Round._meta.db_table)} r ON r.{_q('id')} = b.{_q('round_id')}"


def _board_tables() -> str:
    return f"{_q(Board._meta.db_table)} b {_round_join()}"


def _clock_tables() -> str:
    """The clock ``c`` with its board ``b`` and the board's round ``r``."""
    return (f"{_q(Clock._meta.db_table)} c JOIN {_q(Board._meta.db_table)} b "
            f"ON b.{_q('id')} = c.{_q('board_id')} {_round_join()}")


@cache
def _select_sql(vendor: str, for_update: bool, columns: tuple[str, ...]) -> str:
    tables = _clock_tables() if columns else f"{_q(Clock._meta.db_table)} c"
    sql = (f"SELECT c.{_q('id')}, c.{_q('state')}, c.{_q('holder')}, c.{_q('holder_since_ms')}"
           + "".join(f", {c}" for c in columns)
           + f" FROM {tables} WHERE c.{_q('board_id')} = %s")
    return sql + (" FOR UPDATE OF c" if for_update else "")


@cache
def _board_sql(vendor: str, columns: tuple[str, ...]) -> str:
    return f"SELECT {', '.join(columns)} FROM {_board_tables()} WHERE b.{_q('id')} = %s"


@cache
def _update_sql(vendor: str) -> str:
    columns = ", ".join(f"{_q(Clock._meta.get_field(f).column)} = %s" for f in _UPDATED)
    return f"UPDATE {_q(Clock._meta.db_table)} SET {columns} WHERE {_q('id')} = %s"


@cache
def _log_fields() -> tuple:
    """The log's columns in ``LogRow``'s order, then its clock and ``created_at``."""
    names = [*LogRow._fields, "clock_id", "created_at"]
    return tuple(ClockLogEntry._meta.get_field(name.removesuffix("_id")) for name in names)


def _insert_sql(rows: int) -> str:
    columns = ", ".join(_q(f.column) for f in _log_fields())
    row = "(" + ", ".join("%s" for _f in _log_fields()) + ")"
    values = ", ".join(row for _r in range(rows))
    return f"INSERT INTO {_q(ClockLogEntry._meta.db_table)} ({columns}) VALUES {values}"


@cache
def _save_sql(vendor: str, rows: int) -> tuple[str, ...]:
    """The statements of ``save``: on PostgreSQL one (the update in a data-modifying WITH), so
    that a press costs one round trip less; elsewhere the update, then the insert."""
    update, insert = _update_sql(vendor), _insert_sql(rows)
    if vendor == "postgresql":
        return (f"WITH updated AS ({update} RETURNING 1) {insert}",)
    return (update, insert)


def _db():
    """This thread's connection itself: ``django.db.connection`` is a proxy that looks the
    connection up again on every attribute, some twenty times a press."""
    return connections[DEFAULT_DB_ALIAS]


def _cursor(db):
    """A cursor on this thread's connection, with Django's wrappers (its errors, its execute
    wrappers).

    On PostgreSQL with server-side binding, each statement prepared on its first use in the
    connection (the module's docstring says why): Django's own cursors on the same connection
    bind on the client, which never prepares. Where Django logs queries (``DEBUG``, a test
    capturing them) the same statements go through Django's cursor, whose log shows them with
    their values.
    """
    if db.vendor != "postgresql" or db.queries_logged:
        return db.cursor()
    import psycopg  # PostgreSQL only: the embedded SQLite setup runs without it

    db.ensure_connection()
    raw = db.connection
    if raw.prepare_threshold is None:  # Django's default: never prepare
        raw.prepare_threshold = 0
    return db.make_cursor(psycopg.Cursor(raw))


def _execute(db, sql: str, params: list[Any]) -> tuple | None:
    """Run one statement; its first row, if it returns rows."""
    with _cursor(db) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() if cursor.description else None


def board_values(board_id: int, columns: tuple[str, ...]) -> tuple | None:
    """``columns`` (SQL expressions over the board ``b`` and its round ``r``) of one board."""
    db = _db()
    return _execute(db, _board_sql(db.vendor, columns), [board_id])


def lock(board_id: int, columns: tuple[str, ...] = ()) -> tuple[Clock | None, tuple]:
    """The board's clock row, locked until the transaction ends (None if it has no clock), and
    ``columns`` of the board (as ``board_values``), read by the same statement.

    Only the clock row is locked (PostgreSQL would lock every joined row otherwise, and every
    press of a round would wait for the others on the round's row); on SQLite the immediate
    transaction already holds the database's write lock. The instance carries ``pk``,
    ``board_id``, ``state``, ``holder`` and ``holder_since_ms`` only: enough for the services,
    which save it with ``save``.
    """
    if not SQL:
        clock = Clock.objects.select_for_update().filter(board_id=board_id).first()
        return clock, (board_values(board_id, columns) or ()) if columns else ()
    db = _db()
    for_update = db.features.has_select_for_update
    row = _execute(db, _select_sql(db.vendor, for_update, columns), [board_id])
    if row is None:
        return None, ()
    state = row[1] if isinstance(row[1], dict) else json.loads(row[1])
    return Clock(pk=row[0], board_id=board_id, state=state, holder=row[2],
                 holder_since_ms=row[3]), row[4:]


def save(clock: Clock, entries: list[LogRow]) -> None:
    """Write the clock's stored fields (``Clock.store`` set them) and append the log entries
    (at least one: an unchanged clock is not saved)."""
    if not SQL:
        clock.save()
        ClockLogEntry.objects.bulk_create([entry.entry(clock) for entry in entries])
        return
    db = _db()
    fields = [Clock._meta.get_field(f) for f in _UPDATED]
    params: list[Any] = [f.get_db_prep_save(f.pre_save(clock, False), db) for f in fields]
    params.append(clock.pk)
    log_fields, now = _log_fields(), timezone.now()
    for entry in entries:
        values = zip(log_fields, (*entry, clock.pk, now), strict=True)
        params += [f.get_db_prep_save(v, db) for f, v in values]
    statements = _save_sql(db.vendor, len(entries))
    if len(statements) == 1:
        _execute(db, statements[0], params)
    else:
        _execute(db, statements[0], params[:len(fields) + 1])
        _execute(db, statements[1], params[len(fields) + 1:])
