"""Event backups keep the over-the-board clocks (issue #22): the state, the log with the Wi-Fi
reconciliations, and a running clock comes back paused; a crafted clock is refused by path."""

import json

import pytest

from backups import document
from clocks import services
from clocks.core.hearing import Silence
from clocks.models import Clock
from clocks.services import Measured
from tests.fake_time import FakeTime
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def clocked(played_event, monkeypatch):
    """Round 3 of the played event with board 1's clock through a Wi-Fi outage: A's press
    arrives 6 s late (dated where the board saw it), then B's press; board 2 finished."""
    fake = FakeTime(1_800_000_000_000)
    monkeypatch.setattr(services, "now_ms", fake)
    round_ = played_event.rounds.get(number=3)
    board, other = round_.boards.filter(second__isnull=False).order_by("number")[:2]
    services.start(board, who="arbiter1")
    services.start(other, who="arbiter1")
    fake.advance(4_000)  # A presses after 4 s, the tablet offline
    fake.advance(6_000)  # ... the press reaches the server 6 s later
    outcome = services.press(board, "A", 0, who="board",
                             measured=Measured(4_000, 1,
                                               silence=Silence(fake.now - 7_000, fake.now)))
    assert outcome.reconciled.late_ms == 6_000
    fake.advance(3_000)
    services.press(board, "B", 1, who="board", measured=Measured(3_000, 1))
    fake.advance(2_000)
    services.finish(other, "resigned", who="arbiter1", side="A", reason="")
    return played_event, board, other, fake


def _board(data, round_number, number):
    round_ = next(r for r in data["rounds"] if r["number"] == round_number)
    return next(b for b in round_["boards"] if b["number"] == number)


def test_a_backup_keeps_the_clock_and_its_reconciled_presses(clocked):
    event, board, other, _fake = clocked
    data = document.export_event(event)
    kept = _board(data, 3, board.number)["clock"]
    assert kept["state"] == Clock.objects.get(board=board).state
    presses = [e for e in kept["log"] if e["action"] == "press"]
    assert presses[0]["detail"]["reconciled"] == {
        "measured_ms": 4_000, "late_ms": 6_000, "dated": "device", "budget_used_ms": 6_000,
        "claimed_ms": 6_000, "epoch": 1, "silence_ms": [1_800_000_003_000, 1_800_000_010_000],
        "before_commands": 0}
    assert _board(data, 3, other.number)["clock"]["state"]["finished"]["kind"] == "resigned"
    # boards whose clock never started, and rounds 1-2 (no clocks), keep none
    assert all(b["clock"] is None for r in data["rounds"] if r["number"] < 3
               for b in r["boards"])


def test_a_running_clock_comes_back_paused_with_the_times_of_its_last_press(clocked):
    event, board, other, fake = clocked
    before = services.snapshot(board)
    copy = document.import_event(json.loads(json.dumps(document.export_event(event))),
                                 slug="clocked-copy")
    restored_board = copy.rounds.get(number=3).boards.get(number=board.number)
    fake.advance(60_000)  # the server was down a minute: nobody's time ran
    after = services.snapshot(restored_board)
    assert after["paused"] and after["running"] is None
    # the turn in progress (A's, 2 s so far) starts again: A has what its last press left it
    assert after["remaining_ms"]["A"] == before["remaining_ms"]["A"] + 2_000
    assert after["remaining_ms"]["B"] == before["remaining_ms"]["B"]
    clock = Clock.objects.get(board=restored_board)
    log = list(clock.log_entries.order_by("id"))
    assert [e.action for e in log] == ["start", "press", "press", "pause"]
    assert log[1].detail["reconciled"]["late_ms"] == 6_000 and log[1].state_after is None
    assert log[-1].who == "backup" and log[-1].state_after["paused"]
    # the arbiter resumes it from the hall; the finished board stays finished
    services.resume(restored_board, who="arbiter1")
    assert services.snapshot(restored_board)["running"] == "A"
    finished = copy.rounds.get(number=3).boards.get(number=other.number)
    assert services.snapshot(finished)["finished"]


def test_a_finished_clock_round_trips_exactly(clocked):
    event, _, other, _fake = clocked
    first = document.export_event(event)
    copy = document.import_event(json.loads(json.dumps(first)), slug="clocked-copy")
    second = document.export_event(copy)
    assert (_board(second, 3, other.number)["clock"]
            == _board(first, 3, other.number)["clock"])


@pytest.mark.parametrize(
    ("mangle", "path"),
    [
        (lambda c: c["state"].update(press_number="2"), "clock.state.press_number"),
        (lambda c: c["state"]["a"].update(used_ms=10**19), "clock.state.a.used_ms"),
        (lambda c: c["state"].update(turn="C"), "clock.state.turn"),
        (lambda c: c["state"].update(time_control="ten minutes"), "clock.state.time_control"),
        (lambda c: c["state"]["presses"][0].update(side="X"), "clock.state.presses[0].side"),
        (lambda c: c["state"].update(extra=1), "clock.state.extra"),
        (lambda c: c["state"].pop("epoch"), "clock.state.epoch"),
        (lambda c: c["state"].update(started_at_ms=None), "clock.state"),
        (lambda c: c["log"][0].update(action="explode"), "clock.log[0].action"),
        (lambda c: c["log"][0].update(who="x" * 151), "clock.log[0].who"),
        (lambda c: c["log"][0].update(who="a\u202eb"), "clock.log[0].who"),
        (lambda c: c["log"][0].update(server_ms=-1), "clock.log[0].server_ms"),
        (lambda c: c["log"][1].update(detail=[1]), "clock.log[1].detail"),
        (lambda c: c.update(log="none"), "clock.log"),
        (lambda c: c.update(extra=True), "clock"),
    ],
)
def test_a_crafted_clock_is_refused_by_its_path_and_nothing_is_written(clocked, mangle, path):
    event, board, _other, _fake = clocked
    data = document.export_event(event)
    data["event"]["slug"] = "crafted"
    mangle(_board(data, 3, board.number)["clock"])
    with pytest.raises(document.BackupError) as refused:
        document.import_event(data)
    assert f"rounds[2].boards[{board.number - 1}].{path}" in str(refused.value)
    assert not Event.objects.filter(slug="crafted").exists()


def test_an_older_backup_without_clocks_still_imports(clocked):
    event, *_ = clocked
    data = document.export_event(event)
    data["version"] = 2
    for round_ in data["rounds"]:
        for item in round_["boards"]:
            del item["clock"]
    copy = document.import_event(data, slug="older")
    assert not Clock.objects.filter(board__round__event=copy).exists()
