"""Probes of issue #21, "Long writes": a large CSV import holds no write lock while it reads.

A 5,000-player import entered the players one by one inside one transaction; on SQLite that
held the database's only write lock for 12–24 s and a clock press in another event waited
about 10 s. The import now checks every row first, outside any transaction, and inserts them
together in one short one. Time is not asserted here (``bench/scripts/bench_csv_import.py``
measures it); the mechanism is: no transaction is open while rows are checked, the
statements do not grow with the rows, a refusal writes nothing and issues no insert, and what
changes between the check and the write is caught. A JSON backup is read and its games
replayed before its (single) writing transaction begins, likewise.
They run on whichever database the suite is given (SQLite, and PostgreSQL in CI).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backups import document, reader
from games import simulation
from tournament import services
from tournament.models import Event, Player
from tournament.services import events

pytestmark = pytest.mark.django_db

ROWS = 1200


@pytest.fixture
def played_backup(organiser):
    """The backup of a small event with round 1 played by the engine (game records)."""
    rng = random.Random(7)
    event = simulation.create_event("Long Open", 4, rng, arbiter=organiser)
    simulation.run(event, rng, rounds=1)
    return document.export_event(event)


def _csv(names: list[str]) -> str:
    return "name,club,rating\n" + "".join(f"{name},Club,1500\n" for name in names)


def _names(count: int = ROWS) -> list[str]:
    return [f"Entrant {n:04d}" for n in range(count)]


def _inserts(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("INSERT")]


def test_a_large_import_is_a_few_statements_not_a_few_per_row(event):
    with CaptureQueriesContext(connection) as queries:
        added = services.import_players(event, _csv(_names()))
    assert len(added) == ROWS
    # A per-row import made about 4 * ROWS statements; now the reads are a handful, and the
    # inserts are batches (SQLite's bound on parameters keeps them to about 100 rows each), of
    # the players and of their player cards.
    inserts = len(_inserts(queries))
    assert len(queries) - inserts < 10
    assert 0 < inserts <= 2 * (ROWS // 100 + 1)
    seeds = list(event.players.order_by("seed").values_list("seed", flat=True))
    assert seeds == list(range(1, len(seeds) + 1))
    assert event.players.get(name="Entrant 0000").seed == 5  # after the four entered


def test_a_bad_last_line_is_refused_before_any_insert(event):
    names = [*_names(), "x" * 150]
    with CaptureQueriesContext(connection) as queries, \
            pytest.raises(services.ServiceError, match=f"Line {ROWS + 2}"):
        services.import_players(event, _csv(names))
    assert _inserts(queries) == []
    assert event.players.count() == 4


@pytest.mark.parametrize(("clash", "line"), [("Ada", ROWS + 2), ("entrant 0005", ROWS + 2)])
def test_a_name_already_entered_or_twice_in_the_file_names_its_line(event, clash, line):
    with pytest.raises(services.ServiceError,
                       match=f"Line {line}: There is already a player called"):
        services.import_players(event, _csv([*_names(), clash]))
    assert event.players.count() == 4


def test_a_player_entered_while_the_file_was_checked_refuses_the_file_whole(event,
                                                                           monkeypatch):
    """The write checks again under the event's lock: nothing of the file is stored."""
    write = events._enter_all

    def entered_meanwhile(*args):
        services.add_player(event, name="Entrant 0700")
        return write(*args)

    monkeypatch.setattr(events, "_enter_all", entered_meanwhile)
    with pytest.raises(services.ServiceError,
                       match="Line 702: There is already a player called Entrant 0700"):
        services.import_players(event, _csv(_names()))
    assert not Player.objects.filter(event=event, name="Entrant 0001").exists()


def test_a_round_paired_while_the_file_was_checked_refuses_the_file(arbiter, monkeypatch):
    event = services.create_event(name="Swiss Open", arbiter=arbiter, rounds_planned=5,
                                  pairing_system=Event.PairingSystem.SWISS)
    for name in ("Ada", "Ben", "Cy", "Di"):
        services.add_player(event, name=name)
    write = events._enter_all

    def paired_meanwhile(*args):
        services.publish_round(services.pair_next_round(event))
        return write(*args)

    monkeypatch.setattr(events, "_enter_all", paired_meanwhile)
    with pytest.raises(services.ServiceError, match="A round was paired while"):
        services.import_players(event, _csv(_names(10)))
    assert event.players.count() == 4


@pytest.mark.django_db(transaction=True)
def test_the_rows_are_checked_with_no_transaction_open(event, monkeypatch):
    """On SQLite an open transaction that has written holds the one write lock; checking
    happens before the writing transaction begins."""
    new_player, seen = events._new_player, set()

    def watched(*args, **kwargs):
        seen.add(connection.in_atomic_block)
        return new_player(*args, **kwargs)

    monkeypatch.setattr(events, "_new_player", watched)
    services.import_players(event, _csv(_names(50)))
    assert seen == {False}
    assert event.players.count() == 54


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_read_and_replayed_with_no_transaction_open(played_backup, monkeypatch):
    read, seen = reader.read, []

    def watched(*args, **kwargs):
        seen.append(connection.in_atomic_block)
        return read(*args, **kwargs)

    monkeypatch.setattr(reader, "read", watched)
    assert document.import_event(played_backup, slug="backup-copy").slug == "backup-copy"
    assert seen == [False]


@pytest.mark.django_db(transaction=True)
def test_a_short_name_taken_while_the_backup_was_read_refuses_it_whole(played_backup,
                                                                       monkeypatch):
    read = reader.read

    def taken_meanwhile(*args, **kwargs):
        plan = read(*args, **kwargs)
        services.create_event(name="Other", slug="backup-copy")
        return plan

    monkeypatch.setattr(reader, "read", taken_meanwhile)
    events_before = Event.objects.count()
    with pytest.raises(document.BackupError, match=r"event\.slug: an event with the short name"):
        document.import_event(played_backup, slug="backup-copy")
    assert Event.objects.count() == events_before + 1  # the other one only
    assert not Player.objects.filter(event__slug="backup-copy").exists()
