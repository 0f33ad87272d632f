"""Websockets of online games (docs/online-protocol.md): a seat's socket, a spectator's, and
the news socket of a player's other pages.

- ``PlayConsumer`` (``ws/play/<token>/``): one player's personal link. It receives its own
  seat's view (the position, scores, both clocks and its own rack, never the other) and sends
  moves, or claims the win when the opponent never came (``games.online.no_show``); opening
  it is how the server sees that the seat has appeared. The link is checked again before
  every move and ``sync``, and a reissued link closes its open sockets at once (a group per
  link, ``games.online.play.link_group``).
- ``WatchConsumer`` (``ws/watch/<board id>/``): anyone, for a published online round; the
  spectators' view (no rack at all), read only.
- ``NewsConsumer`` (``ws/news/``): a logged-in player's My games and event pages, which follow
  their events (``games.news``): the next round, the new game's seat, a pause, a withdrawal,
  the final standings. The seat's socket brings its player the same news, for the end screen.

A player's page that is open and connected when the player's game is dealt or started counts
as the player appearing at it (``games.online.play.appear``): a player who waits on My games or
on the end screen of the game before is never forfeited for not appearing.

Both are members of the board's clock group only: after a move one message brings the clock
and every seat's view, already encoded, and each socket sends its own seat's (one channel-layer
message per move and worker instead of one per seat and one for the clock). Clock changes
without a move (the arbiter's pause or adjustment) come as plain snapshots. A flag the flag
timer stores reaches the game through ``games.online.play.flag_fell`` (the flagged seat stops for
everybody at once). The JSON plumbing, errors and refusals come from the clock sockets
(``clocks.consumers.ClockSocket``).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext as _

from clocks import groups
from clocks import services as clock_services
from clocks.consumers import BadMessage, ClockSocket, pong
from games import news
from games.models import OnlineGame
from games.online import play as online
from games.online import presence
from tournament.boards.tokens import TokenRefused
from tournament.models import PlayerLogin, Round
from tournament.permissions import visible_boards

#: A move's fields. ``clock`` is read only to be answered as the protocol says (time is the
#: server's), not as an unknown field.
MOVE_KEYS = frozenset({"type", "move", "placement", "number", "think_ms", "clock"})


class Follower:
    """A socket of a player's page that follows the player's event (``games.news``): it
    passes the news on, and the player counts as present at their current game."""

    #: [game id, seat] of the game this page made its player appear at
    present_at: list | None = None

    async def event_news(self, message):
        """The event moved on: the page gets its player's news; a player whose page is open
        as their game starts has appeared at it."""
        if getattr(self, "withdrawn", False):  # a seat's link reissued: this page has stopped
            return
        await self.appear(message.get("game"))
        await self.send_json({"type": "news", "news": message["news"],
                              "server_time_ms": clock_services.now_ms()})

    async def appear(self, game) -> None:
        if game is None or game == self.present_at or not self.may_appear(game):
            return
        self.present_at = game
        told = await database_sync_to_async(online.appear)(*game)
        if told is not None:
            await self.channel_layer.group_send(*told)
        await presence.heard(game[0], game[1], clock_services.now_ms())

    def may_appear(self, game) -> bool:
        return True

    async def send_news(self, event_id: int, player_ids: list[int]) -> None:
        """The news as it stands, as the socket opens (after joining the groups: nothing that
        happens meanwhile is missed)."""
        messages = await database_sync_to_async(news.messages_of)(event_id, player_ids)
        for _group, message in messages:
            await self.event_news(message)


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


class PlayConsumer(Follower, GameSocket):
    """``ws/play/<token>/``: one seat of one online game; it also follows its player's event
    (``games.news``): the end screen shows the next game and becomes its seat."""

    listens = (groups.BOARD, online.LINK, news.PLAYER)

    async def connect(self):
        self.token = self.scope["url_route"]["kwargs"]["token"]
        try:
            self.game, self.seat = await database_sync_to_async(online.seat_for_token)(self.token)
        except TokenRefused as refused:
            return await self.refuse(str(refused))
        told = await database_sync_to_async(online.note_seen)(self.game, self.seat)
        if told is not None:  # it has appeared: the board's other sockets learn it now
            await self.channel_layer.group_send(*told)
        board = self.game.board
        self.player_id = board.first_id if self.seat == "A" else board.second_id
        self.present_at = [self.game.pk, self.seat]
        await self.start(online.link_group(self.token), news.PLAYER.name(self.player_id))
        await presence.heard(self.game.pk, self.seat, clock_services.now_ms())

    async def receive_json(self, content, **kwargs):
        await presence.heard(self.game.pk, self.seat, clock_services.now_ms())  # still there
        if content["type"] == "news":  # the end screen asks what comes next (then follows it)
            return await self.send_news(self.game.board.round.event_id, [self.player_id])
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


class NewsConsumer(Follower, ClockSocket):
    """``ws/news/[?event=<slug>]``: a logged-in player's pages that follow their events (My
    games: every event the login plays; the event page: that event). On opening it sends each
    player's news as it stands, then every change (``games.news``); ``sync`` asks again, and
    ``ping`` is answered with a ``pong``. Only the login's own players: a seat's link reaches
    its own player's pages only."""

    listens = (news.PLAYER,)
    players: list[tuple[int, int]] = []  # (player id, event id) the socket follows

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.refuse(_("Log in to follow your games."))
        self.players = await database_sync_to_async(self._players)(user, self._event())
        await self.accept()
        await self.join(*(news.PLAYER.name(player) for player, _event in self.players))
        await self.send_current()

    def _event(self) -> str | None:
        query = self.scope.get("query_string", b"").decode("latin-1")
        values = parse_qs(query).get("event", [])
        return values[0][:100] if values else None

    @staticmethod
    def _players(user, slug: str | None) -> list[tuple[int, int]]:
        logins = PlayerLogin.objects.filter(user=user, withdrawn_at__isnull=True)
        if slug is not None:
            logins = logins.filter(player__event__slug=slug)
        return list(logins.values_list("player_id", "player__event_id"))

    async def send_current(self) -> None:
        events: dict[int, list[int]] = {}
        for player, event in self.players:
            events.setdefault(event, []).append(player)
        for event, players in events.items():
            await self.send_news(event, players)

    async def receive_json(self, content, **kwargs):
        kind = content["type"]
        if kind == "ping":
            return await self.send(text_data=pong())
        if kind == "sync":
            return await self.send_current()
        raise BadMessage(_("Unknown message type %(type)r.") % {"type": kind})

    async def disconnect(self, code):
        if self.present_at is not None:
            await presence.heard(*self.present_at, clock_services.now_ms(), closed=True)
        await super().disconnect(code)
