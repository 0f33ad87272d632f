"""How many websockets a worker opens at once: a hall's Wi-Fi coming back must open them all.

When the hall's network returns, every board page opens its socket again within a second. An
opening takes a few calls on the process's one database thread (the session's user, the
board, its link, its snapshot), and the openings of a thousand pages interleave there, so
each waits behind nearly all the others and every one finishes late: after the 5 s in which
daphne and the board page (static/js/clock.js) expect the handshake's answer. Every opening
then fails, the pages try again, and the worker does the same useless work once more
(``bench_clocks --reconnect``: 0 of 2,000 sockets reopened at 1,000 boards, docs/benchmarks.md).

So a worker lets ``WEBSOCKET_HANDSHAKES_AT_ONCE`` (32) handshakes through at a time, each until
it is answered (accepted or refused); what the socket does once open is not held up. The
newest handshake waiting goes first: it has the most of its 5 s left, while the oldest would
most likely be answered after its page gave up, the worker's time spent for nothing. A
handshake that waits ``PATIENCE_S`` is denied unopened (HTTP 403), and its page comes back after
its backoff as a new one. The hall then comes back at the rate the worker can open sockets
(docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import weakref

from django.conf import settings

PATIENCE_S = 4.0  # daphne and the board page give a handshake 5 s

ANSWERS = frozenset({"websocket.accept", "websocket.close"})


class Gate:
    """``WEBSOCKET_HANDSHAKES_AT_ONCE`` places (enough to keep the database thread and the
    event loop busy, not a queue), given to the newest waiter first; a waiter gives up after
    ``PATIENCE_S``. One per event loop."""

    def __init__(self) -> None:
        self.free = settings.WEBSOCKET_HANDSHAKES_AT_ONCE
        self.waiting: list[asyncio.Future] = []  # oldest first

    async def enter(self) -> bool:
        """Wait for a place (True), or give up after ``PATIENCE_S`` (False)."""
        if self.free:
            self.free -= 1
            return True
        place = asyncio.get_running_loop().create_future()
        self.waiting.append(place)
        try:
            return await asyncio.wait_for(asyncio.shield(place), PATIENCE_S)
        except TimeoutError:
            self._give_up(place)
            return False
        except asyncio.CancelledError:  # the handshake's task ended (the server shut it down)
            self._give_up(place)
            raise

    def _give_up(self, place: asyncio.Future) -> None:
        """A waiter leaves: a place given to it as it gave up goes on, else none is lost."""
        if place.done():
            self.leave()
        else:
            self.waiting.remove(place)

    def leave(self) -> None:
        while self.waiting:
            place = self.waiting.pop()  # the newest
            if not place.done():
                place.set_result(True)
                return
        self.free += 1


class AdmissionGate:
    """ASGI middleware: websocket handshakes of this worker through ``Gate`` places."""

    _gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Gate] = (
        weakref.WeakKeyDictionary())

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = Gate()
        if not await gate.enter():
            await receive()  # the handshake (websocket.connect), then its denial
            return await send({"type": "websocket.close"})
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                gate.leave()

        def answered(message):
            """Daphne's ``send`` for the message, awaited by the caller: every frame of the
            socket passes here, so past the handshake's answer it costs one test."""
            if held and message["type"] in ANSWERS:
                release()
            return send(message)

        try:
            return await self.inner(scope, receive, answered)
        finally:
            release()
