"""Issue #12: a websocket handshake must come from this site's own scheme://host:port (or a
trusted origin); channels' WebsocketCommunicator plays the browser."""

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.db import connections

from tournament.asgi import application
from tournament.site.websocket_origin import SameOriginValidator, parse_origin


class Accept(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()


async def _opens(headers: list[tuple[str, str]], *, scheme: str = "ws", app=None) -> bool:
    communicator = WebsocketCommunicator(
        app or SameOriginValidator(Accept.as_asgi()), "/ws/test/",
        headers=[(k.encode(), v.encode()) for k, v in headers])
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize(("host", "origin", "opens"), [
    ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
    ("localhost:8000", "http://localhost:8000", True),
    ("[::1]:8000", "http://[::1]:8000", True),
    ("localhost", "http://localhost:80", True),
    ("localhost:8000", "http://localhost:9999", False),  # the issue: another port
    ("localhost:8000", "http://localhost", False),
    ("127.0.0.1:8000", "https://127.0.0.1:8000", False),  # another scheme
    ("127.0.0.1:8000", "http://localhost:8000", True),  # issue #21: both loopback names
    ("localhost:8000", "http://127.0.0.1:8000", True),
    ("[::1]:8000", "http://localhost:8000", True),
    ("127.0.0.1:8000", "http://localhost:9999", False),  # but not another port
    ("127.0.0.1:8000", "https://localhost:8000", False),  # nor another scheme
    ("127.0.0.1:8000", "http://localhost.evil.example:8000", False),
    ("127.0.0.1:8000", "http://192.168.1.5:8000", False),  # another host
    ("evil.example", "http://evil.example", False),  # not in ALLOWED_HOSTS
    ("127.0.0.1:8000", "null", False),
    ("127.0.0.1:8000", "", False),
])
@pytest.mark.asyncio
async def test_the_page_origin_must_be_the_sites_own(host, origin, opens):
    headers = [("host", host)] + ([("origin", origin)] if origin else [])
    assert await _opens(headers) is opens


@pytest.mark.asyncio
async def test_a_loopback_origin_does_not_open_a_public_host(settings):
    settings.ALLOWED_HOSTS = ["td.example.org"]
    assert not await _opens([("host", "td.example.org"), ("origin", "http://localhost")])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_foreign_origin_is_denied_at_the_handshake(board):
    """The documented refusal (docs/online-protocol.md): the handshake is closed before it is
    accepted, which the ASGI server answers with HTTP 403 (a real daphne:
    tests/security/online/test_online_protocol_holes.py); no 4403, no message."""
    for headers in ([(b"host", b"127.0.0.1:8000"), (b"origin", b"http://evil.example")],
                    [(b"host", b"127.0.0.1:8000")]):
        communicator = WebsocketCommunicator(application, f"/ws/board/{board.token}/",
                                             headers=headers)
        connected, code = await communicator.connect(timeout=5)
        assert not connected and code != 4403
    await database_sync_to_async(connections.close_all)()


@pytest.mark.asyncio
async def test_without_a_host_header_nothing_opens():
    assert not await _opens([("origin", "http://127.0.0.1:8000")])


@pytest.mark.asyncio
async def test_wss_means_https(settings):
    settings.ALLOWED_HOSTS = ["td.example.org"]
    assert await _opens([("host", "td.example.org"), ("origin", "https://td.example.org")],
                        scheme="wss")
    assert not await _opens([("host", "td.example.org"), ("origin", "http://td.example.org")],
                            scheme="wss")


@pytest.mark.asyncio
async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.ALLOWED_HOSTS = ["td.example.org"]
    headers = [("host", "td.example.org"), ("origin", "https://td.example.org"),
               ("x-forwarded-proto", "https")]
    assert not await _opens(headers)  # the header is ignored unless the proxy is trusted
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await _opens(headers)


@pytest.mark.asyncio
async def test_trusted_origins_may_connect(settings):
    settings.ALLOWED_HOSTS = ["td.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://clock.example.org", "https://*.club.example"]
    host = ("host", "td.example.org")
    assert await _opens([host, ("origin", "https://clock.example.org")])
    assert await _opens([host, ("origin", "https://hall.club.example")])
    assert not await _opens([host, ("origin", "http://clock.example.org")])
    assert not await _opens([host, ("origin", "https://clock.example.org:8443")])
    assert not await _opens([host, ("origin", "https://club.example.evil")])


def test_origins_parse_with_default_ports():
    assert parse_origin("https://TD.example.org") == ("https", "td.example.org", 443)
    assert parse_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert parse_origin("ftp://x.example") is None
    assert parse_origin("http://x.example:99999") is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_real_application_refuses_another_port_of_the_same_host(board):
    path = f"/ws/board/{board.token}/"
    try:
        for origin, opens in (("http://localhost:9999", False), ("http://localhost:8000", True)):
            communicator = WebsocketCommunicator(application, path, headers=[
                (b"host", b"localhost:8000"), (b"origin", origin.encode())])
            connected, _ = await communicator.connect(timeout=5)
            assert connected is opens, origin
            await communicator.disconnect()
    finally:
        await database_sync_to_async(connections.close_all)()
