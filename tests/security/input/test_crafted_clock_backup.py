"""Probes of issue #35, "a crafted backup": a clock state that only looks right.

A state whose press number exceeds its presses closed the board socket with 1011 on every
press (an IndexError in the core), and a clock version above 2**31 was a 500 on PostgreSQL only
(its column is 32 bits there, the reader allowed 2**53). The reader now checks that the state
holds together as every state the core makes does, and every whole number against the column
that keeps it; each probe runs on both databases (SQLite, and PostgreSQL in CI's second pass),
and every number of the file set to the edges of the columns' ranges is refused by its path or
imported whole, never a database error.
"""

from __future__ import annotations

import copy
import random

import pytest

from backups import document
from bench.events import delete_event
from clocks import services
from clocks.core.state_reader import MAX_VERSION
from clocks.models import Clock
from games import simulation
from tests.fake_time import FakeTime
from tournament import services as event_services
from tournament.models import Event

pytestmark = pytest.mark.django_db

COPY = "crafted-clock"


@pytest.fixture
def backup(organiser, monkeypatch):
    """Four players, round 1 published, board 1's clock started with two presses and a pause
    since (the recent command kept), as a file."""
    monkeypatch.setattr(services, "now_ms", FakeTime(1_800_000_000_000))
    event = simulation.create_event("Crafted Open", 4, random.Random(35), arbiter=organiser)
    round_ = event_services.publish_round(event_services.pair_next_round(event))
    board = round_.boards.filter(second__isnull=False).order_by("number").first()
    services.start(board, who="arbiter")
    services.now_ms.advance(3_000)
    services.press(board, "A", 0, who="player A")
    services.now_ms.advance(2_000)
    services.press(board, "B", 1, who="player B")
    services.pause(board, who="arbiter")
    data = document.export_event(event)
    data["event"]["slug"] = COPY
    return data


def _clock(data: dict) -> tuple[dict, str]:
    for r_index, round_ in enumerate(data["rounds"]):
        for b_index, board in enumerate(round_["boards"]):
            if board.get("clock"):
                return board["clock"], f"rounds[{r_index}].boards[{b_index}].clock"
    raise AssertionError("no clock in the file")


def _refused(data: dict, path: str) -> str:
    with pytest.raises(document.BackupError) as refused:
        document.import_event(data)
    assert not Event.objects.filter(slug=COPY).exists()
    assert path in str(refused.value), str(refused.value)
    return str(refused.value)


def test_the_untouched_clock_imports_and_keeps_its_recent_command(backup):
    copied = document.import_event(copy.deepcopy(backup))
    clock = Clock.objects.get(board__round__event=copied, board__number=1).core
    assert clock.press_number == 2 and clock.paused
    assert [c.kind.value for c in clock.recent_commands.commands] == ["pause"]


@pytest.mark.parametrize("number", [3, 10, 2**40])
def test_a_press_number_beyond_the_presses_kept_is_refused(backup, number):
    state = _clock(backup)[0]["state"]
    state["press_number"] = number
    state["recent_commands"]["before"]["press_number"] = number
    _refused(backup, f"{_clock(backup)[1]}.state.press_number: must be the number of presses")


def test_presses_out_of_order_or_misnumbered_are_refused(backup):
    state = _clock(backup)[0]["state"]
    state["presses"][1]["number"] = 7
    _refused(backup, ".state.presses[1].number: must be 2")


@pytest.mark.parametrize("version", [MAX_VERSION + 1, 2**53])
def test_a_version_beyond_the_column_is_refused_on_every_database(backup, version):
    clock, path = _clock(backup)
    clock["state"]["version"] = version
    _refused(backup, f"{path}.state.version: must be at most {MAX_VERSION}")
    clock["state"]["version"] = 9
    clock["log"][0]["version"] = version
    _refused(backup, f"{path}.log[0].version")


def test_the_largest_version_the_column_keeps_imports(backup):
    clock, _path = _clock(backup)
    clock["state"]["version"] = MAX_VERSION
    copied = document.import_event(backup)
    assert Clock.objects.get(board__round__event=copied, board__number=1).version == MAX_VERSION


def test_recent_commands_that_do_not_hold_together_are_refused(backup):
    clock, path = _clock(backup)
    clock["state"]["recent_commands"]["before"]["epoch"] = 0
    _refused(backup, f"{path}.state.recent_commands.commands")


def test_a_running_clock_without_a_running_stretch_is_refused(backup):
    clock, path = _clock(backup)
    state = clock["state"]
    state.update(paused=False, recent_commands=None, epoch=1)
    _refused(backup, f"{path}.state.turn_started_ms")


def _numbers(node, path=()):
    """Every whole number of a document, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _numbers(value, (*path, index))
    elif type(node) is int:
        yield path


@pytest.mark.parametrize("edge", [2**31, 2**53, -(2**31) - 1])
def test_every_number_of_the_file_at_a_columns_edge_is_refused_or_imported_whole(backup, edge):
    """Each whole number of the file in turn set to ``edge``: refused with a path, or
    imported whole; never an error of the database (a 500 on PostgreSQL only)."""
    for path in list(_numbers(backup)):
        spoiled = copy.deepcopy(backup)
        target = spoiled
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = edge
        try:
            copied = document.import_event(spoiled)
        except document.BackupError:
            assert not Event.objects.filter(slug=COPY).exists(), path
        else:
            delete_event(copied.rounds.get())
