"""The clock services with the database: locking, logging, flags, rounds, broadcasting.

The server's time is ``clocks.services.now_ms``; every test replaces it with a hand-moved clock.
"""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.utils import timezone

from bench.events import create_clock_event
from clocks import flagtimer, groups, rows, services
from clocks.core.clock import IgnoredReason, Side, Status
from clocks.core.hearing import Silence
from clocks.models import Clock, ClockLogEntry
from tests.fake_time import T0
from tournament.models import Board


@pytest.fixture
def arbiter(db):
    return get_user_model().objects.create_user("clockarbiter", password="pw-clock-1")


@pytest.fixture
def round_(arbiter):
    return create_clock_event(3, arbiter=arbiter, slug="clock-open")


@pytest.fixture
def board(round_):
    return round_.boards.get(number=1)


def stored(board: Board):
    return Clock.objects.get(board=board).core


def test_clock_takes_the_events_time_control(arbiter):
    round_ = create_clock_event(1, arbiter=arbiter, slug="delay-open", time_control="300d5")
    snap = services.snapshot(round_.boards.get())
    assert snap["time_control"] == "300d5"
    assert snap["remaining_ms"] == {"A": 300_000, "B": 300_000}
    assert snap["status"] == Status.NOT_STARTED


def test_press_switches_the_running_side(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(12_000)
    outcome = services.press(board, "A", 0, who="player A")
    assert outcome.changed and outcome.press is not None
    assert outcome.press.remaining_ms == 588_000
    assert outcome.snapshot["running"] == "B"
    assert outcome.snapshot["press_number"] == 1
    state = stored(board)
    assert state.running is Side.B
    assert state.remaining_ms("A", clock_time.now) == 588_000


def test_stale_press_is_ignored_and_not_logged(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(5_000)
    services.press(board, "A", 0, who="player A")
    entries = ClockLogEntry.objects.count()
    clock_time.advance(50)
    duplicate = services.press(board, "A", 0, who="player A")
    assert not duplicate.changed
    assert duplicate.ignored is IgnoredReason.STALE
    assert duplicate.snapshot["running"] == "B"
    assert ClockLogEntry.objects.count() == entries
    wrong_side = services.press(board, "A", 1, who="player A")
    assert wrong_side.ignored is IgnoredReason.NOT_YOUR_TURN


def test_every_change_is_logged_with_who_when_and_states(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(7_000)
    services.press(board, "A", 0, who="player A")
    services.adjust(board, "B", "add", 30_000, reason="disturbed", who=arbiter.username,
                    user=arbiter)
    entries = list(ClockLogEntry.objects.filter(clock__board=board))
    assert [(e.action, e.who) for e in entries] == [
        ("start", "clockarbiter"), ("press", "player A"), ("adjust", "clockarbiter"),
    ]
    start, press, adjust = entries
    assert start.user == arbiter and start.server_ms == T0
    assert start.state_before["started_at_ms"] is None and start.state_after["turn"] == "A"
    assert press.server_ms == T0 + 7_000 and press.version == 2
    assert press.detail["press"] == {"number": 1, "side": "A", "at_ms": T0 + 7_000,
                                     "remaining_ms": 593_000}
    assert "presses" not in press.state_after
    assert adjust.detail["reason"] == "disturbed"
    assert adjust.state_after["b"]["adjustments_ms"] == 30_000


def test_presses_keep_their_times_for_the_game_record(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    for number, side in enumerate("ABA"):
        clock_time.advance(10_000)
        services.press(board, side, number, who=f"player {side}")
    records = services.presses(board)
    assert [(p.number, p.side.value, p.at_ms - T0, p.remaining_ms) for p in records] == [
        (1, "A", 10_000, 590_000), (2, "B", 20_000, 590_000), (3, "A", 30_000, 580_000),
    ]


def test_flag_timer_stores_the_flag_at_the_exact_deadline(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock = Clock.objects.get(board=board)
    assert clock.deadline_ms == T0 + 600_000
    clock_time.now = T0 + 599_999
    assert flagtimer.tick() == ([], T0 + 600_000)
    assert not stored(board).flagged("A")
    clock_time.now = T0 + 600_000
    flagged, next_deadline = flagtimer.tick()
    assert flagged == [board.pk]
    state = stored(board)
    assert state.a.flagged_at_ms == T0 + 600_000
    assert state.status is Status.A_FLAGGED and state.running is Side.B
    assert next_deadline == T0 + 1_200_000  # B plays on alone
    entry = ClockLogEntry.objects.filter(clock__board=board).last()
    assert (entry.action, entry.who, entry.detail) == ("flag", "flag timer",
                                                       {"flags": {"A": T0 + 600_000}})
    assert flagtimer.tick()[0] == []  # stored once


def test_a_late_flag_timer_still_flags_at_the_deadline(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.now = T0 + 600_000 + 4_321  # the timer was down for a while
    flagtimer.tick()
    assert stored(board).a.flagged_at_ms == T0 + 600_000


def test_a_press_after_the_deadline_stores_the_flag_and_is_ignored(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(600_500)
    outcome = services.press(board, "A", 0, who="player A")
    assert outcome.ignored is IgnoredReason.FLAGGED
    assert stored(board).a.flagged_at_ms == T0 + 600_000
    assert ClockLogEntry.objects.filter(action="flag").count() == 1


def test_clock_read_back_after_a_restart_has_the_right_time(board, arbiter, clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(5_000)
    services.press(board, "A", 0, who="player A")
    clock_time.advance(60_000)  # the server restarts meanwhile: nothing is kept in memory
    fresh = Board.objects.get(pk=board.pk)
    snap = services.snapshot(fresh)
    assert snap["remaining_ms"] == {"A": 595_000, "B": 540_000}
    assert snap["server_time_ms"] == T0 + 65_000 and snap["running"] == "B"


def test_start_round_starts_every_board_at_once(round_, arbiter, clock_time):
    assert services.start_round(round_, who=arbiter.username, user=arbiter) == 3
    states = [c.core for c in Clock.objects.filter(board__round=round_)]
    assert len(states) == 3
    assert {s.started_at_ms for s in states} == {T0}
    assert all(s.running is Side.A for s in states)
    assert services.start_round(round_, who=arbiter.username, user=arbiter) == 0
    clock_time.advance(1_000)
    assert services.pause_round(round_, who=arbiter.username, user=arbiter) == 3
    assert all(c.core.paused for c in Clock.objects.filter(board__round=round_))
    assert services.resume_round(round_, who=arbiter.username, user=arbiter) == 3


def test_refused_commands_raise_a_readable_error(board, arbiter, clock_time):
    with pytest.raises(services.ClockRefused, match="No clock is running"):
        services.pause(board, who=arbiter.username, user=arbiter)
    services.start(board, who=arbiter.username, user=arbiter)
    with pytest.raises(services.ClockRefused, match="already started"):
        services.start(board, who=arbiter.username, user=arbiter)
    with pytest.raises(services.ClockRefused, match="less than zero"):
        services.adjust(board, "A", "subtract", 900_000, reason="typo", who="x")
    assert stored(board).version == 1


def test_a_bye_has_no_clock(round_):
    bye = Board.objects.create(round=round_, number=0, first=round_.boards.first().first)
    with pytest.raises(services.ClockRefused):
        services.snapshot(bye)


def test_snapshots_are_broadcast_after_commit(board, arbiter, clock_time,
                                              django_capture_on_commit_callbacks):
    """In one event loop: a publish/subscribe layer's channels live in the loop that made them.
    The service and the commit hook run on this (the test's) thread and database connection."""
    layer = get_channel_layer()

    def start_capturing():
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.start(board, who=arbiter.username, user=arbiter)
        return callbacks

    async def scenario():
        board_channel, hall_channel = await layer.new_channel(), await layer.new_channel()
        await layer.group_add(groups.BOARD.name(board.pk), board_channel)
        await layer.group_add(groups.ROUND.name(board.round_id), hall_channel)
        callbacks = await sync_to_async(start_capturing)()
        assert len(callbacks) == 1  # nothing sent before the commit
        await sync_to_async(callbacks[0])()
        message = await asyncio.wait_for(layer.receive(board_channel), 5)
        assert message["type"] == "clock.snapshot"
        clock = json.loads(message["json"])  # encoded once, for every socket
        assert (clock["board"], clock["status"], clock["version"]) == (board.pk, "running_a", 1)
        assert message["version"] == 1 and "clock" not in message
        # the hall's share: outside a server, sent at once as a batch of one board
        hall = await asyncio.wait_for(layer.receive(hall_channel), 5)
        assert hall["type"] == "clock.hall"
        [(board_id, version, text)] = hall["boards"]
        assert (board_id, version) == (board.pk, 1)
        assert json.loads(text) == clock
        await layer.group_discard(groups.BOARD.name(board.pk), board_channel)
        await layer.group_discard(groups.ROUND.name(board.round_id), hall_channel)

    async_to_sync(scenario)()


def test_sleep_follows_the_next_deadline_within_the_poll_interval():
    assert flagtimer.sleep_seconds(None, 0) == flagtimer.POLL_S
    assert flagtimer.sleep_seconds(250, 0) == 0.25
    assert flagtimer.sleep_seconds(10_000, 0) == flagtimer.POLL_S
    assert flagtimer.sleep_seconds(-5, 0) == flagtimer.MIN_SLEEP_S


def a_game(arbiter) -> list:
    """(ms to wait, command) for every kind of write of the single-board path: a first lock that
    creates the row, presses, an ignored press (no write), an adjustment with a user, a pause,
    a flag stored together with the arbiter's next command (two log rows in one save), a finish.
    """
    by = {"who": arbiter.username, "user": arbiter}
    return [
        (0, lambda b: services.start(b, **by)),
        (4_000, lambda b: services.press(b, "A", 0, who="player A")),
        (5_000, lambda b: services.press(b, "B", 1, who="player B")),
        (6_000, lambda b: services.press(b, "A", 2, who="player A")),
        (50, lambda b: services.press(b, "A", 2, who="player A")),  # stale: nothing written
        (0, lambda b: services.adjust(b, "A", "add", 30_000, reason="noise", **by)),
        (2_000, lambda b: services.pause(b, **by)),
        (0, lambda b: services.resume(b, **by)),
        (700_000, lambda b: services.adjust(b, "B", "add", 60_000, reason="flag in error",
                                            turn="B", **by)),  # B flagged meanwhile
        (1_000, lambda b: services.finish(b, "arbiter", reason="adjourned", **by)),
    ]


def written(board) -> tuple:
    clock = Clock.objects.get(board=board)
    log = list(ClockLogEntry.objects.filter(clock=clock).order_by("pk").values_list(
        "action", "who", "user", "server_ms", "version", "state_before", "state_after", "detail"))
    return (clock.state, clock.version, clock.deadline_ms), log


def test_the_sql_press_path_writes_the_same_rows_as_the_orm(round_, arbiter, clock_time,
                                                            monkeypatch):
    """clocks/rows.py's statements against the ORM (``rows.SQL``): each command of a game, at
    the same time on two boards of one event, must leave the same clock row and log entries,
    timestamps set by both."""
    sql_board, orm_board = round_.boards.get(number=1), round_.boards.get(number=2)
    for wait, command in a_game(arbiter):
        clock_time.advance(wait)
        last_command_at = timezone.now()
        for board, sql in ((sql_board, True), (orm_board, False)):
            monkeypatch.setattr(rows, "SQL", sql)
            command(board)
        assert written(sql_board) == written(orm_board)
    assert [entry[0] for entry in written(sql_board)[1]] == [
        "start", "press", "press", "press", "adjust", "pause", "resume", "flag", "adjust",
        "finish"]
    for board in (sql_board, orm_board):
        clock = Clock.objects.get(board=board)
        assert clock.updated_at >= last_command_at
        assert clock.log_entries.last().created_at >= last_command_at


# -- presses the board's device measured (issue #22) ---------------------------------------------


def test_a_queued_press_is_reconciled_logged_and_bounded_by_the_events_budget(board, arbiter,
                                                                              clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(17_000)
    # the board's socket last heard the device at 2 s (the Wi-Fi dropped then), and the press
    # ends the silence
    offline = services.Measured(5_800, 1, silence=Silence(T0 + 2_000, clock_time.now))
    outcome = services.press(board, "A", 0, who="player A", measured=offline)
    assert outcome.press.at_ms == T0 + 5_800 and outcome.reconciled.late_ms == 11_200
    entry = ClockLogEntry.objects.filter(action="press").get()
    assert entry.detail["reconciled"] == {"measured_ms": 5_800, "late_ms": 11_200,
                                          "dated": "device", "budget_used_ms": 11_200,
                                          "claimed_ms": 11_200, "epoch": 1,
                                          "silence_ms": [T0 + 2_000, T0 + 17_000],
                                          "before_commands": 0}
    assert services.reconciliation_text(1, outcome.reconciled) == (
        "press 1, measured by the board: 5.8 s, arrived 11.2 s late")
    link = services.round_snapshots(board.round)[0]["link"]
    assert (link["state"], link["marked"], link["notes"]) == (
        "none", 1, ["press 1, measured by the board: 5.8 s, arrived 11.2 s late"])
    assert services.snapshot(board)["credited_ms"] == {"A": 11_200, "B": 0}
    again = services.press(board, "A", 0, who="player A", measured=offline)
    assert again.ignored is IgnoredReason.DUPLICATE and not again.changed
    # the event's budget: 5 s left of it cover 5 s of another 9 s outage
    round_ = board.round
    round_.event.clock_compensation_s = 16
    round_.event.save()
    board = Board.objects.select_related("round__event").get(pk=board.pk)
    clock_time.advance(10_000)
    late = services.press(board, "B", 1, who="player B",
                          measured=services.Measured(
                              12_000, 1, silence=Silence(T0 + 17_000, clock_time.now)))
    assert (late.reconciled.dated.value, late.reconciled.late_ms) == ("budget", 4_800)
    assert late.press.at_ms == clock_time.now - 4_800
    assert services.reconciliation_text(2, late.reconciled) == (
        "press 2, measured by the board: 12.0 s, 9.2 s late, credited 4.8 s: the rest of "
        "the game's compensation budget")


def test_a_press_on_a_link_heard_throughout_is_credited_the_allowance(board, arbiter,
                                                                       clock_time):
    services.start(board, who=arbiter.username, user=arbiter)
    clock_time.advance(40_000)
    cheat = services.Measured(3_000, 1, silence=None)  # a ping 0.9 s before: no silence
    outcome = services.press(board, "A", 0, who="player A", measured=cheat)
    assert (outcome.reconciled.late_ms, outcome.reconciled.dated.value) == (1_000, "heard")
    assert services.reconciliation_text(1, outcome.reconciled) == (
        "press 1, measured by the board: 3.0 s, claimed 37.0 s late, credited 1.0 s: the "
        "server heard the board until then")
    link = services.round_snapshots(board.round)[0]["link"]
    assert link["marked"] == 1  # a device claiming more than the server observed


def test_a_press_is_dated_when_it_arrived_not_when_it_got_the_lock(board, arbiter, clock_time):
    """Issue #21: a press that arrived before the deadline counts, however long it waited."""
    services.start(board, who=arbiter.username, user=arbiter)
    arrived = clock_time.now + 599_900
    clock_time.advance(600_500)  # the lock came after A's deadline
    outcome = services.press(board, "A", 0, who="player A", arrived_ms=arrived)
    assert outcome.press is not None and outcome.press.at_ms == arrived
    assert stored(board).side("A").flagged_at_ms is None


# -- clocks stop when their game stops -----------------------------------------------------------


def test_a_stored_result_stops_the_boards_clock_and_closing_the_round_stops_the_rest(
        round_, arbiter, clock_time):
    from tournament import services as event_services

    services.start_round(round_, who=arbiter.username, user=arbiter)
    first, second, third = round_.boards.order_by("number")
    clock_time.advance(5_000)
    event_services.record_result(first, "forfeit", loser_seat="second", source="arbiter",
                                 user=arbiter)
    assert stored(first).finished.kind.value == "completed"
    assert stored(first).remaining_ms("A", clock_time.now) == 595_000
    assert stored(second).finished is None
    entry = ClockLogEntry.objects.filter(clock__board=first, action="finish").get()
    assert entry.who == "result"
    assert services.stop_round(round_, who=arbiter.username, user=arbiter) == 2
    assert all(stored(b).finished is not None for b in (second, third))
    assert services.stop_round(round_, who=arbiter.username, user=arbiter) == 0


def test_closing_a_round_stops_its_clocks(round_, arbiter, clock_time):
    from tournament import services as event_services
    from tournament.models import Result

    services.start_round(round_, who=arbiter.username, user=arbiter)
    clock_time.advance(1_000)
    for board in round_.boards.all():  # results that came without the signal (an import)
        Result.objects.create(board=board, version=1, kind="double_forfeit", source="arbiter",
                              status="accepted", first_vp=0, second_vp=0)
    assert all(stored(b).finished is None for b in round_.boards.all())
    event_services.close_round(round_)
    assert all(stored(b).finished is not None for b in round_.boards.all())
