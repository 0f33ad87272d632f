"""The halls' share of every clock change: gathered per worker, sent a few times a second.

An arbiter's hall view shows every board of a round and is redrawn at most four times a
second (``HALL_BATCH_S``), yet each change used to reach it as a message of its own: with 1,000
boards, 250 messages a second through the channel layer to every worker with a hall view open,
then to each view, to be merged there. Now each worker gathers the changes it made for
``HALL_BATCH_S`` and sends one message per round (``clock.hall``: each board's latest version
and its snapshot's JSON text, as encoded once by ``services.publish``); the hall socket merges
what the workers send by version and passes it on (``HallConsumer``).

Outside a server (commands, the separate flag timer, synchronous tests) there is no loop to
gather in: the change is sent at once, as a batch of its own.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from channels.layers import get_channel_layer

from clocks import groups, server_context

log = logging.getLogger(__name__)

HALL_BATCH_S = 0.25

#: per round: (board id, version, the snapshot's JSON text) of each board that changed
Items = dict[int, list[tuple[int, int, str]]]


def event(items: list[tuple[int, int, str]]) -> dict[str, Any]:
    return {"type": "clock.hall", "boards": items}


def send(items: Items) -> None:
    """Hand changed boards to this server's feed, or send them now outside a server."""
    if not items:
        return
    loop = server_context.server_loop.get()
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(_feed(loop).add, items)
    else:
        groups.broadcast([(groups.ROUND.name(r), event(b)) for r, b in items.items()])


class _Feed:
    """One event loop's gathered changes, sent ``HALL_BATCH_S`` after the first of them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: dict[int, dict[int, tuple[int, str]]] = {}
        self.scheduled = False

    def add(self, items: Items) -> None:
        for round_id, boards in items.items():
            gathered = self.pending.setdefault(round_id, {})
            for board, version, text in boards:
                current = gathered.get(board)
                if current is None or current[0] <= version:
                    gathered[board] = (version, text)
        if not self.scheduled:
            self.scheduled = True
            self.loop.call_later(HALL_BATCH_S, self._flush)

    def _flush(self) -> None:
        pending, self.pending, self.scheduled = self.pending, {}, False
        task = self.loop.create_task(_send_all(pending))
        _sending.add(task)
        task.add_done_callback(_sent)


_feeds: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Feed] = weakref.WeakKeyDictionary()
_sending: set[asyncio.Task] = set()


def _feed(loop: asyncio.AbstractEventLoop) -> _Feed:
    feed = _feeds.get(loop)
    if feed is None:
        feed = _feeds[loop] = _Feed(loop)
    return feed


async def _send_all(pending: dict[int, dict[int, tuple[int, str]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for round_id, boards in pending.items():
        items = [(board, version, text) for board, (version, text) in boards.items()]
        await layer.group_send(groups.ROUND.name(round_id), event(items))


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("clock hall batch not sent", exc_info=task.exception())
