"""The hot path's three statements (lock and read, update, append log entries) in plain SQL.

A press is the busiest write of a tournament (hundreds a minute, each on a worker's single
database thread), and building the same three ORM queries every time cost more CPU than the
database's work on them. These statements are built once per database vendor from the models'
metadata and run through Django's cursor, so they use the same connection, transaction and
column adaptation (``get_db_prep_save``: JSON, datetimes) as the ORM. Everything else about
clocks keeps using the ORM.

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
from typing import Any

from django.db import connection

from clocks.models import Clock, ClockLogEntry

_UPDATED = ("state", "version", "deadline_ms", "updated_at")

SQL = os.environ.get("CLOCK_PRESS_SQL", "1") != "0"


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _select_sql(vendor: str, for_update: bool) -> str:
    table = _q(Clock._meta.db_table)
    sql = f"SELECT {_q('id')}, {_q('state')} FROM {table} WHERE {_q('board_id')} = %s"
    return sql + (" FOR UPDATE" if for_update else "")


@cache
def _update_sql(vendor: str) -> str:
    columns = ", ".join(f"{_q(Clock._meta.get_field(f).column)} = %s" for f in _UPDATED)
    return f"UPDATE {_q(Clock._meta.db_table)} SET {columns} WHERE {_q('id')} = %s"


def _log_fields() -> list:
    return [f for f in ClockLogEntry._meta.concrete_fields if not f.primary_key]


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


def lock(board_id: int) -> Clock | None:
    """The board's clock row, locked until the transaction ends (None if it has no clock).

    On SQLite the immediate transaction already holds the database's write lock. The instance
    carries ``pk``, ``board_id`` and ``state`` only: enough for the services, which save it with
    ``save`` below.
    """
    if not SQL:
        return Clock.objects.select_for_update().filter(board_id=board_id).first()
    for_update = connection.features.has_select_for_update
    with connection.cursor() as cursor:
        cursor.execute(_select_sql(connection.vendor, for_update), [board_id])
        row = cursor.fetchone()
    if row is None:
        return None
    state = row[1] if isinstance(row[1], dict) else json.loads(row[1])
    return Clock(pk=row[0], board_id=board_id, state=state)


def save(clock: Clock, entries: list[ClockLogEntry]) -> None:
    """Write the clock's stored fields (``Clock.store`` set them) and append the log entries
    (at least one: an unchanged clock is not saved)."""
    if not SQL:
        clock.save()
        ClockLogEntry.objects.bulk_create(entries)
        return
    fields = [Clock._meta.get_field(f) for f in _UPDATED]
    params: list[Any] = [f.get_db_prep_save(f.pre_save(clock, False), connection)
                         for f in fields]
    params.append(clock.pk)
    inserted: list[Any] = []
    for entry in entries:
        entry.clock_id = clock.pk
        inserted += [f.get_db_prep_save(f.pre_save(entry, True), connection)
                     for f in _log_fields()]
    statements = _save_sql(connection.vendor, len(entries))
    with connection.cursor() as cursor:
        if len(statements) == 1:
            cursor.execute(statements[0], params + inserted)
        else:
            cursor.execute(statements[0], params)
            cursor.execute(statements[1], inserted)
