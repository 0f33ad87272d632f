"""An event's news to its players' open pages: every transition reaches them as it happens.

A player's page in an event (My games, the event page, an online game's seat and its end
screen) follows the event over its one socket: the next round's pairing and start, the seat of
the new game, a pause, a withdrawal, the final standings. Anything that changes what a player
of the event sees calls ``changed`` inside its transaction; once it commits, the news of every
player of the event is read at once (``tournament.boards.seats.news``: a handful of queries
for the whole event) and sent to each player's own group (``PLAYER``), which that player's
sockets join: a seat's link travels only to its own player's pages.

Inside a server the sending is gathered for a moment (a round's publishing, dealing and start
come within milliseconds of each other and make one news) on the server's event loop;
elsewhere (the separate flag timer, commands, tests) it is sent at once.

The player's pages also tell the server the player is there (``present``): a page of the
player's that is open and connected when their game starts counts as the player appearing at
the game (``games.online.no_show``), as opening the seat itself does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from clocks import groups, server_context
from games.models import OnlineGame
from tournament.boards import seats
from tournament.models import Event, Round

log = logging.getLogger(__name__)

#: One player's open pages in an event.
PLAYER = groups.Group("event.player", frozenset({"event.news"}),
                      "the open pages of one player of an event (My games, the event page, "
                      "the seat)")
#: How long a server gathers an event's changes before it sends the news (seconds).
GATHER_S = 0.15

_pending: dict[asyncio.AbstractEventLoop, set[int]] = {}


def changed(event_id: int) -> None:
    """Something the players of the event see has changed (call it inside the transaction
    that changed it): their pages get their news once it commits."""
    loop = server_context.server_loop.get()
    transaction.on_commit(lambda: _send_soon(event_id, loop), robust=True)


def on_event_signal(sender, *, event=None, round=None, **kwargs) -> None:
    """Receiver of the event app's signals (``round_published``, ``round_closed``,
    ``players_changed``): the players' pages follow the event."""
    changed(round.event_id if round is not None else event.pk)


def _send_soon(event_id: int, loop: asyncio.AbstractEventLoop | None) -> None:
    if loop is None or not loop.is_running():
        send(event_id)
        return
    loop.call_soon_threadsafe(_gather, loop, event_id)


def _gather(loop: asyncio.AbstractEventLoop, event_id: int) -> None:
    """On the server's loop: the event joins those waiting; the first one starts the send."""
    waiting = _pending.setdefault(loop, set())
    if not waiting:
        loop.create_task(_send_gathered(loop))
    waiting.add(event_id)


async def _send_gathered(loop: asyncio.AbstractEventLoop) -> None:
    await asyncio.sleep(GATHER_S)
    events, _pending[loop] = _pending.get(loop, set()), set()
    layer = get_channel_layer()
    for event_id in sorted(events):
        try:
            messages = await database_sync_to_async(messages_of)(event_id)
            for group, message in messages:
                await layer.group_send(group, message)
        except Exception:  # one event's news must not stop the others'
            log.exception("news of event %s not sent", event_id)


def send(event_id: int) -> None:
    """Read and send the news of every player of the event now."""
    groups.broadcast(messages_of(event_id))


def messages_of(event_id: int, player_ids: Iterable[int] | None = None
                ) -> list[tuple[str, dict[str, Any]]]:
    """The channel-layer messages of an event's news: one per player, to that player's group,
    with what the player's pages show and the player's current online game (for presence)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return []
    news = seats.news(event, None if player_ids is None else list(player_ids))
    games = current_games(event, list(news))
    return [(PLAYER.name(player), {"type": "event.news", "news": item,
                                   "game": games.get(player)})
            for player, item in news.items()]


def current_games(event: Event, player_ids: list[int]) -> dict[int, list]:
    """Per player, the online game of the event's latest published round the player sits at
    (``[game id, seat]``), if any."""
    found: dict[int, list] = {}
    latest = event.rounds.exclude(status=Round.Status.DRAFTED).order_by("-number").first()
    if latest is None:
        return found
    wanted = set(player_ids)
    for game_id, first, second in OnlineGame.objects.filter(board__round=latest).values_list(
            "pk", "board__first_id", "board__second_id"):
        for seat, player in (("A", first), ("B", second)):
            if player in wanted:
                found[player] = [game_id, seat]
    return found
