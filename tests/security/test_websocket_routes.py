"""Issue #35, item 3: a websocket handshake on a path no route takes is denied (HTTP 403).

Channels' router raised "No route found", which the server answered with HTTP 500. Now the
router's last route denies every other path before any consumer runs: the application's first
answer is ``websocket.close``, never an accept, which the server answers with 403 (a real
daphne: tests/security/online/test_online_protocol_holes.py). Played on the real application,
behind the admission gate, the origin check and the session stack."""

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.urls import path, register_converter

from tournament.asgi import application
from tournament.site.websocket_routes import router

SAME_ORIGIN = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]

UNKNOWN = ["/ws/watch/abc/", "/ws/nothing/", "/ws/", "/", "/ws/watch/1/more/", "/ws/board/",
           "/ws/hall/-1/", "/ws/spectate/1.5/", "/ws/play/a/b/", "/ws/watch/١٢/",
           "/ws/watch/%00/", "/ws/" + "x" * 5000 + "/"]


class Even:
    """A converter that refuses odd numbers in ``to_python``, after its regex matched."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        if int(value) % 2:
            raise ValueError("odd")
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(Even, "trust35-even")


class Accept(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()


async def _first_answer(app, url: str, headers=SAME_ORIGIN) -> dict:
    """The application's first message to the server for a handshake on ``url``."""
    communicator = WebsocketCommunicator(app, url, headers=headers)
    await communicator.send_input({"type": "websocket.connect"})
    answer = await communicator.receive_output(timeout=5)
    await communicator.disconnect()
    return answer


@pytest.mark.parametrize("url", UNKNOWN)
@pytest.mark.asyncio
async def test_an_unknown_path_is_denied_before_it_is_accepted(url):
    assert (await _first_answer(application, url))["type"] == "websocket.close"


@pytest.mark.asyncio
async def test_a_route_whose_converter_refuses_the_value_is_denied():
    app = router([path("ws/even/<trust35-even:n>/", Accept.as_asgi())])
    assert (await _first_answer(app, "/ws/even/2/"))["type"] == "websocket.accept"
    assert (await _first_answer(app, "/ws/even/3/"))["type"] == "websocket.close"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_denied_with_a_session_cookie_and_the_known_routes_still_answer():
    """Through Channels' session stack too; a known route still reaches its consumer, which
    accepts and refuses with its reason (4403) what it cannot open."""
    with_cookie = [*SAME_ORIGIN, (b"cookie", b"sessionid=not-a-session")]
    assert (await _first_answer(application, "/ws/watch/abc/", with_cookie))["type"] \
        == "websocket.close"
    communicator = WebsocketCommunicator(application, "/ws/watch/999999/", headers=SAME_ORIGIN)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    error = await communicator.receive_json_from(timeout=5)
    assert error["fatal"] and "no online game" in error["message"]
    assert (await communicator.receive_output(timeout=5))["code"] == 4403
    await communicator.disconnect()
    await database_sync_to_async(connections.close_all)()
