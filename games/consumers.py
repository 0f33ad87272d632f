"""Websockets of online games (docs/online-protocol.md): a seat's socket and a spectator's.

- ``PlayConsumer`` (``ws/play/<token>/``): one player's personal link. It receives its own
  seat's view (the position, scores, both clocks and its own rack, never the other) and sends
  moves, or claims the win when the opponent never came (``games.online.no_show``); opening
  it is how the server sees that the seat has appeared. The link is checked again before
  every move and ``sync``, and a reissued link closes its open sockets at once (a group per
  link, ``games.online.play.link_group``).
- ``WatchConsumer`` (``ws/watch/<board id>/``): anyone, for a published online round; the
  spectators' view (no rack at all), read only.

Both are members of the board's clock group only: after a move one message brings the clock
and every seat's view, already encoded, and each socket sends its own seat's (one channel-layer
message per move and worker instead of one per seat and one for the clock). Clock changes
without a move (the arbiter's pause or adjustment) come as plain snapshots. A flag the flag
timer stores reaches the game through ``games.online.play.flag_fell`` (the flagged seat stops for
everybody at once). The JSON plumbing, errors and refusals come from the clock sockets
(``clocks.consumers.ClockSocket``).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext as _

from clocks import groups
from clocks import services as clock_services
from clocks.consumers import BadMessage, ClockSocket, pong
from games.models import OnlineGame
from games.online import play as online
from games.online import presence
from tournament.boards.tokens import TokenRefused
from tournament.models import Round
from tournament.permissions import visible_boards

#: A move's fields. ``clock`` is read only to be answered as the protocol says (time is the
#: server's), not as an unknown field.
MOVE_KEYS = frozenset({"type", "move", "placement", "number", "think_ms", "clock"})


class GameSocket(ClockSocket):
    """Shared by both sockets: the game's views and the clock, for one seat (or None)."""

    seat: str | None = None
    game: OnlineGame
    clock_version = -1  # the newest clock this socket has sent, in a view or a snapshot

    withdrawn = False  # the link was reissued: this socket sends nothing more

    listens = (groups.BOARD,)

    async def start(self, *names: str) -> None:
        self.board = self.game.board
        await self.accept()
        await self.join(groups.BOARD.name(self.board.pk), *names)
        await self.send_view()

    async def send_view(self) -> None:
        try:
            view = await database_sync_to_async(self._view)()
        except TokenRefused as refused:
            return await self.withdraw(str(refused))
        await self.relay_view(view)

    def _view(self) -> dict:
        return online.view(self.game, self.seat)

    async def withdraw(self, message: str) -> None:
        """The socket's link no longer works: say why, close with 4403, send nothing more."""
        self.withdrawn = True
        await self.refuse(message, accepted=True)

    async def relay_view(self, view: dict) -> None:
        self.clock_version = max(self.clock_version, view["clock"]["version"])
        await self.send_json({"type": "state", "view": view})

    async def clock_snapshot(self, event):
        """The board's clock changed. After a move the same message brings every seat's view
        (``games.online.play.encoded_views``): this socket sends its own seat's only, and the clock
        it carries is not sent again on its own."""
        if self.withdrawn:
            return
        version = event["version"]
        views = event.get("views")
        if views is not None:
            self.clock_version = max(self.clock_version, version)
            return await self.send(text_data=views[self.seat or "watch"])
        if version <= self.clock_version:
            return
        self.clock_version = version
        await self.send(text_data='{"type":"clock","clock":' + event["json"] + "}")

    async def clock_holder(self, event):
        """Ignored on purpose: an online game's clock moves with its moves, and no device keeps
        it (a board page opened with the board's link may still ask, and is refused)."""

    async def receive_json(self, content, **kwargs):
        kind = content["type"]
        if kind == "ping":  # the seat page's heartbeat (docs/online-protocol.md)
            return await self.send(text_data=pong())
        if kind == "sync":
            return await self.send_view()
        if kind == "move":
            return await self.move(content)
        if kind == "claim":
            return await self.claim(content)
        raise BadMessage(_("Unknown message type %(type)r.") % {"type": kind})

    async def move(self, content: dict) -> None:
        raise BadMessage(_("Spectators cannot make moves."))

    async def claim(self, content: dict) -> None:
        raise BadMessage(_("Spectators cannot make moves."))


class PlayConsumer(GameSocket):
    """``ws/play/<token>/``: one seat of one online game."""

    listens = (groups.BOARD, online.LINK)

    async def connect(self):
        self.token = self.scope["url_route"]["kwargs"]["token"]
        try:
            self.game, self.seat = await database_sync_to_async(online.seat_for_token)(self.token)
        except TokenRefused as refused:
            return await self.refuse(str(refused))
        told = await database_sync_to_async(online.note_seen)(self.game, self.seat)
        if told is not None:  # it has appeared: the board's other sockets learn it now
            await self.channel_layer.group_send(*told)
        await self.start(online.link_group(self.token))
        await presence.heard(self.game.pk, self.seat, clock_services.now_ms())

    async def receive_json(self, content, **kwargs):
        await presence.heard(self.game.pk, self.seat, clock_services.now_ms())  # still there
        await super().receive_json(content, **kwargs)

    async def disconnect(self, code):
        if getattr(self, "seat", None) and hasattr(self, "game") and not self.withdrawn:
            await presence.heard(self.game.pk, self.seat, clock_services.now_ms(), closed=True)
        await super().disconnect(code)

    def _view(self) -> dict:
        return online.view(self.game, self.seat, link=self.token)

    async def link_withdrawn(self, event) -> None:
        """The arbiter reissued this seat's link (``games.online.play.reissue_seat_token``): the
        sockets opened with the old one close at once, on every worker."""
        with translation.override(self.language):
            await self.withdraw(_("This player link is not valid."))

    async def move(self, content: dict) -> None:
        extra = sorted(set(content) - MOVE_KEYS)
        if extra:
            raise BadMessage(_("Unknown field %(key)r in a move.") % {"key": extra[0]})
        data = {k: v for k, v in content.items() if k != "type"}
        try:
            played = await database_sync_to_async(self._play)(data)
        except TokenRefused as refused:
            return await self.withdraw(str(refused))
        except online.OnlineRefused as refused:
            raise BadMessage(str(refused)) from None
        if played.error is not None:
            await self.send_json({"type": "refused", "message": played.error,
                                  "view": played.view})

    async def claim(self, content: dict) -> None:
        """The opponent never came: the win by forfeit, after the event's waiting time
        (``games.online.play.claim_no_show``). Refused with the reason and the view as it
        stands; done, every socket of the board gets the ended game's view."""
        extra = sorted(set(content) - {"type"})
        if extra:
            raise BadMessage(_("Unknown field %(key)r in a claim.") % {"key": extra[0]})
        try:
            await database_sync_to_async(online.claim_no_show)(
                self.game, seat=self.seat, link=self.token)
        except TokenRefused as refused:
            return await self.withdraw(str(refused))
        except online.OnlineRefused as refused:
            view = await database_sync_to_async(self._view)()
            await self.send_json({"type": "refused", "message": str(refused), "view": view})

    def _play(self, data: dict) -> online.Played:
        # the link is checked again on the locked game: it may be withdrawn since connecting
        return online.play(self.game, self.seat, data, link=self.token)


class WatchConsumer(GameSocket):
    """``ws/watch/<board id>/``: a spectator of an online game of a published round."""

    async def connect(self):
        board_id = self.scope["url_route"]["kwargs"]["board_id"]
        game = await database_sync_to_async(self._load)(board_id)
        if game is None:
            return await self.refuse(_("There is no online game on this board."))
        self.game = game
        await self.start()

    def _load(self, board_id: int) -> OnlineGame | None:
        boards = visible_boards(self.scope.get("user")).exclude(
            round__status=Round.Status.DRAFTED)
        return (OnlineGame.objects.select_related("board__round__event", "board__first",
                                                  "board__second")
                # board__pk, not board_id: Django bounds a pk lookup to the column's range (an
                # id past 64 bits finds nothing), not a foreign key's (SQLite's OverflowError)
                .filter(board__pk=board_id, board__in=boards).first())
