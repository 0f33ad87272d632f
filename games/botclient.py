"""A bot that plays one seat of an online game through the documented websocket protocol.

It is a client like any other (docs/online-protocol.md): it opens its seat's personal link,
reads ``state`` messages and, whenever its seat is to act in a position it has not acted in
yet, sends the random legal move that :func:`games.dealt.bot.choose_move` picks from the view.
Used by ``simulate_online`` and ``online_bot`` (practice against the bot); needs the
``websockets`` client (requirements-dev.txt).
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from games.dealt.bot import choose_move


class BotError(Exception):
    """The server refused a bot's move or the link (a bug or a misconfiguration)."""


@dataclass(frozen=True)
class SeatGame:
    """What a seat saw: the first view (with the commitment) and the last (with the seed)."""

    first: dict[str, Any]
    last: dict[str, Any]


async def open_socket(url: str, path: str):
    """A websocket to ``path`` on the server at ``url``, with that server as the page origin."""
    from websockets.asyncio.client import connect

    base = urlparse(url)
    scheme = "wss" if base.scheme == "https" else "ws"
    return await connect(f"{scheme}://{base.netloc}{path}",
                         origin=f"{base.scheme}://{base.netloc}", open_timeout=30,
                         ping_interval=None, max_size=2**22)


async def play_seat(url: str, token: str, rng: random.Random, *,
                    timeout: float = 60) -> SeatGame:
    """Play the seat of ``token`` until the game is over."""
    socket = await open_socket(url, f"/ws/play/{token}/")
    first = None
    acted: set[int] = set()  # the move numbers (positions) this seat has acted in
    seen = -1
    try:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
            if message["type"] in ("error", "refused"):
                raise BotError(f"{message['type']}: {message['message']}")
            if message["type"] != "state":
                continue
            view = message["view"]
            first = first or view
            if view["over"]:
                return SeatGame(first, view)
            number = view["number"]
            if number < seen:  # the arbiter took a flag back: positions after it are undone
                acted = {n for n in acted if n < number}
            seen = number
            if view["to_act"] == view["seat"] and number not in acted:
                move = choose_move(view, rng)
                acted.add(number)
                await socket.send(json.dumps(
                    {"type": "move", **{k: v for k, v in move.items() if k != "seat"}}))
    finally:
        await socket.close()
