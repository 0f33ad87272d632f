"""Issue #21: a reissued personal link ends at once, also for a socket already open with it.

The socket opened with the old link is told so (a fatal ``error``) and closed with 4403 as the
change commits, through a channel-layer group of that link (so on every worker), and it gets no
further ``state``: not the opponent's move, not its own seat's new rack.
"""

import random

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from bench.events import create_clock_event
from games.dealt.bot import choose_move
from games.models import OnlineGame
from games.online import play as online
from tests.sockets import (
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    receive,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _started_game() -> OnlineGame:
    arbiter = get_user_model().objects.create_user("linkarbiter", password="pw-link-1")
    round_ = create_clock_event(1, arbiter=arbiter, slug="online-links")
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who="arbiter", user=arbiter)
    return OnlineGame.objects.select_related("board__round__event").get(pk=game.pk)


async def test_a_reissued_link_closes_its_open_socket_at_once_and_sends_nothing_more():
    game = await database_sync_to_async(_started_game)()
    old = await connect(f"/ws/play/{game.token_a}/")
    first = await receive(old, "state")
    assert first["view"]["rack"]
    await database_sync_to_async(online.reissue_seat_token)(game, "A")
    error = await receive(old, "error")
    assert error == {"type": "error", "message": "This player link is not valid.",
                     "fatal": True}
    closed = await old.receive_output(timeout=3)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    game = await database_sync_to_async(OnlineGame.objects.get)(pk=game.pk)
    new = await connect(f"/ws/play/{game.token_a}/")
    view = (await receive(new, "state"))["view"]
    played = await database_sync_to_async(online.play)(
        game, "A", choose_move(view, random.Random(1)), link=game.token_a)
    assert played.error is None
    assert (await receive(new, "state"))["view"]["number"] == 1  # the new link plays on
    assert await old.receive_nothing(timeout=0.5)  # the old one got no state, no rack
    await new.disconnect()


async def test_a_sync_on_a_withdrawn_link_gets_no_state():
    """The same link checked on ``sync`` as on a move: a socket whose close message has not
    arrived yet (another worker, a slow layer) still gets no view."""
    game = await database_sync_to_async(_started_game)()
    socket = await connect(f"/ws/play/{game.token_b}/")
    await receive(socket, "state")
    game.token_b = "withdrawn-in-the-database-only"
    await database_sync_to_async(game.save)(update_fields=["token_b"])
    await socket.send_json_to({"type": "sync"})
    error = await receive(socket, "error")
    assert error["fatal"] and error["message"] == "This player link is not valid."
    closed = await socket.receive_output(timeout=3)
    assert closed["code"] == 4403
