"""The channel-layer groups the sockets join, the messages each carries, and the sending.

A message sent to a group reaches every socket in it, whatever its kind: an online game's seat
and spectator sockets are in its board's group beside the board page's, so a message only the
board page understood once closed every socket of a game with 1011, on every worker. Each group
therefore declares its messages here (``Group``), each consumer declares the groups it joins
(``listens``, checked as it joins), ``broadcast`` refuses a message its group does not declare,
and tests/clocks/test_groups.py checks that every consumer handles every message of every
group it joins (or ignores it on purpose, with a handler that says so).

Sending: ``broadcast`` hands ``(group, message)`` pairs to the channel layer after a commit,
without waiting inside a server (the database thread goes on), waiting elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from clocks import server_context

log = logging.getLogger(__name__)

#: every group declared, by its prefix
DECLARED: dict[str, Group] = {}


@dataclass(frozen=True)
class Group:
    """A kind of group (``prefix.<key>``: one per board, round, personal link) and the message
    types sent to it."""

    prefix: str
    messages: frozenset[str]
    about: str

    def __post_init__(self) -> None:
        DECLARED[self.prefix] = self

    def name(self, key: object) -> str:
        return f"{self.prefix}.{key}"

    def holds(self, name: str) -> bool:
        return name.startswith(self.prefix + ".")


BOARD = Group("clock.board", frozenset({"clock.snapshot", "clock.holder"}),
              "every socket of one board: its board pages, spectators, an online game's seats")
ROUND = Group("clock.round", frozenset({"clock.hall", "clock.link"}),
              "the arbiters' hall views of one round")
#: not a group: what is sent to one board socket's own channel (a newer socket of its device
#: replaces it), declared the same way
DEVICE_SOCKET = Group("clock.device", frozenset({"clock.replaced"}),
                      "one board page's socket, replaced by a newer one of its device")


class UndeclaredMessage(Exception):
    """A message sent to a group that does not declare it (a programming error)."""


def group_of(name: str) -> Group | None:
    return DECLARED.get(name.rsplit(".", 1)[0])


def broadcast(events: list[tuple[str, dict[str, Any]]]) -> None:
    """Send ``(group, event)`` pairs on the channel layer (call it after commit).

    Inside a server the sending is handed to the server's event loop without waiting: the
    database thread, which every consumer of the process shares, goes on with the next command
    instead of waiting for the channel layer (clients order what they get by version).
    Elsewhere (commands, the separate flag timer, sync tests) it sends and waits.
    """
    for group, event in events:
        declared = group_of(group)
        if declared is None or event["type"] not in declared.messages:
            raise UndeclaredMessage(f"{event['type']!r} is not a message of group {group!r}")
    layer = get_channel_layer()
    if layer is None or not events:
        return
    loop = server_context.server_loop.get()
    if loop is not None and loop.is_running() and not _in_loop(loop):
        future = asyncio.run_coroutine_threadsafe(_send_all(layer, events), loop)
        future.add_done_callback(_log_failure)
    elif _loop_here():
        # sync code called under another event loop (a browser test drives the page from the
        # thread that runs Playwright's): AsyncToSync cannot run here, a helper thread can
        sender = threading.Thread(target=async_to_sync(_send_all), args=(layer, events))
        sender.start()
        sender.join()
    else:
        async_to_sync(_send_all)(layer, events)


def _loop_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _in_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("clock message not broadcast", exc_info=future.exception())


async def _send_all(layer, events: list[tuple[str, dict[str, Any]]]) -> None:
    for group, event in events:
        await layer.group_send(group, event)
