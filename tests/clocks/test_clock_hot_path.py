"""The press's hot path (issue #25): the token and the press guards read by the lock's
statement, presses on threads of their own on PostgreSQL, the halls' share gathered per worker,
the worker's garbage collector, and the profile ``bench_clocks --profile`` prints. Behaviour
only: what each costs is measured by ``bench_clocks`` (docs/benchmarks.md), never asserted
here."""

import asyncio
import gc
import json
from types import SimpleNamespace

import pytest
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import profile as benchprofile
from bench.events import create_clock_event
from clocks import (
    access,
    groups,
    hall_feed,
    holder,
    press_threads,
    server_context,
    services,
)
from clocks.consumers import HallConsumer
from clocks.core.clock import IgnoredReason
from clocks.models import Clock, ClockLogEntry
from games.online.play import mark_online
from tournament.boards.tokens import TokenRefused, revoke_token
from tournament.site import worker_gc


def numbered(round_, number):
    return round_.boards.select_related("round__event").get(number=number)


# --- the token and the guards read by the lock's statement -----------------------------------


TABLET = holder.device_key("tablet0000000000000001")


def started(round_, number):
    """The board's clock started, kept by the tablet (as the first page to open it would)."""
    board = numbered(round_, number)
    services.start(board, who="arbiter")
    Clock.objects.filter(board=board).update(holder=TABLET)
    return board


def device_press(board, **vet):
    vet.setdefault("device", TABLET)
    return services.press(board, "A", 0, who="player A",
                          vet=access.PressVet(board.token, **vet))


def test_the_token_and_every_guard_cost_a_press_no_query_of_their_own(db):
    """The lock, then the update with the log entry: the token and the online games' guard are
    columns of the lock's statement (on SQLite the save is two statements)."""
    board = started(create_clock_event(2, slug="hot-one-query"), 1)
    with CaptureQueriesContext(connection) as captured:
        assert device_press(board).press is not None
    statements = [q["sql"].split()[0] for q in captured.captured_queries
                  if "SAVEPOINT" not in q["sql"]]  # the test's transaction
    assert statements == (["SELECT", "WITH"] if connection.vendor == "postgresql"
                          else ["SELECT", "UPDATE", "INSERT"])
    lock = captured.captured_queries[1]["sql"]
    assert "b.token" in lock and "games_onlinegame" in lock and "holder" in lock


def test_a_device_that_does_not_keep_the_clock_is_refused_under_the_lock(db):
    board = started(create_clock_event(1, slug="hot-holder"), 1)
    before = ClockLogEntry.objects.count()
    phone = holder.device_key("phone0000000000000002")
    with pytest.raises(services.ClockRefused, match="Another device keeps"):
        device_press(board, device=phone)
    with pytest.raises(services.ClockRefused, match="Another device keeps"):
        device_press(board, device=None)  # a page too old to name its device
    assert ClockLogEntry.objects.count() == before
    assert device_press(board, device=phone, guarded=False).press is not None  # an arbiter


def test_a_guard_is_asked_only_where_its_condition_holds(db, monkeypatch):
    round_ = create_clock_event(2, slug="hot-guard")
    asked = []

    def guard(board_id):
        asked.append(board_id)
        return "played elsewhere"

    monkeypatch.setitem(access._press_guards, "test", (guard, "b.number = 2"))
    one, two = started(round_, 1), started(round_, 2)
    assert device_press(one).press is not None
    with pytest.raises(services.ClockRefused, match="played elsewhere"):
        device_press(two)
    assert asked == [two.pk]
    assert device_press(two, guarded=False).press is not None  # an arbiter's session
    assert asked == [two.pk]


def test_an_online_board_refuses_its_device_under_the_lock_and_writes_nothing(db):
    round_ = create_clock_event(2, slug="hot-online")
    mark_online(round_)
    board = numbered(round_, 1)
    before = ClockLogEntry.objects.count()
    with pytest.raises(services.ClockRefused) as refused:
        device_press(board)
    assert str(refused.value) == access.press_refusal(board.pk)
    assert "played online" in str(refused.value)
    assert ClockLogEntry.objects.count() == before
    assert services.snapshot(board)["press_number"] == 0


def test_a_revoked_token_is_refused_with_its_reason(db):
    board = started(create_clock_event(2, slug="hot-revoked"), 1)
    revoke_token(board)
    with pytest.raises(TokenRefused, match="withdrawn"):
        device_press(board)
    with pytest.raises(TokenRefused, match="withdrawn"):  # an arbiter's session too
        device_press(board, guarded=False)
    assert services.snapshot(board)["press_number"] == 0


# --- presses on their own threads -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_presses_run_side_by_side_and_one_board_still_takes_turns():
    """Presses of three boards at once, and the same press twice on board 1 (a double tap):
    every board moves on by one press, and board 1's row lets exactly one of its two through.
    On PostgreSQL they run on the press threads, on SQLite on the shared database thread."""
    round_ = create_clock_event(3, slug="hot-threads")
    services.start_round(round_, who="arbiter")
    boards = [numbered(round_, n) for n in (1, 2, 3)]

    def press(board):
        return lambda: services.press(board, "A", 0, who="player A")

    async def all_at_once():
        return await asyncio.gather(*(press_threads.run(press(b)) for b in [*boards, boards[0]]))

    outcomes = asyncio.run(all_at_once())
    assert press_threads.concurrent() == (connection.vendor == "postgresql")
    first, again = outcomes[0], outcomes[3]
    assert sorted([first.ignored is None, again.ignored is None]) == [False, True]
    assert {first.ignored, again.ignored} - {None} <= {IgnoredReason.STALE,
                                                       IgnoredReason.NOT_YOUR_TURN}
    assert all(o.ignored is None for o in outcomes[1:3])
    for board in boards:
        assert services.snapshot(board)["press_number"] == 1
        assert ClockLogEntry.objects.filter(clock__board=board, action="press").count() == 1


@pytest.mark.django_db(transaction=True)  # as in a press thread: no test transaction around
def test_a_connection_whose_last_use_failed_is_checked_before_the_next_press():
    connection.ensure_connection()
    connection.errors_occurred = True
    press_threads._call(lambda: None)
    assert connection.errors_occurred is False  # tested (and kept, as it answers) by Django


# --- the halls' share, gathered per worker ----------------------------------------------------


@pytest.mark.asyncio
async def test_a_worker_sends_each_round_one_message_with_each_boards_latest_version():
    layer = get_channel_layer()
    one, two = 990_001, 990_002
    hall_one, hall_two = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(groups.ROUND.name(one), hall_one)
    await layer.group_add(groups.ROUND.name(two), hall_two)
    token = server_context.server_loop.set(asyncio.get_running_loop())
    try:
        hall_feed.send({one: [(10, 1, '{"v":1}')]})
        hall_feed.send({one: [(10, 3, '{"v":3}'), (11, 1, '{"b":11}')],
                        two: [(20, 5, '{"x":5}')]})
        hall_feed.send({one: [(10, 2, '{"v":2}')]})  # an older change that arrived late
        first = await asyncio.wait_for(layer.receive(hall_one), 2)
        second = await asyncio.wait_for(layer.receive(hall_two), 2)
        with pytest.raises(TimeoutError):  # one message per round for the whole batch
            await asyncio.wait_for(layer.receive(hall_one), hall_feed.HALL_BATCH_S * 2)
    finally:
        server_context.server_loop.reset(token)
        await layer.group_discard(groups.ROUND.name(one), hall_one)
        await layer.group_discard(groups.ROUND.name(two), hall_two)
    assert first["type"] == second["type"] == "clock.hall"
    assert [tuple(item) for item in first["boards"]] == [(10, 3, '{"v":3}'), (11, 1, '{"b":11}')]
    assert [tuple(item) for item in second["boards"]] == [(20, 5, '{"x":5}')]


@pytest.mark.asyncio
async def test_a_hall_view_keeps_the_newest_version_whichever_worker_sent_it():
    hall = HallConsumer()
    hall.pending, hall.flusher, hall.last_flush = {}, None, 0.0
    sent = []

    async def send(text_data=None, **kwargs):
        sent.append(json.loads(text_data))

    hall.send = send
    await hall.clock_hall({"boards": [(10, 3, '{"board":10,"version":3}')]})
    await hall.clock_hall({"boards": [(10, 2, '{"board":10,"version":2}'),
                                      (11, 1, '{"board":11,"version":1}')]})
    await hall.flusher
    assert sent == [{"type": "hall", "boards": [{"board": 10, "version": 3},
                                                {"board": 11, "version": 1}]}]


@pytest.mark.asyncio
async def test_a_change_that_arrives_while_the_hall_is_being_sent_is_sent_after_it():
    """The arbiter's pause reached the hall while the batch before it was still being written
    to the socket: it waited for a later change of the round, and a round where nothing else
    changed never showed it (seen as a hall that never said Paused)."""
    hall = HallConsumer()
    hall.pending, hall.flusher, hall.last_flush = {}, None, 0.0
    sent, writing = [], asyncio.Event()

    async def send(text_data=None, **kwargs):
        sent.append(json.loads(text_data))
        if len(sent) == 1:  # the first batch is slow to write: the pause arrives meanwhile
            writing.set()
            await asyncio.sleep(0.05)

    hall.send = send
    await hall.clock_hall({"boards": [(10, 3, '{"board":10,"status":"running"}')]})
    await writing.wait()
    await hall.clock_hall({"boards": [(10, 4, '{"board":10,"status":"paused"}')]})
    await asyncio.wait_for(hall.flusher, 2)
    assert sent[-1] == {"type": "hall", "boards": [{"board": 10, "status": "paused"}]}
    assert not hall.pending


# --- the worker's garbage collector -----------------------------------------------------------


def test_a_worker_collects_young_objects_rarely_and_everything_on_a_timer(monkeypatch):
    started = []
    monkeypatch.setattr(worker_gc, "_started", False)
    monkeypatch.setattr(worker_gc.threading, "Thread",
                        lambda **kw: SimpleNamespace(start=lambda: started.append(kw["name"])))
    before = gc.get_threshold()
    try:
        worker_gc.tune()
        worker_gc.tune()  # once per process
        assert gc.get_threshold() == (worker_gc.YOUNG, worker_gc.OLDER, worker_gc.NEVER)
        assert gc.get_freeze_count() > 0
        assert started == ["full-gc"]
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


# --- bench_clocks --profile -------------------------------------------------------------------


def test_a_profile_sample_counts_for_the_innermost_frame_that_names_a_category(tmp_path):
    stacks = ("run (asyncio/base_events.py:1);receive (clocks/consumers.py:2);"
              "dumps (json/__init__.py:3) 6\n"
              "run (asyncio/base_events.py:1);execute (psycopg/cursor.py:9) 3\n"
              "run (asyncio/base_events.py:1);_run_once (asyncio/base_events.py:2) 1\n")
    assert benchprofile.categorize(stacks) == {"JSON encode/decode": 6,
                                               "SQL and the database driver": 3,
                                               "asyncio event loop": 1}
    (tmp_path / "worker-1.txt").write_text(stacks)
    rows = benchprofile.breakdown([tmp_path / "worker-1.txt"], presses=2)
    name, ms, share = rows[0]
    assert (name, share) == ("JSON encode/decode", 0.6)
    assert ms == pytest.approx(6 / benchprofile.RATE * 1000 / 2)
