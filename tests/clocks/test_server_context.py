"""What the ASGI wrapper tells the code a call runs: its server's event loop and flag timer.

Both are context variables set around each call (``FlagTimerMiddleware``), not module globals:
visible in the worker threads the call starts (where the services publish from), gone once the
call returns, and never seen by code outside a server.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from clocks import flagtimer, server_context


def seen_in_a_worker_thread() -> tuple:
    return server_context.server_loop.get(), server_context.timer.get()


@pytest.mark.asyncio
async def test_a_call_sees_its_server_loop_and_timer_in_worker_threads():
    seen = []

    async def app(scope, receive, send):
        seen.append(await sync_to_async(seen_in_a_worker_thread)())

    wrapper = flagtimer.FlagTimerMiddleware(app)
    await wrapper({"type": "http"}, None, None)
    assert seen == [(asyncio.get_running_loop(), wrapper.timer)]
    assert (server_context.server_loop.get(), server_context.timer.get()) == (None, None)

