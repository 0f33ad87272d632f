"""The flag timer: announces a flag when a side's time runs out and nobody presses.

A flag is already *derived* by the core (a state looked at after a deadline shows the flag at
exactly the deadline), so the timer only has to **store and broadcast** it. It needs no memory:
each round it asks the database for the clocks whose ``deadline_ms`` has passed, stores their
flags through ``services.apply_flags`` (log entry by "flag timer"), then sleeps until the next
deadline, or the poll interval, whichever comes first. A restarted timer therefore loses nothing:
the remaining times follow from the stored states and the current time. After the flags, each
tick runs the tick listeners other apps registered (``register_tick_listener``: the events that
run themselves, ``autopilot.runner.tick``), so that the one process that owns the timer owns
them too.

Exactly one owner per deployment:

- embedded (one ASGI process): ``FlagTimerMiddleware`` wraps the ASGI application and starts an
  asyncio task in the server's event loop on the ASGI lifespan startup (uvicorn) or on the first
  connection of any kind (daphne/runserver, which send no lifespan events). Changes made in the
  same process wake it at once through ``notify`` so that a deadline closer than the poll interval
  is met exactly;
- scale-out: ``manage.py run_flag_timer`` (``run_forever``) in one process, workers started with
  ``FLAG_TIMER=off``. Two timers by mistake do no harm: the services lock the row and store a
  flag only once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import ClassVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Min

from clocks import restart, server_context, services
from clocks.models import Clock
from tournament.models import Board

log = logging.getLogger(__name__)

POLL_S = 1.0
MIN_SLEEP_S = 0.005


def enabled() -> bool:
    return bool(getattr(settings, "FLAG_TIMER", True))


def next_deadline() -> int | None:
    """The earliest deadline among running clocks, straight from the indexed column."""
    return Clock.objects.filter(deadline_ms__isnull=False).aggregate(d=Min("deadline_ms"))["d"]


#: What other apps want done once a flag is stored (registered in their ``AppConfig.ready``):
#: the games app's online games stop the flagged seat, and end the game when both have fallen.
_flag_listeners: dict[str, Callable[[Board], None]] = {}


def register_flag_listener(name: str, listener: Callable[[Board], None]) -> None:
    _flag_listeners[name] = listener


#: What other apps want done at every tick, after the flags (a self-running event's next step:
#: ``autopilot``), so that the one process that owns the timer owns them too.
_tick_listeners: dict[str, Callable[[], None]] = {}
#: The timer may tick every few milliseconds near a flag; in its own loops a listener is run at
#: most this often (seconds).
LISTENER_EVERY_S = 1.0


def register_tick_listener(name: str, listener: Callable[[], None]) -> None:
    _tick_listeners[name] = listener


def tick(*, background: bool = False) -> tuple[list[int], int | None]:
    """Store every flag due by now, then run the tick listeners; return the flagged boards' ids
    and the next deadline. ``background`` (the timer's own loops): each listener runs in a
    thread of its own (``_ListenerThread``), so that a long one (a self-running event pairing
    a thousand players: most of a minute) never holds up the flags."""
    now = services.now_ms()
    if restart.beat(now):  # once a second: the server is alive; was it down before?
        restart.give_back(now)  # before the flags: none falls in the time it was down
    flagged = []
    due = Board.objects.filter(clock__deadline_ms__lte=now).select_related("round__event")
    for board in due:
        try:
            if not services.apply_flags(board).changed:
                continue
        except services.ClockRefused:
            log.warning("flag timer: board %s refused the flag", board.pk)
            continue
        flagged.append(board.pk)
        for name, listener in _flag_listeners.items():
            try:
                listener(board)
            except Exception:  # one listener's failure must not stop the timer
                log.exception("flag timer: listener %s failed on board %s", name, board.pk)
    for name, listener in _tick_listeners.items():
        if background:
            _ListenerThread.wake(name, listener, time.monotonic())
        else:
            _call(name, listener)
    return flagged, next_deadline()


def _call(name: str, listener: Callable[[], None]) -> None:
    try:
        listener()
    except Exception:
        log.exception("flag timer: tick listener %s failed", name)


class _ListenerThread:
    """One thread per tick listener for the life of the timer: woken by each tick, it runs the
    listener once (ticks that come while it runs make one more run, not one each), and keeps
    its database connection between runs, as the timer's loop does."""

    _running: ClassVar[dict[str, _ListenerThread]] = {}

    def __init__(self, name: str, listener: Callable[[], None]) -> None:
        self.name, self.listener = name, listener
        self.woken_at: float | None = None
        self.event = threading.Event()
        self.thread = threading.Thread(target=self.run, name=f"tick-{name}", daemon=True)

    @classmethod
    def wake(cls, name: str, listener: Callable[[], None], now: float) -> None:
        """Wake the listener's thread, unless it was woken less than ``LISTENER_EVERY_S`` ago."""
        worker = cls._running.get(name)
        if worker is None or not worker.thread.is_alive() or worker.listener is not listener:
            worker = cls._running[name] = cls(name, listener)
            worker.thread.start()
        elif worker.woken_at is not None and now - worker.woken_at < LISTENER_EVERY_S:
            return
        worker.woken_at = now
        worker.event.set()

    def run(self) -> None:
        while self._running.get(self.name) is self:
            self.event.wait()
            self.event.clear()
            _call(self.name, self.listener)
            close_old_connections()  # a broken or outlived connection goes; a good one stays


def sleep_seconds(deadline: int | None, now: int, poll_s: float = POLL_S) -> float:
    """How long to sleep: until the deadline, but never longer than the poll interval."""
    if deadline is None:
        return poll_s
    return min(poll_s, max(MIN_SLEEP_S, (deadline - now) / 1000))


# --- the separate process (manage.py run_flag_timer) ---------------------------------------


def run_forever(stop: threading.Event | None = None, poll_s: float = POLL_S) -> None:
    """Tick until ``stop`` is set; database errors are logged and retried, never fatal."""
    stop = stop or threading.Event()
    while not stop.is_set():
        deadline = None
        try:
            flagged, deadline = tick(background=True)
            if flagged:
                log.info("flag timer: flags stored on boards %s", flagged)
        except Exception:
            log.exception("flag timer: tick failed; retrying")
            close_old_connections()
        stop.wait(sleep_seconds(deadline, services.now_ms(), poll_s))


# --- inside the server process ------------------------------------------------------------


class _InProcess:
    """The asyncio task of the embedded timer and how to wake it from another thread."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.wake: asyncio.Event | None = None
        self.wake_at: int | None = None  # when the sleeping task will tick next (ms)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is not None and not self.task.done() and self.loop is loop:
            return
        self.loop, self.wake = loop, asyncio.Event()
        self.task = loop.create_task(self.run(), name="flag-timer")
        log.info("flag timer started in this server process")

    async def run(self) -> None:
        while True:
            deadline = None
            try:
                _flagged, deadline = await database_sync_to_async(tick)(background=True)
            except Exception:
                log.exception("flag timer: tick failed; retrying")
            now = services.now_ms()
            delay = sleep_seconds(deadline, now)
            self.wake_at = now + int(delay * 1000)
            assert self.wake is not None
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), delay)

    def notify(self, deadline: int | None) -> None:
        loop, wake = self.loop, self.wake
        if loop is None or wake is None or loop.is_closed() or deadline is None:
            return
        if self.wake_at is None or deadline < self.wake_at:
            loop.call_soon_threadsafe(wake.set)

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _beat_forever() -> None:
    """A worker without the timer (scale-out) writes that it is alive, once a second."""
    while True:
        try:
            await database_sync_to_async(restart.beat)(services.now_ms())
        except Exception:
            log.exception("heartbeat not written")
        await asyncio.sleep(restart.BEAT_S)


class FlagTimerMiddleware:
    """ASGI wrapper owning the embedded flag timer (see the module docstring).

    The timer belongs to the wrapper (one per application, so one per server process), not to
    the module. Around each call the wrapper makes the timer and the server's event loop known
    to what the call runs (``server_context``), instead of rebinding
    module globals on every call.
    """

    def __init__(self, app) -> None:
        self.app = app
        self.timer = _InProcess()
        self.heartbeat: asyncio.Task | None = None
        restart.ready(services.now_ms())  # the application is built: the server listens next

    async def __call__(self, scope, receive, send):
        loop_token = server_context.server_loop.set(asyncio.get_running_loop())
        timer_token = server_context.timer.set(self.timer)
        try:
            if scope["type"] == "lifespan":
                return await self._lifespan(receive, send)
            self.ensure_started()
            return await self.app(scope, receive, send)
        finally:
            server_context.timer.reset(timer_token)
            server_context.server_loop.reset(loop_token)

    def ensure_started(self) -> None:
        """Start the timer in the running event loop (once), unless FLAG_TIMER is off; then
        the process only writes that it is alive (``clocks.restart``), once a second."""
        if enabled():
            self.timer.start()
        elif self.heartbeat is None or self.heartbeat.done():
            self.heartbeat = asyncio.get_running_loop().create_task(_beat_forever())

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.ensure_started()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.timer.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
