"""A server restart is not charged to the players of online games (``clocks.restart``): the
time no process of the server was alive is given back to every running online game's clock,
logged and marked in the hall; an over-the-board clock, whose board page kept time, is not
held; a restart is given back once."""

import pytest
from django.contrib.auth import get_user_model

from bench.events import create_clock_event
from clocks import flagtimer, restart, services
from clocks.models import Clock, ClockLogEntry, ServerProcess
from games.online import play as online
from tests.fake_time import T0

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_server_restart_is_given_back_to_online_games_follows_the_event(clock_time,
                                                                          monkeypatch):
    arbiter = get_user_model().objects.create_user("restartarbiter", password="pw-restart-1")
    round_ = create_clock_event(1, arbiter=arbiter, slug="restart-online")
    online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter")
    over_the_board = create_clock_event(1, arbiter=arbiter, slug="restart-board")
    services.start_round(over_the_board, who="arbiter")
    game_board, board = round_.boards.get(), over_the_board.boards.get()
    # the old process was last alive 10 s into the round, then killed; this one was ready to
    # serve 5.2 s later (the five seconds a restart takes), and its first beat came with the
    # first page that reconnected, 1.8 s after that (daphne has no lifespan events)
    ServerProcess.objects.create(name="old:1:dead", started_ms=T0 - 60_000, alive_ms=T0 + 10_000)
    monkeypatch.setitem(restart._ready, "ms", T0 + 15_200)
    monkeypatch.setitem(restart._last_beat, "ms", None)
    clock_time.now = T0 + 17_000
    flagtimer.tick()
    state = Clock.objects.get(board=game_board).core
    assert state.running.value == "A" and not state.paused
    assert state.remaining_ms("A", clock_time.now) == 600_000 - 11_800  # 5.2 s given back
    entries = list(ClockLogEntry.objects.filter(clock__board=game_board, who=restart.SERVER)
                   .order_by("id").values_list("action", "server_ms", "detail"))
    assert [(action, at) for action, at, _detail in entries] == [
        ("pause", T0 + 10_000), ("resume", T0 + 15_200)]
    assert "5.2 s given back to both players" in entries[0][2]["reason"]
    note = services.round_snapshots(round_)[0]["link"]["notes"][-1]
    assert note.startswith("server restarted at ") and note.endswith(
        "5.2 s given back to both players")
    # the board page kept time at the table: its clock ran on
    assert Clock.objects.get(board=board).core.remaining_ms("A", clock_time.now) == (
        600_000 - 17_000)
    assert not ServerProcess.objects.filter(name="old:1:dead").exists()  # given back once
    clock_time.advance(2_000)
    flagtimer.tick()
    assert ClockLogEntry.objects.filter(who=restart.SERVER).count() == 2


def test_processes_replaced_one_by_one_are_no_outage_follows_the_event(clock_time,
                                                                       monkeypatch):
    ServerProcess.objects.create(name="worker:1:old", started_ms=T0 - 60_000, alive_ms=T0)
    ServerProcess.objects.create(name="worker:2:up", started_ms=T0 - 60_000,
                                 alive_ms=T0 + 9_000)
    clock_time.now = T0 + 9_500
    monkeypatch.setitem(restart._ready, "ms", None)
    monkeypatch.setitem(restart._last_beat, "ms", None)
    assert restart.give_back(clock_time.now) == 0  # another worker was alive all along
    assert not ServerProcess.objects.filter(name="worker:1:old").exists()
