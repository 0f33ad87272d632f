"""What a clock call knows about the server it runs in: its event loop and its flag timer.

Both are context variables that ``flagtimer.FlagTimerMiddleware`` sets around each ASGI call.
They live here, below both the services and the flag timer, so that neither has to import the
other to reach them (the services wake the timer; the timer calls the services).
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Protocol


class Timer(Protocol):
    def notify(self, deadline: int | None) -> None: ...


#: The event loop of the ASGI server handling the current call, set by
#: ``flagtimer.FlagTimerMiddleware`` around each call. A context variable, not a module global
#: rebound on every call: it follows the call into the worker threads of
#: ``database_sync_to_async`` (asgiref runs them in a copy of the caller's context) and into the
#: tasks the call starts (the embedded flag timer), and it is unset everywhere else (commands,
#: the separate flag timer, synchronous tests), so no loop outlives the call that set it.
server_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("clock_server_loop",
                                                                       default=None)

#: The embedded flag timer of the ASGI call being handled, set by the same middleware: changes
#: made by the call, in whatever worker thread, wake the timer of their own server, and code
#: outside any server (commands, the separate timer, tests) finds none and wakes nothing.
timer: ContextVar[Timer | None] = ContextVar("clock_flag_timer", default=None)


def notify(deadline: int | None = None) -> None:
    """A clock changed: wake the in-process timer if ``deadline`` comes before its next tick.

    Safe from any thread and a no-op where no in-process timer runs (the separate timer
    process polls instead).
    """
    current = timer.get()
    if current is not None:
        current.notify(deadline)
