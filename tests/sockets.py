"""Websocket test helpers: a same-origin handshake through the real ASGI application."""

import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from tournament.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # the origin check compares the page's origin with the Host
TABLET = "tablet0000000000000001"  # the board page's device id (it keeps one in the browser)


def board_path(board, device: str | None = TABLET) -> str:
    """The board socket's address as the board page opens it, naming its device."""
    return f"/ws/board/{board.token}/" + ("" if device is None else f"?device={device}")


async def connect(path: str, cookie: bytes | None = None,
                  language: bytes | None = None) -> WebsocketCommunicator:
    """A same-origin socket, with the page's cookies and its ``Accept-Language`` if given."""
    headers = [HOST, ORIGIN] + ([(b"cookie", cookie)] if cookie else []) + (
        [(b"accept-language", language)] if language else [])
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def receive(communicator, kind: str | None = None, timeout: float = 3) -> dict:
    message = await communicator.receive_json_from(timeout=timeout)
    if kind is not None:
        assert message["type"] == kind, message
    return message


async def receive_past(communicator, kind: str, past: tuple[str, ...] = ("state",),
                       timeout: float = 3) -> dict:
    """The next message of ``kind``, past the ``past`` ones: a seat's state follows every
    change of the game's presence, and over Redis one sent as the other seat appeared may
    come after this socket's own first state."""
    while (message := await receive(communicator, timeout=timeout))["type"] in past:
        pass
    assert message["type"] == kind, message
    return message


async def foreign_origin_refused(path: str) -> bool:
    """Whether a handshake from another site's page is denied."""
    communicator = WebsocketCommunicator(application, path,
                                         headers=[HOST, (b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect(timeout=5)
    return not connected


@pytest_asyncio.fixture(autouse=True)
async def close_worker_connections():
    """The consumers' database thread keeps its connection; close it so teardown can drop
    the test database (PostgreSQL refuses while a session is open). Autouse in every module
    that imports it."""
    yield
    await database_sync_to_async(connections.close_all)()
