"""Issue #21 on the sockets: a bad frame is an error message and the socket stays open (deep
nesting and huge integers closed it with 1011); the hall's clock commands are bounded (an
adjustment of 10**300 ms was accepted and stuck the clock) and refused with the reason; an
arbiter removed from the event loses an already-open hall at once."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from bench.events import create_clock_event
from clocks import services
from clocks.models import ClockLogEntry
from games.online import play as online
from tests.sockets import (
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    receive,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BAD_FRAMES = [
    ("[" * 30_000, "nested deeper than 32 levels"),  # within the frame limit
    ('{"type": "press", "side": "A", "press": ' + "9" * 5000 + "}", "5,000 digits"),
    ('{"type": "press", "side": "A", "press": 1e999}', "not a finite number"),
    ('{"type": "sync", "x": NaN}', "NaN is not a JSON number"),
    ('{"type": "\\ud800"}', "lone surrogate"),
]


@pytest.fixture
def arbiter(transactional_db):
    return get_user_model().objects.create_user("junkarbiter", password="pw-junk-1")


@pytest.fixture
def round_(arbiter):
    round_ = create_clock_event(2, arbiter=arbiter, slug="junk-sockets")
    services.start_round(round_, who="arbiter", user=arbiter)
    return round_


@pytest.fixture
def session_cookie(arbiter):
    client = Client()
    client.force_login(arbiter)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def _still_open(communicator, kind: str) -> None:
    await communicator.send_json_to({"type": "sync"})
    await receive(communicator, kind)


async def _refused(communicator, frame: str, fragment: str) -> None:
    await communicator.send_to(text_data=frame)
    message = await receive(communicator, "error")
    assert fragment in message["message"] and not message.get("fatal"), message


@pytest.mark.parametrize(("frame", "fragment"), BAD_FRAMES)
async def test_a_bad_frame_on_the_board_socket_is_an_error_and_the_socket_stays(
        round_, frame, fragment):
    board = await database_sync_to_async(round_.boards.get)(number=1)
    player = await connect(f"/ws/board/{board.token}/")
    await receive(player, "snapshot")
    await _refused(player, frame, fragment)
    await _still_open(player, "snapshot")
    await player.disconnect()


async def test_a_bad_frame_on_a_seat_socket_is_an_error_and_the_socket_stays(arbiter):
    def deal():
        round_ = create_clock_event(1, arbiter=arbiter, slug="junk-online")
        return online.mark_online(round_, user=arbiter)[0]

    game = await database_sync_to_async(deal)()
    seat = await connect(f"/ws/play/{game.token_a}/")
    await receive(seat, "state")
    for frame, fragment in BAD_FRAMES:
        await _refused(seat, frame, fragment)
    await _still_open(seat, "state")
    await seat.disconnect()


@pytest.mark.parametrize(("command", "fragment"), [
    ({"type": "finish", "kind": "exploded", "reason": "x"}, "Unknown side or kind"),
    ({"type": "adjust", "side": "A", "kind": "add", "ms": 10**19, "reason": "x"},
     "20 digits"),
    ({"type": "adjust", "side": "A", "kind": "add", "ms": 10**300, "reason": "x"},
     "301 digits"),
    ({"type": "adjust", "side": "A", "kind": "add", "ms": 86_400_001, "reason": "x"},
     "one day"),
    ({"type": "adjust", "side": "A", "kind": "set", "seconds": 10**12, "reason": "x"},
     "one day"),
    ({"type": "adjust", "side": "A", "kind": "explode", "ms": 5, "reason": "x"},
     "Unknown side or kind"),
])
async def test_the_halls_clock_commands_are_bounded_and_the_clock_keeps_running(
        round_, session_cookie, command, fragment):
    board = await database_sync_to_async(round_.boards.get)(number=1)
    hall = await connect(f"/ws/hall/{round_.pk}/", session_cookie)
    await receive(hall, "hall")
    await hall.send_json_to({**command, "board": board.pk})
    message = await receive(hall, "error")
    assert fragment in message["message"], message
    logged = ClockLogEntry.objects.filter(clock__board=board, action__in=["adjust", "finish"])
    assert not await database_sync_to_async(logged.exists)()
    pressed = await database_sync_to_async(services.press)(board, "A", 0, who="player A")
    assert pressed.changed and pressed.snapshot["running"] == "B"
    await hall.disconnect()


async def test_an_arbiter_removed_from_the_event_loses_an_open_hall(round_, arbiter,
                                                                    session_cookie):
    board = await database_sync_to_async(round_.boards.get)(number=1)
    hall = await connect(f"/ws/hall/{round_.pk}/", session_cookie)
    await receive(hall, "hall")
    spectator = await connect(f"/ws/spectate/{board.pk}/", session_cookie)
    await receive(spectator, "snapshot")
    await database_sync_to_async(round_.event.arbiters.remove)(arbiter)

    await spectator.send_json_to({"type": "pause"})
    assert "Only an arbiter" in (await receive(spectator, "error"))["message"]
    await spectator.send_json_to({"type": "press", "side": "A", "press": 0})
    assert "cannot press" in (await receive(spectator, "error"))["message"]
    await hall.send_json_to({"type": "pause", "board": board.pk})
    refusal = await receive(hall, "error")
    assert refusal["fatal"] and "Only an arbiter" in refusal["message"]
    assert (await hall.receive_output(timeout=3))["code"] == 4403
    snapshot = await database_sync_to_async(services.snapshot)(board)
    assert snapshot["running"] == "A" and snapshot["status"] != "paused"
    await spectator.disconnect()


@pytest.mark.parametrize("path", ["/ws/spectate/{}/", "/ws/hall/{}/", "/ws/watch/{}/"])
async def test_an_id_past_every_column_in_a_socket_path_is_refused_with_the_reason(
        round_, session_cookie, path):
    socket = await connect(path.format("9" * 30), session_cookie)
    refusal = await receive(socket, "error")
    assert refusal["fatal"] and (await socket.receive_output(timeout=3))["code"] == 4403
