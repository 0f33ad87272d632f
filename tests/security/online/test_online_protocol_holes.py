"""Issue #21, the online protocol's smaller holes: an oversized frame, the last move's time, a
move numbered ahead of the game.

- A message over ``WEBSOCKET_MESSAGE_LIMIT`` (64 KiB) gets an ``error`` and the socket stays
  open, also past daphne's own 1 MiB default (which cut the connection with 1006 and no word):
  the server started as docs/deployment.md starts it takes messages up to 4 MiB.
- The game's last placement carries its clock note (``@M:SS``), as every other turn does.
- A move numbered ahead of the game is refused with what happened, not "sent after".
"""

import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections

from bench.events import create_clock_event
from bench.servers import AsgiServer
from games.dealt.bot import choose_move
from games.engine import parse_record
from games.models import GameRecord, OnlineGame
from games.online import play as online
from tests.clocks.servers import wait_for_other_sessions_to_end
from tests.sockets import (
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    receive,
)
from tournament import services

pytestmark = pytest.mark.django_db(transaction=True)

OVER_A_MIB = 1024 * 1024 + 4096  # what the probe sent


def _started_game(slug: str) -> OnlineGame:
    arbiter = get_user_model().objects.create_user(f"{slug}-arbiter", password="pw-holes-1")
    round_ = create_clock_event(1, arbiter=arbiter, slug=slug)
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who="arbiter", user=arbiter)
    return OnlineGame.objects.select_related("board__round__event").get(pk=game.pk)


def _too_long(size: int) -> str:
    return json.dumps({"type": "sync", "padding": "x" * size})


@pytest.mark.asyncio
async def test_an_oversized_message_is_refused_with_an_error_and_the_socket_stays():
    game = await database_sync_to_async(_started_game)("frames-in-process")
    socket = await connect(f"/ws/play/{game.token_a}/")
    await receive(socket, "state")
    for size in (settings.WEBSOCKET_MESSAGE_LIMIT, OVER_A_MIB):
        await socket.send_to(text_data=_too_long(size))
        error = await receive(socket, "error")
        assert "the limit is 65536 bytes" in error["message"] and "fatal" not in error
    await socket.send_json_to({"type": "sync"})
    assert (await receive(socket, "state"))["view"]["number"] == 0
    await socket.disconnect()


def test_the_server_as_deployed_answers_a_frame_over_a_mib_and_keeps_the_socket():
    """Also the handshake of a page of another site, and one on a path no route takes (issue
    #35: it was HTTP 500), as a client library sees them."""
    websockets = pytest.importorskip("websockets.asyncio.client")
    from websockets.exceptions import InvalidStatus
    game = _started_game("frames-daphne")
    server = AsgiServer()

    async def probe() -> list[dict]:
        with pytest.raises(InvalidStatus) as denied:  # the origin check: HTTP 403, no socket
            await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/play/{game.token_a}/",
                                     origin="http://evil.example", open_timeout=20)
        assert denied.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as unknown:  # no route: HTTP 403, not 500
            await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/watch/abc/",
                                     origin=f"http://127.0.0.1:{server.port}", open_timeout=20)
        assert unknown.value.response.status_code == 403
        async with websockets.connect(
                f"ws://127.0.0.1:{server.port}/ws/play/{game.token_a}/",
                origin=f"http://127.0.0.1:{server.port}", open_timeout=20) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            await ws.send(_too_long(OVER_A_MIB))
            error = json.loads(await asyncio.wait_for(ws.recv(), 20))
            await ws.send(json.dumps({"type": "sync"}))
            again = json.loads(await asyncio.wait_for(ws.recv(), 20))
            return [first, error, again]

    try:
        server.wait_listening()
        first, error, again = asyncio.run(probe())
    finally:
        server.stop()
        connections.close_all()
        wait_for_other_sessions_to_end()
    assert first["type"] == "state"
    assert error["type"] == "error" and "the limit is 65536 bytes" in error["message"]
    assert again["type"] == "state"


def test_the_last_move_of_a_finished_game_has_its_clock_note(clock_time):
    game = _started_game("last-note")
    rng = random.Random(3)
    while True:
        seat = online.view(game, "A")["to_act"]
        if seat is None:
            break
        clock_time.now += 2000
        played = online.play(game, seat, choose_move(online.view(game, seat), rng))
        assert played.error is None, played.error
    record = parse_record(GameRecord.objects.get(board=game.board).text)
    turns = [a for a in record.actions if a.kind in ("place", "swap")]
    last = turns[-1]
    assert last.kind == "place" and last.clock is not None
    assert 0 < last.clock <= 600
    ends = [a for a in turns if a.clock is not None]
    assert ends and ends[-1] is last


@pytest.mark.asyncio
async def test_a_move_numbered_ahead_of_the_game_says_what_happened():
    game = await database_sync_to_async(_started_game)("ahead")
    socket = await connect(f"/ws/play/{game.token_a}/")
    view = (await receive(socket, "state"))["view"]
    move = choose_move(view, random.Random(1))
    await socket.send_json_to({"type": "move", **{k: v for k, v in move.items() if k != "seat"},
                               "number": 5})
    refused = await receive(socket, "refused")
    assert refused["message"] == ("this move answers move 5, but the game is at move 0: the "
                                  "client is ahead of the game; nothing changed, reload the game")
    assert refused["view"]["number"] == 0
    await socket.disconnect()


def _drafted_online_round_board_id() -> int:
    arbiter = get_user_model().objects.create_user("draft-arbiter", password="pw-draft-1")
    event = services.create_event(name="Draft Online", arbiter=arbiter, rounds_planned=3)
    for name in ("Ada", "Ben"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)  # a draft: dealt online before publication
    return online.mark_online(round_, user=arbiter)[0].board_id


@pytest.mark.asyncio
async def test_the_watch_socket_of_an_unpublished_round_says_what_the_document_says():
    board_id = await database_sync_to_async(_drafted_online_round_board_id)()
    socket = await connect(f"/ws/watch/{board_id}/")
    error = await receive(socket, "error")
    assert error == {"type": "error", "message": "There is no online game on this board.",
                     "fatal": True}
    closed = await socket.receive_output(timeout=3)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
