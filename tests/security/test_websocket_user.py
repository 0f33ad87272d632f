"""The user of a websocket handshake (tournament/site/websocket_user.py): anonymous without a
database call or a session when the handshake carries no session cookie; Channels' lookup
otherwise."""

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tournament.site import websocket_user


def _seen_user(seen: list):
    async def app(scope, receive, send):
        seen.append((scope["user"], "session" in scope))
        await receive()
        await send({"type": "websocket.accept"})

    return websocket_user.user_middleware_stack(app)


@pytest.mark.asyncio
async def test_a_handshake_without_a_session_cookie_is_anonymous_without_a_lookup(monkeypatch):
    async def no_lookup(scope):
        raise AssertionError("the session's user was looked up")

    monkeypatch.setattr("channels.auth.get_user", no_lookup)
    seen: list = []
    communicator = WebsocketCommunicator(_seen_user(seen), "/ws/test/",
                                         headers=[(b"cookie", b"csrftoken=abc; lang=ko")])
    assert (await communicator.connect(timeout=5))[0]
    await communicator.disconnect()
    user, has_session = seen[0]
    assert isinstance(user, AnonymousUser) and not has_session


@pytest.mark.asyncio
async def test_a_session_cookie_is_looked_up_as_channels_does(monkeypatch, settings):
    looked_up = []

    async def lookup(scope):
        looked_up.append(scope["session"].session_key)
        return "the session's user"

    monkeypatch.setattr("channels.auth.get_user", lookup)
    seen: list = []
    cookie = f"{settings.SESSION_COOKIE_NAME}=forged-or-real".encode()
    communicator = WebsocketCommunicator(_seen_user(seen), "/ws/test/",
                                         headers=[(b"cookie", cookie)])
    assert (await communicator.connect(timeout=5))[0]
    await communicator.disconnect()
    assert looked_up == ["forged-or-real"] and seen == [("the session's user", True)]
