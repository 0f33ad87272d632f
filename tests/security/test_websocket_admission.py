"""A hall's Wi-Fi coming back: a worker opens its websockets a few at a time, newest first, and
denies a handshake that waited past its page's patience (tournament/site/websocket_admission.py);
daphne listens with a backlog that holds a hall's reconnections (tournament/site/daphne_command.py).
How fast a hall comes back is measured by ``bench_clocks --reconnect``, not asserted here."""

import asyncio

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from tournament.management.commands import serve
from tournament.site import websocket_admission
from tournament.site.daphne_command import LISTEN_BACKLOG, daphne_arguments
from tournament.site.websocket_admission import AdmissionGate, Gate


@pytest.mark.asyncio
async def test_the_gate_gives_its_places_to_the_newest_waiter_first(settings):
    settings.WEBSOCKET_HANDSHAKES_AT_ONCE = 1
    gate = Gate()
    assert await gate.enter()
    old = asyncio.create_task(gate.enter())
    new = asyncio.create_task(gate.enter())
    await asyncio.sleep(0.01)
    gate.leave()
    assert await new is True
    assert not old.done()  # still waiting: the newest went first
    gate.leave()
    assert await old is True
    gate.leave()  # the last holder leaves: the place is free
    assert gate.free == 1 and not gate.waiting


@pytest.mark.asyncio
async def test_a_waiter_past_its_patience_gives_up_and_leaves_no_trace(monkeypatch, settings):
    settings.WEBSOCKET_HANDSHAKES_AT_ONCE = 1
    monkeypatch.setattr(websocket_admission, "PATIENCE_S", 0.05)
    gate = Gate()
    assert await gate.enter()
    assert await gate.enter() is False
    assert not gate.waiting
    gate.leave()
    assert gate.free == 1


@pytest.mark.asyncio
async def test_a_waiter_whose_task_ends_loses_no_place(settings):
    settings.WEBSOCKET_HANDSHAKES_AT_ONCE = 1
    gate = Gate()
    assert await gate.enter()
    waiter = asyncio.create_task(gate.enter())
    await asyncio.sleep(0.01)
    waiter.cancel()  # as daphne ends an application instance it gave up on
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert not gate.waiting
    gate.leave()
    assert gate.free == 1  # the place came back, not given to the gone waiter


class Held(AsyncWebsocketConsumer):
    """Accepts once the test lets it (``release``): a handshake that is slow to answer."""

    release: asyncio.Event

    async def connect(self):
        await self.release.wait()
        await self.accept()


@pytest.mark.asyncio
async def test_a_handshake_that_waits_past_its_patience_is_denied_and_an_answer_frees_a_place(
        monkeypatch, settings):
    settings.WEBSOCKET_HANDSHAKES_AT_ONCE = 1
    monkeypatch.setattr(websocket_admission, "PATIENCE_S", 0.2)
    Held.release = asyncio.Event()
    app = AdmissionGate(Held.as_asgi())
    first = WebsocketCommunicator(app, "/ws/test/")
    opening = asyncio.create_task(first.connect(timeout=5))
    await asyncio.sleep(0.05)
    second = WebsocketCommunicator(app, "/ws/test/")
    connected, code = await second.connect(timeout=5)
    # denied unopened, not refused (4403): its page tries again after its backoff
    assert not connected and code != 4403
    Held.release.set()
    assert (await opening)[0]  # the first is answered, and its place is free again
    third = WebsocketCommunicator(app, "/ws/test/")
    assert (await third.connect(timeout=5))[0]
    await first.disconnect()
    await third.disconnect()


@pytest.mark.asyncio
async def test_http_passes_the_gate_untouched(settings):
    settings.WEBSOCKET_HANDSHAKES_AT_ONCE = 0
    seen = []

    async def inner(scope, receive, send):
        seen.append(scope["type"])

    await AdmissionGate(inner)({"type": "http"}, None, None)
    assert seen == ["http"]


@pytest.mark.parametrize(("bind", "endpoint"), [
    ("0.0.0.0", "tcp:port=8000:interface=0.0.0.0"),
    ("::", r"tcp:port=8000:interface=\:\:"),
])
def test_daphne_listens_with_a_backlog_for_a_whole_hall(bind, endpoint):
    arguments = daphne_arguments(bind, 8000)
    assert arguments[:2] == ["-e", f"{endpoint}:backlog={LISTEN_BACKLOG}"]
    assert LISTEN_BACKLOG >= 2000  # a 1,000-board hall's player sockets, all at once
    assert "--websocket-max-message-size" in arguments
    assert arguments[-1] == "tournament.asgi:application"


def test_make_run_serves_with_those_arguments(monkeypatch, settings):
    settings.PUBLIC_BASE_URL = ""
    ran = []
    monkeypatch.setattr("daphne.cli.CommandLineInterface.run", lambda self, args: ran.append(args))
    serve.Command().handle(port=8123, bind="127.0.0.1")
    assert ran == [daphne_arguments("127.0.0.1", 8123)]
