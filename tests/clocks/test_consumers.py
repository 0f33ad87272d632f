"""The clock sockets through the real ASGI application (origin check, sessions, routing)."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from bench.events import create_clock_event
from clocks import services
from clocks.core.hearing import Silence
from clocks.models import Clock
from tests.sockets import (
    board_path,
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    foreign_origin_refused,
    receive,
)
from tournament.boards.tokens import revoke_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def arbiter(transactional_db):
    return get_user_model().objects.create_user("hallarbiter", password="pw-hall-1")


@pytest.fixture
def round_(arbiter):
    return create_clock_event(2, arbiter=arbiter, slug="socket-open")


@pytest.fixture
def board(round_):
    return round_.boards.select_related("round__event").get(number=1)


@pytest.fixture
def session_cookie(arbiter):
    client = Client()
    client.force_login(arbiter)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def start(board, arbiter):
    return services.start(board, who=arbiter.username, user=arbiter)


async def test_snapshot_on_connect(board):
    player = await connect(board_path(board))
    snap = (await receive(player, "snapshot"))["clock"]
    assert snap["board"] == board.pk and snap["board_number"] == 1
    assert snap["status"] == "not_started"
    assert snap["remaining_ms"] == {"A": 600_000, "B": 600_000}
    assert {"version", "server_time_ms", "running", "press_number", "flags"} <= snap.keys()
    await player.disconnect()


async def test_press_switches_and_reaches_spectators(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    spectator = await connect(f"/ws/spectate/{board.pk}/")
    assert (await receive(player, "snapshot"))["clock"]["running"] == "A"
    await receive(spectator, "snapshot")
    await player.send_json_to({"type": "press", "side": "A", "press": 0})
    for communicator in (player, spectator):
        snap = (await receive(communicator, "snapshot"))["clock"]
        assert snap["running"] == "B" and snap["press_number"] == 1 and snap["version"] == 2
    await player.disconnect()
    await spectator.disconnect()


async def test_stale_press_is_ignored_with_the_current_snapshot(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    await player.send_json_to({"type": "press", "side": "A", "press": 0})
    await receive(player, "snapshot")
    await player.send_json_to({"type": "press", "side": "A", "press": 0})
    ignored = await receive(player, "ignored")
    assert ignored["reason"] == "stale" and ignored["message"]
    assert ignored["clock"]["press_number"] == 1 and ignored["clock"]["running"] == "B"
    assert await player.receive_nothing(timeout=0.3)
    await player.disconnect()


async def test_invalid_or_revoked_token_is_refused_with_the_reason(board):
    stranger = await connect("/ws/board/not-a-real-token-at-all/")
    error = await receive(stranger, "error")
    assert error["fatal"] and "not valid" in error["message"]
    closed = await stranger.receive_output(timeout=3)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    # the page's heartbeat sent before it read the close: no answer, no failure
    await stranger.send_to(text_data='{"type":"ping"}')
    assert await stranger.receive_nothing(timeout=0.3)
    await stranger.send_input({"type": "websocket.disconnect", "code": 4403})
    await stranger.wait(timeout=3)  # the consumer ended without an error

    await database_sync_to_async(revoke_token)(board)
    revoked = await connect(board_path(board))
    assert "withdrawn" in (await receive(revoked, "error"))["message"]


async def test_token_revoked_while_connected_stops_presses(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    await database_sync_to_async(revoke_token)(board)
    await player.send_json_to({"type": "press", "side": "A", "press": 0})
    assert (await receive(player, "error"))["fatal"]
    clock = await database_sync_to_async(Clock.objects.get)(board=board)
    assert clock.version == 1


async def test_arbiter_actions_are_refused_to_players(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    for message in ({"type": "pause"}, {"type": "start"},
                    {"type": "adjust", "side": "A", "kind": "add", "seconds": 60, "reason": "x"}):
        await player.send_json_to(message)
        assert "arbiter" in (await receive(player, "error"))["message"]
    clock = await database_sync_to_async(Clock.objects.get)(board=board)
    assert clock.version == 1
    await player.disconnect()


async def test_arbiter_commands_on_the_board_socket(board, session_cookie):
    arbiter = await connect(f"/ws/board/{board.token}/", session_cookie)
    await receive(arbiter, "snapshot")
    await arbiter.send_json_to({"type": "start"})
    assert (await receive(arbiter, "snapshot"))["clock"]["status"] == "running_a"
    await arbiter.send_json_to({"type": "adjust", "side": "B", "kind": "add", "seconds": 30,
                                "reason": "noise"})
    snap = (await receive(arbiter, "snapshot"))["clock"]
    assert snap["remaining_ms"]["B"] == 630_000
    await arbiter.send_json_to({"type": "adjust", "side": "B", "kind": "add", "seconds": 30})
    assert "reason" in (await receive(arbiter, "error"))["message"]
    await arbiter.send_json_to({"type": "resume"})
    assert "not paused" in (await receive(arbiter, "error"))["message"]
    await arbiter.send_json_to({"type": "finish", "kind": "arbiter", "reason": "agreed"})
    assert (await receive(arbiter, "snapshot"))["clock"]["status"] == "finished"
    await arbiter.disconnect()


async def test_spectators_are_read_only(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    spectator = await connect(f"/ws/spectate/{board.pk}/")
    await receive(spectator, "snapshot")
    await spectator.send_json_to({"type": "press", "side": "A", "press": 0})
    assert "Spectators" in (await receive(spectator, "error"))["message"]
    await spectator.send_json_to({"type": "pause"})
    await receive(spectator, "error")
    await spectator.disconnect()


async def test_reconnect_gets_the_current_snapshot(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    await player.disconnect()
    await database_sync_to_async(services.press)(board, "A", 0, who="player A")
    again = await connect(board_path(board))
    snap = (await receive(again, "snapshot"))["clock"]
    assert snap["press_number"] == 1 and snap["running"] == "B"
    await again.send_json_to({"type": "sync"})
    assert (await receive(again, "snapshot"))["clock"]["version"] == snap["version"]
    await again.disconnect()


async def test_bad_messages_get_an_error_and_the_socket_stays_open(board):
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    await player.send_to(text_data="{not json")
    assert "JSON" in (await receive(player, "error"))["message"]
    for bad in ([1, 2], {"kind": "press"}, {"type": "dance"}, {"type": "press", "side": "C",
                "press": 0}, {"type": "press", "side": "A", "press": "1"},
                {"type": "press", "side": "A", "press": True}):
        await player.send_json_to(bad)
        await receive(player, "error")
    await player.send_json_to({"type": "sync"})
    await receive(player, "snapshot")
    await player.disconnect()


async def test_foreign_origin_is_rejected(board):
    assert await foreign_origin_refused(f"/ws/board/{board.token}/")


async def test_hall_is_for_arbiters_only(round_, session_cookie):
    anonymous = await connect(f"/ws/hall/{round_.pk}/")
    assert (await receive(anonymous, "error"))["fatal"]
    hall = await connect(f"/ws/hall/{round_.pk}/", session_cookie)
    first = await receive(hall, "hall")
    assert sorted(b["board_number"] for b in first["boards"]) == [1, 2]
    await hall.disconnect()


async def test_hall_starts_the_round_and_gets_batched_updates(round_, session_cookie):
    hall = await connect(f"/ws/hall/{round_.pk}/", session_cookie)
    await receive(hall, "hall")
    await hall.send_json_to({"type": "start_round"})
    done = await receive(hall, "done")
    assert (done["action"], done["count"]) == ("start_round", 2)
    seen: dict[int, dict] = {}
    while len(seen) < 2:
        for snap in (await receive(hall, "hall"))["boards"]:
            seen[snap["board"]] = snap
    assert {s["status"] for s in seen.values()} == {"running_a"}
    board_id = next(iter(seen))
    await hall.send_json_to({"type": "pause", "board": board_id})
    update = await receive(hall, "hall")
    assert [(b["board"], b["status"]) for b in update["boards"]] == [(board_id, "paused")]
    await hall.send_json_to({"type": "pause", "board": 999_999})
    assert "not in this round" in (await receive(hall, "error"))["message"]
    await hall.disconnect()


async def past_snapshots(communicator, kind: str) -> dict:
    """The next message of ``kind``: the snapshots (or hall batches) a change broadcasts may
    come before it."""
    while (message := await receive(communicator))["type"] in ("snapshot", "hall"):
        pass
    assert message["type"] == kind, message
    return message


async def test_a_measured_press_is_answered_whatever_became_of_it(board, arbiter):
    await database_sync_to_async(start)(board, arbiter)
    player = await connect(board_path(board))
    snap = (await receive(player, "snapshot"))["clock"]
    measured = {"type": "press", "side": "A", "press": 0, "elapsed_ms": 86_400_000,
                "epoch": snap["epoch"]}
    await player.send_json_to(measured)
    reply = await past_snapshots(player, "pressed")
    assert (reply["status"], reply["press"], reply["dated"]) == ("accepted", 0, "arrival")
    await player.send_json_to(measured)  # the queue sent it again after a lost answer
    reply = await past_snapshots(player, "pressed")
    assert (reply["status"], reply["reason"]) == ("duplicate", "duplicate")
    await player.send_json_to({"type": "press", "side": "B", "press": 1, "elapsed_ms": 10,
                               "epoch": snap["epoch"] + 5})
    reply = await past_snapshots(player, "pressed")
    assert (reply["status"], reply["reason"]) == ("refused", "arbiter")
    assert "arbiter changed the clock" in reply["message"]
    await player.send_json_to({"type": "press", "side": "B", "press": 1, "elapsed_ms": -1,
                               "epoch": 1})
    assert "'elapsed_ms' must be between 0" in (await past_snapshots(player, "error"))["message"]
    before = services.now_ms()
    await player.send_json_to({"type": "ping"})
    pong = await past_snapshots(player, "pong")
    assert before <= pong["server_time_ms"] <= services.now_ms()  # the page's offset sample
    await player.disconnect()


async def test_the_hall_sees_each_board_devices_link(board, arbiter, session_cookie):
    hall = await connect(f"/ws/hall/{board.round_id}/", session_cookie)
    first = await receive(hall, "hall")
    assert {b["link"]["state"] for b in first["boards"]} == {"none"}
    player = await connect(board_path(board))
    await receive(player, "snapshot")
    link = await past_snapshots(hall, "link")
    assert (link["board"], link["link"]["state"]) == (board.pk, "live")
    await player.send_json_to({"type": "ping"})
    await receive(player, "pong")
    # the heartbeat stops (the Wi-Fi dropped; the socket stays open on this side)
    link = (await receive(hall, "link", timeout=8))["link"]
    assert link["state"] == "offline" and link["since_ms"] is not None
    # any message is heard: a page in a time scramble sends presses and no pings
    await player.send_json_to({"type": "sync"})
    await receive(player, "snapshot")
    assert (await receive(hall, "link"))["link"]["state"] == "live"
    await player.send_to(text_data='{"type":"ping"}')  # as the page writes it: the quick path
    assert isinstance((await receive(player, "pong"))["server_time_ms"], int)
    await player.disconnect()
    assert (await receive(hall, "link"))["link"]["state"] == "offline"
    # a reconciled press marks the board until the arbiter has seen it
    await database_sync_to_async(start)(board, arbiter)
    await database_sync_to_async(services.press)(
        board, "A", 0, who="player A",
        measured=services.Measured(0, 1, silence=Silence(0, services.now_ms() + 5_000)),
        arrived_ms=services.now_ms() + 5_000)
    link = (await past_snapshots(hall, "link"))["link"]
    assert link["marked"] == 1 and "arrived 5.0 s late" in link["notes"][0]
    await hall.send_json_to({"type": "seen", "board": board.pk})
    assert (await past_snapshots(hall, "link"))["link"]["marked"] == 0
    await hall.disconnect()


async def test_a_measured_press_that_may_not_be_made_is_answered_as_refused(board, arbiter):
    """The page keeps a press in its queue until it is answered: a refusal is an answer."""
    await database_sync_to_async(start)(board, arbiter)
    spectator = await connect(f"/ws/spectate/{board.pk}/")
    await receive(spectator, "snapshot")
    await spectator.send_json_to({"type": "press", "side": "A", "press": 0, "elapsed_ms": 10,
                                  "epoch": 1})
    reply = await past_snapshots(spectator, "pressed")
    assert (reply["status"], reply["message"]) == ("refused", "Spectators cannot press the clock.")
    assert reply["clock"]["press_number"] == 0
    await spectator.send_json_to({"type": "press", "side": "A", "press": 0})  # unmeasured
    assert (await receive(spectator, "error"))["message"] == "Spectators cannot press the clock."
    await spectator.disconnect()


async def test_a_page_that_reconnects_replaces_the_sockets_of_a_dead_worker(board):
    """A worker that dies closes nothing: its socket stays listed live. The board page
    reconnects (to another worker) with its device's id, which replaces that socket, so the
    next outage shows as one; an older socket of the device still open is told to stop."""
    first = await connect(board_path(board))
    await receive(first, "snapshot")
    # the worker dies: its socket's channel stays listed, as nothing reports it gone
    dead = next(iter((await database_sync_to_async(Clock.objects.get)(board=board))
                     .link["sockets"]))
    second = await connect(board_path(board))
    await receive(second, "snapshot")
    link = (await database_sync_to_async(Clock.objects.get)(board=board)).link
    assert dead not in link["sockets"] and list(link["sockets"].values()) == ["live"]
    stopped = await receive(first, "error")  # this worker's older socket: one page per device
    assert stopped["fatal"] and "opened again on this device" in stopped["message"]
    # another device (or a page without an id, or a junk id) keeps its own entry
    other = await connect(board_path(board, "x%27%3Cjunk"))
    await receive(other, "snapshot")
    link = (await database_sync_to_async(Clock.objects.get)(board=board)).link
    assert len(link["sockets"]) == 2 and len(link["devices"]) == 1
    for socket in (second, other):
        await socket.disconnect()
    link = (await database_sync_to_async(Clock.objects.get)(board=board)).link
    assert link["sockets"] == {} and link["devices"] == {}
    await first.disconnect()
