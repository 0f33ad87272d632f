"""Websocket consumers of the board clocks: check who is asking, validate, call one service.

Three sockets (routes in ``clocks/routing.py``, message formats in docs/clock.md):

- ``BoardConsumer``: the players' device, opened with the board's token; the device that keeps
  the board's clock (``clocks.holder``) may press either side (both players share it; the core
  accepts only the running side's press), any other device only watches, or takes the clock
  over. An arbiter of the event may also press and send arbiter commands on it.
- ``SpectateConsumer``: anyone, read only; an arbiter's session may send commands too.
- ``HallConsumer``: arbiters only; every board of a round, snapshots coalesced to at most four
  messages a second, round-wide and per-board commands.

Consumers never crash on bad input: every refusal is a ``{"type": "error", "message": ...}``.
A refused connection is accepted, told why, and closed with code 4403 so that the page can show
the reason instead of reconnecting forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import weakref
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from clocks import access, agents, groups, holder, links, press_threads, services
from clocks.core.clock import IgnoredReason
from clocks.core.hearing import Hearing
from clocks.hall_feed import HALL_BATCH_S
from clocks.services import ClockRefused
from tournament.boards.tokens import TokenRefused, board_for_token
from tournament.inputs.json_input import JSONRefused, read_json
from tournament.models import Board, Round
from tournament.permissions import visible_boards
from tournament.texts.core_messages import json_text

log = logging.getLogger(__name__)

REFUSED_CLOSE_CODE = 4403
ARBITER_COMMANDS = frozenset({"start", "pause", "resume", "adjust", "correct", "finish"})
MAX_MEASURED_MS = 86_400_000  # a turn the device measured: at most a day, the longest control


class BadMessage(Exception):
    """A message that cannot be carried out; its text goes back to the sender."""


def _side(content: dict, key: str = "side", required: bool = True) -> str | None:
    value = content.get(key)
    if value is None and not required:
        return None
    if value not in ("A", "B"):
        raise BadMessage(_("'%(key)s' must be \"A\" or \"B\".") % {"key": key})
    return value


def _int(content: dict, key: str) -> int:
    value = content.get(key)
    if type(value) is not int:
        raise BadMessage(_("'%(key)s' must be a whole number.") % {"key": key})
    return value


def _text(content: dict, key: str, required: bool = False) -> str:
    value = content.get(key, "")
    if not isinstance(value, str) or len(value) > 300 or (required and not value.strip()):
        raise BadMessage(_("'%(key)s' must be a short text.") % {"key": key})
    return value


def _measured(content: dict) -> services.Measured | None:
    """The device's measurement of a press (``elapsed_ms``, ``epoch``), if it sent one."""
    if "elapsed_ms" not in content:
        return None
    elapsed, epoch = _int(content, "elapsed_ms"), _int(content, "epoch")
    if not 0 <= elapsed <= MAX_MEASURED_MS:
        raise BadMessage(_("'elapsed_ms' must be between 0 and %(max)d.")
                         % {"max": MAX_MEASURED_MS})
    if epoch < 0:
        raise BadMessage(_("'epoch' must not be negative."))
    return services.Measured(elapsed, epoch)


def _amount_ms(content: dict) -> int:
    if "ms" in content:
        return _int(content, "ms")
    return _int(content, "seconds") * 1000


def run_arbiter_command(board: Board, content: dict, user) -> services.Outcome:
    """Carry out one arbiter command on ``board`` (runs in a worker thread), through the
    board's owner if another app owns its clock (``access.owned_command``). The rights are
    read again for every command (``access.still_arbiter``)."""
    if not access.still_arbiter(board.round.event, user):
        raise BadMessage(_("Only an arbiter of this event may do that."))
    return access.owned_command(board, content, lambda: _arbiter_command(board, content, user))


def _arbiter_command(board: Board, content: dict, user) -> services.Outcome:
    kind, who = content["type"], user.get_username()
    if kind == "start":
        return services.start(board, who=who, user=user)
    if kind == "pause":
        return services.pause(board, who=who, user=user)
    if kind == "resume":
        return services.resume(board, who=who, user=user)
    if kind == "adjust":
        return services.adjust(
            board, _side(content), _text(content, "kind", required=True), _amount_ms(content),
            reason=_text(content, "reason", required=True), turn=_side(content, "turn", False),
            who=who, user=user,
        )
    if kind == "correct":
        return services.correct(board, _side(content, "turn"),
                                reason=_text(content, "reason", required=True), who=who, user=user)
    return services.finish(board, _text(content, "kind", required=True) or "arbiter",
                           reason=_text(content, "reason"), side=_side(content, "side", False),
                           who=who, user=user)


def scope_language(scope: dict) -> str:
    """The language of the page that opened a socket, chosen as Django's ``LocaleMiddleware``
    chooses a page's: the switcher's cookie, else the browser's ``Accept-Language``, else the
    site's language (Django's own function, given the socket's cookies and headers)."""
    headers = {name.decode("latin-1").lower(): value.decode("latin-1")
               for name, value in scope.get("headers", [])}
    request = SimpleNamespace(
        COOKIES=scope.get("cookies", {}),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")},
    )
    return translation.get_language_from_request(request)


def device_of(scope: dict) -> str | None:
    """The device the board page names in its socket's address (``?device=``: a random id it
    keeps in the browser), as stored (``holder.device_key``), if it is one: the device keeping
    the clock presses, and a device's new socket replaces its older ones (``clocks.links``)."""
    for value in parse_qs(scope.get("query_string", b"").decode("latin-1")).get("device", []):
        key = holder.device_key(value)
        if key is not None:
            return key
    return None


#: The messages whose handlers may answer in words (refusals, errors); the group messages
#: relayed to every socket of a board carry data only and skip the language switch.
SPOKEN = frozenset({"websocket.connect", "websocket.receive"})


class ClockSocket(AsyncJsonWebsocketConsumer):
    """Shared plumbing: JSON checking, error replies, snapshot relaying, refusal on connect.

    The socket's own messages (its connection and what it sends) are handled in its language
    (``scope_language``), so refusals and errors read as the page around the socket does."""

    groups_joined: list[str]
    language: str
    refused = False  # closed with the reason (``refuse``): what arrives after is not answered
    #: the groups this socket joins: it handles every message they declare (``clocks.groups``)
    listens: tuple[groups.Group, ...] = ()

    async def dispatch(self, message):
        """Call the message's handler, without Channels' ``close_old_connections`` first.

        Channels runs that on the database thread before every handler, so each snapshot
        relayed to each socket waited in the one queue that the presses of the whole process
        use, for nothing: these consumers reach the database only through
        ``database_sync_to_async``, which closes old connections around every call itself.

        A message without a handler is logged and dropped: the socket stays open (Channels
        would close it with 1011, and a message any device can cause to be sent to a group
        would close every socket in it; tests/clocks/test_groups.py keeps this from happening).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            log.error("%s has no handler for %r: dropped", type(self).__name__, message["type"])
            return None
        if message["type"] not in SPOKEN:  # a relayed group message: nothing to say
            return await handler(message)
        if not hasattr(self, "language"):
            self.language = scope_language(self.scope)
        with translation.override(self.language):
            await handler(message)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if text_data is None and bytes_data is not None:  # the protocols speak JSON text only
            return await self.error(_("A message must be a text frame of JSON; this one was "
                                      "binary (%(size)d bytes) and was not read.")
                                    % {"size": len(bytes_data)})
        size = len(text_data.encode("utf-8", "surrogatepass")) if text_data else 0
        if size > settings.WEBSOCKET_MESSAGE_LIMIT:  # refused unread; the socket stays open
            return await self.error(
                _("The message is %(size)d bytes; the limit is %(limit)d bytes.")
                % {"size": size, "limit": settings.WEBSOCKET_MESSAGE_LIMIT})
        try:
            content = read_json(text_data or "")
        except JSONRefused as refused:
            return await self.error(json_text(refused))
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            return await self.error(_("A message must be a JSON object with a \"type\"."))
        try:
            await self.receive_json(content)
        except BadMessage as error:
            await self.error(str(error))
        except ClockRefused as error:
            await self.error(str(error))

    async def error(self, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "message": message, **extra})

    async def refuse(self, message: str, *, accepted: bool = False) -> None:
        self.refused = True
        if not accepted:
            await self.accept()
        await self.error(message, fatal=True)
        await self.close(code=REFUSED_CLOSE_CODE)

    async def join(self, *names: str) -> None:
        """Join the channel-layer groups ``names``, each of a kind the class ``listens`` to."""
        for name in names:
            if not any(group.holds(name) for group in self.listens):
                raise groups.UndeclaredMessage(f"{type(self).__name__} does not listen to "
                                               f"{name!r}")
        self.groups_joined = list(names)
        for name in names:
            await self.channel_layer.group_add(name, self.channel_name)

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def clock_snapshot(self, event):
        # the snapshot's JSON text as the publisher encoded it (``services.snapshot_json``)
        await self.send(text_data='{"type":"snapshot","clock":' + event["json"] + "}")

    async def send_snapshot(self) -> None:
        snap = await database_sync_to_async(services.snapshot)(self.board)
        await self.send_json({"type": "snapshot", "clock": snap})

    async def reply(self, outcome: services.Outcome) -> None:
        """Tell the sender about an ignored press (the group gets every real change)."""
        if outcome.ignored is not None:
            await self.send_json({
                "type": "ignored", "reason": outcome.ignored.value,
                "message": services.ignored_message(outcome.ignored), "clock": outcome.snapshot,
            })

    async def arbiter_command(self, board: Board, content: dict) -> None:
        """Carry out an arbiter command on ``board``, given per call rather than read from
        ``self``: the hall socket serves every board of its round and names one per message,
        so it keeps no "current board" that a later message would have to overwrite."""
        if not self.is_arbiter:
            raise BadMessage(_("Only an arbiter of this event may do that."))
        outcome = await database_sync_to_async(run_arbiter_command)(
            board, content, self.scope["user"])
        await self.reply(outcome)


#: The board page's heartbeat as it sends it (static/js/clock.js): the most frequent message of
#: a hall (one after each 1.25 s a page receives nothing), answered without being parsed.
PING = '{"type":"ping"}'


def pong() -> str:
    """The answer to a ping, with the server's time: with every pong a sample of the device's
    offset from the server, so that a page which has been open a few seconds dates its turns
    (and the presses it measures through an outage) from its least delayed sample rather than
    from the snapshot of a slow page load or a busy moment."""
    return f'{{"type":"pong","server_time_ms":{services.now_ms()}}}'


class BoardSocket(ClockSocket):
    """A socket on one board's clock: snapshots, presses (``_press``) and arbiter commands."""

    listens = (groups.BOARD,)

    async def __call__(self, scope, receive, send):
        """The page's heartbeat answered as it is read, before Channels' dispatch: each message
        that reaches the dispatch costs a task and a wait on both of the socket's sources
        (about 11 µs of the 16 µs a ping took there), and the heartbeat is most of what a board
        socket receives (about eleven pings a press in a hall). Channels reads the socket's
        next message only once its last one has been handled, as before; a pong may now go
        out while a group's snapshot is being relayed, each a whole frame.

        Every message the page sends is heard, not its pings only: the page pings after a
        silence of what it receives, so a page whose board changes every second (a time
        scramble) sends presses and no pings, and is live all the same."""

        async def receive_past_heartbeat():
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                await self.heard()
                if message.get("text") != PING:
                    return message
                await self.heartbeat()

        return await super().__call__(scope, receive_past_heartbeat, send)

    async def heartbeat(self) -> None:
        """Answer a ping, unless the socket was refused (its close not yet read)."""
        if not self.refused:
            await self.send(text_data=pong())

    async def receive_json(self, content, **kwargs):
        kind = content["type"]
        if kind == "sync":
            return await self.send_snapshot()
        if kind == "press":
            arrived = services.now_ms()  # the press is dated here, not when it gets the lock
            side, number, measured = _side(content), _int(content, "press"), _measured(content)
            try:
                outcome = await press_threads.run(self._press, side, number, measured, arrived)
            except (BadMessage, ClockRefused) as refused:
                if measured is None:
                    raise
                # answered as a press, or the page would keep sending it from its queue
                snap = await database_sync_to_async(services.snapshot)(self.board)
                return await self.send_json({
                    "type": "pressed", "side": side, "press": number, "status": "refused",
                    "reason": "refused", "message": str(refused), "clock": snap})
            if measured is None:
                return await self.reply(outcome)
            return await self.send_json(press_reply(side, number, outcome))
        if kind == "ping":  # the heartbeat written otherwise (the page's: ``__call__``)
            return await self.heartbeat()
        if kind in ARBITER_COMMANDS:
            return await self.arbiter_command(self.board, content)
        if kind == "take_over":
            return await self.take_over(content)
        raise BadMessage(_("Unknown message type %(type)r.") % {"type": kind})

    async def take_over(self, content: dict) -> None:
        """Keep the clock on this device (``clocks.holder``): the board page only."""
        raise BadMessage(_("Unknown message type %(type)r.") % {"type": "take_over"})

    def _press(self, side: str, number: int, measured: services.Measured | None,
               arrived: int) -> services.Outcome:
        """Carry out a press (in a worker thread); who may press depends on the socket."""
        raise NotImplementedError

    async def heard(self) -> None:
        """The page sent something: the board's link is watched on the board socket only."""

    async def clock_holder(self, event) -> None:
        """The device keeping the clock changed: the board page's socket tells its page."""


def press_reply(side: str, number: int, outcome: services.Outcome) -> dict[str, Any]:
    """The answer to a press the device measured, whatever became of it: the page keeps it in
    its queue until this arrives, and shows refused presses with the reason."""
    reason = outcome.ignored
    status = ("accepted" if reason is None
              else "duplicate" if reason is IgnoredReason.DUPLICATE else "refused")
    reply: dict[str, Any] = {"type": "pressed", "side": side, "press": number,
                             "status": status, "clock": outcome.snapshot}
    rec = outcome.reconciled
    if reason is not None:
        reply |= {"reason": reason.value, "message": services.refusal_text(reason, rec)}
    if rec is not None:
        reply |= {"late_ms": rec.late_ms, "dated": rec.dated.value}
    return reply


def _is_arbiter(board: Board, user) -> bool:
    return user is not None and board.round.event.is_arbiter(user)


def device_message(holds: bool, kept: bool, asked: bool = False,
                   code: str | None = None) -> dict[str, Any]:
    """What a board page is told about the device keeping the clock (``{"type": "device"}``):
    whether this device keeps it, whether any does, whether this one asked the arbiter for it,
    and this device's code, which the hall shows beside its request."""
    return {"type": "device", "holds": holds, "kept": kept, "asked": asked, "code": code}


class SilenceWatch:
    """Every board socket of an event loop, looked at once a second for a silent heartbeat.

    One task per loop, not one per socket: a hall of 1,000 boards had 2,000 tasks waking up
    every second to compare two numbers."""

    _watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SilenceWatch] = (
        weakref.WeakKeyDictionary())

    def __init__(self) -> None:
        self.sockets: set[BoardConsumer] = set()
        self.task: asyncio.Task | None = None

    @classmethod
    def of_this_loop(cls) -> SilenceWatch:
        loop = asyncio.get_running_loop()
        watch = cls._watches.get(loop)
        if watch is None:
            watch = cls._watches[loop] = cls()
        return watch

    def add(self, sock: BoardConsumer) -> None:
        self.sockets.add(sock)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def discard(self, sock: BoardConsumer) -> None:
        self.sockets.discard(sock)

    async def _run(self) -> None:
        while self.sockets:  # ends with the loop's last board socket; ``add`` starts it again
            await asyncio.sleep(1)
            now = services.now_ms()
            for sock in list(self.sockets):
                sock.check_silence(now)


class BoardConsumer(BoardSocket):
    """``ws/board/<token>/``: the players' clock.

    The socket keeps what the server heard of its device (``hearing``: every message, and the
    silences between them), which bounds the credit of each press the device measured
    (``clocks.core.hearing``); it watches the heartbeat for the hall (``SilenceWatch``), and
    knows whether its device keeps the clock (``holds``; the press's lock checks it again)."""

    listens = (groups.BOARD, groups.DEVICE_SOCKET)
    #: set once the socket is accepted and watched; a refused socket hears no heartbeat
    hearing: Hearing | None = None
    device: str | None = None
    opened_ms = 0
    holds = kept = False  # whether this device keeps the clock; whether any device does
    asked = False  # whether this device asked the arbiter for the clock
    silent = False  # reported silent to the hall
    in_burst = False  # reported heard again, but only in a silence's burst so far
    holder_since: int | None = None  # when the device keeping the clock got it (server ms)
    silence_report: asyncio.Task | None = None

    async def connect(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        try:
            self.board, self.is_arbiter = await database_sync_to_async(self._load)(token)
        except (TokenRefused, ClockRefused) as refused:
            return await self.refuse(str(refused))
        await self.accept()
        await self.join(groups.BOARD.name(self.board.pk))
        self.device = device_of(self.scope)
        watch = SilenceWatch.of_this_loop()
        mine = {sock.channel_name: sock.hearing.paced_ms for sock in watch.sockets
                if sock.board.pk == self.board.pk and sock.device == self.device
                and self.device is not None}
        snap, opening, kept = await database_sync_to_async(self._opened)(mine)
        self.opened_ms = services.now_ms()
        self.hearing = Hearing.opened(self.opened_ms, opening.paced_ms)
        self.in_burst = not self.hearing.back  # as ``links.opened`` listed it
        self.holds, self.kept, self.asked = opening.holds, kept, opening.asked
        # when the device keeping the clock got it, as this socket read it: a holder message
        # published before that (sent without waiting, it may come late) is already known
        self.holder_since = opening.clock.holder_since_ms if opening.clock is not None else None
        # what the page needs to start, in one message: the clock, and whether it keeps it
        await self.send_json({"type": "snapshot", "clock": snap, "device": self.told()})
        for channel in opening.replaced:  # the device's older sockets: their pages stop
            await self.channel_layer.send(channel, {"type": "clock.replaced"})
        # from the start: a Wi-Fi that drops before the page's first ping is an outage too
        watch.add(self)

    def _opened(self, mine: dict[str, int]) -> tuple[dict[str, Any], links.Opening, bool]:
        """The socket's link reported live (its device taking the clock if no device ever
        kept it), and the snapshot it starts from read from the clock row that report locked
        (after joining the board's group, so no press is missed): one call on the database
        thread where there were two, which a hall reconnecting at once queues by the
        thousand (docs/benchmarks.md). ``mine``: this process's sockets of the device."""
        now = services.now_ms()
        opening = links.opened(self.board.pk, self.board.round_id, self.channel_name, now,
                               self.device, None if self.is_arbiter else holder.claim, mine)
        clock = opening.clock
        if clock is None:  # the row is gone: the snapshot says what a reader would see
            return services.snapshot(self.board, now), opening, False
        return services.payload(self.board, clock.core, now), opening, bool(clock.holder)

    async def report_link(self, silent_since: int | None = None, gone: bool = False,
                          burst_since: int | None = None) -> None:
        await database_sync_to_async(links.socket_state)(
            self.board.pk, self.board.round_id, self.channel_name, services.now_ms(),
            silent_since, gone, self.device, self.hearing.paced_ms, burst_since)

    async def heard(self) -> None:
        """The page sent something: noted (``hearing``). After a silence the device is
        reported heard again: in the silence's burst first (what TCP kept, what the page
        queued: the silence is not over for a new socket on another worker), then at its pace
        once it is back at it."""
        if self.hearing is None:  # refused, or not yet watched
            return
        self.hearing = self.hearing.heard(services.now_ms())
        if self.silent or (self.in_burst and self.hearing.back):
            self.silent, self.in_burst = False, not self.hearing.back
            await self.report_link(burst_since=None if self.hearing.back
                                   else self.hearing.paced_ms)

    def check_silence(self, now: int) -> None:
        """Report the device offline once its heartbeat is silent for ``links.SILENT_MS``: a
        Wi-Fi that drops leaves the socket open on this side for minutes (``SilenceWatch``).
        Only where the hall watches the link: the device keeping the clock, or every device
        while none does. A device that only watches paces its heartbeat slower (its page's
        ``watcher`` pace, static/js/clock.js) and is counted as watching while its socket is
        open."""
        if self.kept and not self.holds:
            return
        if not self.silent and now - self.hearing.last_ms > links.SILENT_MS:
            self.silent, self.in_burst = True, False
            self.silence_report = asyncio.create_task(
                self.report_link(silent_since=self.hearing.paced_ms))

    async def disconnect(self, code):
        if self.hearing is not None:
            SilenceWatch.of_this_loop().discard(self)
            if self.silence_report is not None:  # reported before the socket is gone
                with contextlib.suppress(Exception):
                    await self.silence_report
            await self.report_link(gone=True)
        await super().disconnect(code)

    def told(self) -> dict[str, Any]:
        """What the page is told about the device keeping the clock, and its own code."""
        code = None if self.device is None else holder.device_code(self.device)
        return device_message(self.holds, self.kept, self.asked, code)

    async def clock_holder(self, event):
        """The device keeping the clock changed (``clocks.holder``): tell the page, unless it
        knows (the device that took the clock by opening the page was told with its snapshot).
        Every request was answered by the change."""
        since = event.get("since_ms")
        if since is not None and self.holder_since is not None and since <= self.holder_since:
            return  # a change this socket read when it opened, or older than the last one
        self.holder_since = since
        holds = self.device is not None and event["holder"] == self.device
        kept = bool(event["holder"])
        if (holds, kept, False) != (self.holds, self.kept, self.asked):
            self.holds, self.kept, self.asked = holds, kept, False
            await self.send_json(self.told())

    async def clock_replaced(self, event):
        """The same device opened the board again (a reload, another tab): one page per device
        keeps the clock, the newest, so this one stops."""
        with translation.override(getattr(self, "language", None) or scope_language(self.scope)):
            await self.refuse(_("This board was opened again on this device (another tab or a "
                                "reload): this page has stopped. Use the newest one."),
                              accepted=True)

    async def take_over(self, content: dict) -> None:
        """Keep the clock on this device: both players agree on its screen (``agreed``), or an
        arbiter's session asks. Granted at once unless the device keeping it is connected;
        then the arbiter is asked (``clocks.holder``)."""
        if self.device is None:
            raise BadMessage(_("This page is too old to keep the clock: reload it."))
        agreed = content.get("agreed")
        if not self.is_arbiter and (not isinstance(agreed, list) or sorted(agreed) != ["A", "B"]):
            raise BadMessage(_("Both players must agree to keep the clock on this device."))
        driven = await database_sync_to_async(access.press_refusal)(self.board.pk)
        if driven:  # an online game's clock moves with its moves: no device keeps it
            raise BadMessage(driven)
        user = self.scope.get("user")
        arbiter = self.is_arbiter and await database_sync_to_async(access.still_arbiter)(
            self.board.round.event, user)
        asking = {"opened_ms": self.opened_ms, "agent": agents.browser_of(self.user_agent())}
        outcome = await database_sync_to_async(holder.take_over)(
            self.board, self.device, now=services.now_ms(),
            who=user.get_username() if arbiter else "players", user=user, arbiter=arbiter,
            asking=asking)
        # answered at once, whatever the outcome (the board's other sockets are told too)
        self.asked = outcome == holder.ASKED
        if not self.asked:
            self.holds = self.kept = True
        await self.send_json(self.told())

    def user_agent(self) -> str:
        """The browser the socket's page runs in, as its handshake named it."""
        for name, value in self.scope.get("headers", []):
            if name.lower() == b"user-agent":
                return value.decode("latin-1")
        return ""

    def _load(self, token: str) -> tuple[Board, bool]:
        board = board_for_token(token)
        services.clock_for(board)
        return board, _is_arbiter(board, self.scope.get("user"))

    def _press(self, side: str, number: int, measured: services.Measured | None,
               arrived: int) -> services.Outcome:
        user = self.scope.get("user")
        arbiter = self.is_arbiter and access.still_arbiter(self.board.round.event, user)
        who = user.get_username() if arbiter else f"player {side}"
        # a token revoked since connecting, and (but for an arbiter) the press guards and the
        # device keeping the clock: read by the statement that locks the clock
        vet = access.PressVet(self.board.token, guarded=not arbiter, device=self.device)
        if measured is not None:  # credited at most the silence the server observed
            measured = dataclasses.replace(measured, silence=self.hearing.silence())
        return services.press(self.board, side, number, who=who, user=user, measured=measured,
                              arrived_ms=arrived, vet=vet)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        try:
            await super().receive(text_data, bytes_data, **kwargs)
        except TokenRefused as refused:
            await self.refuse(str(refused), accepted=True)


class SpectateConsumer(BoardSocket):
    """``ws/spectate/<board_id>/``: read only, except for an arbiter's session."""

    async def connect(self):
        board_id = self.scope["url_route"]["kwargs"]["board_id"]
        loaded = await database_sync_to_async(self._load)(board_id)
        if loaded is None:
            return await self.refuse(_("There is no live clock for this board."))
        self.board, self.is_arbiter = loaded
        await self.accept()
        await self.join(groups.BOARD.name(self.board.pk))
        await self.send_snapshot()

    def _load(self, board_id: int) -> tuple[Board, bool] | None:
        user = self.scope.get("user")
        board = (visible_boards(user, Board.objects.select_related("round__event"))
                 .filter(pk=board_id, second__isnull=False)
                 .exclude(round__status=Round.Status.DRAFTED).first())
        if board is None:
            return None
        services.clock_for(board)
        return board, _is_arbiter(board, self.scope.get("user"))

    def _press(self, side: str, number: int, measured: services.Measured | None,
               arrived: int) -> services.Outcome:
        user = self.scope["user"]
        if not (self.is_arbiter and access.still_arbiter(self.board.round.event, user)):
            raise BadMessage(_("Spectators cannot press the clock."))
        return services.press(self.board, side, number, who=user.get_username(), user=user,
                              measured=measured, arrived_ms=arrived)


class HallConsumer(ClockSocket):
    """``ws/hall/<round_id>/``: the arbiters' view of a whole round, batched."""

    is_arbiter = True
    listens = (groups.ROUND,)

    async def connect(self):
        round_id = self.scope["url_route"]["kwargs"]["round_id"]
        self.round, boards = await database_sync_to_async(self._load)(round_id)
        if self.round is None:
            return await self.refuse(_("Only an arbiter of this event may open the clock hall."))
        self.pending: dict[int, tuple[int, str]] = {}  # board -> (version, snapshot's JSON)
        self.flusher: asyncio.Task | None = None
        self.last_flush = 0.0
        await self.accept()
        await self.join(groups.ROUND.name(self.round.pk))
        await self.send_json({"type": "hall", "boards": boards})

    def _load(self, round_id: int):
        round_ = Round.objects.select_related("event").filter(pk=round_id).first()
        user = self.scope.get("user")
        if round_ is None or user is None or not round_.event.is_arbiter(user):
            return None, []
        return round_, services.round_snapshots(round_)

    async def disconnect(self, code):
        if getattr(self, "flusher", None) is not None:
            self.flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.flusher
        await super().disconnect(code)

    async def clock_hall(self, event):
        """Changed boards, as a worker gathered them (``clocks.hall_feed``): merged by version
        with what the other workers sent, passed on at most four times a second."""
        for board, version, text in event["boards"]:
            current = self.pending.get(board)
            if current is None or current[0] <= version:
                self.pending[board] = (version, text)
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.create_task(self._flush_soon())

    async def clock_link(self, event):
        """A board's link changed (rare): sent at once, not batched."""
        await self.send_json({"type": "link", "board": event["board"], "link": event["link"]})

    async def _flush_soon(self) -> None:
        """Sends what is pending, then again while changes came during the sending: a change
        that arrives while a batch is being written finds this task still running and starts
        none of its own, so it is this task's to send (or it would wait for the round's next
        change, and a pause with nothing after it would never reach the hall)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(max(0.0, self.last_flush + HALL_BATCH_S - loop.time()))
            boards, self.pending = [text for _version, text in self.pending.values()], {}
            self.last_flush = loop.time()
            if boards:  # the snapshots' texts as published, joined: nothing encoded again
                await self.send(text_data='{"type":"hall","boards":[' + ",".join(boards) + "]}")
            if not self.pending:  # no await between this test and the task's end
                return

    async def receive_json(self, content, **kwargs):
        # the hall is for arbiters only: someone removed from the event since connecting loses
        # it at their next message, as a revoked token loses the board at its next press
        user = self.scope.get("user")
        if not await database_sync_to_async(access.still_arbiter)(self.round.event, user):
            return await self.refuse(_("Only an arbiter of this event may open the clock hall."),
                                     accepted=True)
        kind = content["type"]
        if kind == "sync":
            boards = await database_sync_to_async(services.round_snapshots)(self.round)
            return await self.send_json({"type": "hall", "boards": boards})
        if kind in ("start_round", "pause_round", "resume_round", "stop_round"):
            service = getattr(services, kind)
            user = self.scope["user"]
            count = await database_sync_to_async(service)(
                self.round, who=user.get_username(), user=user)
            return await self.send_json({"type": "done", "action": kind, "count": count})
        if kind in ARBITER_COMMANDS:
            board = await database_sync_to_async(self._board)(_int(content, "board"))
            return await self.arbiter_command(board, content)
        if kind == "seen":  # the arbiter has looked at a board's reconciled presses
            board = await database_sync_to_async(self._board)(_int(content, "board"))
            return await database_sync_to_async(links.seen)(board.pk, board.round_id)
        if kind == "hand_over":  # the clock to a device that asked, or freed (clocks.holder)
            board = await database_sync_to_async(self._board)(_int(content, "board"))
            device = content.get("device")
            if device is not None and not (isinstance(device, str) and len(device) <= 64):
                raise BadMessage(_("'device' must be a device asking to keep the clock."))
            try:
                outcome, code = await database_sync_to_async(holder.hand_over)(
                    board, now=services.now_ms(), user=self.scope["user"], device=device)
            except holder.HandOverRefused as refused:
                raise BadMessage(str(refused)) from None
            return await self.send_json({"type": "done", "action": "hand_over",
                                         "board": board.pk, "outcome": outcome,
                                         "device": code})
        raise BadMessage(_("Unknown message type %(type)r.") % {"type": kind})

    def _board(self, board_id: int) -> Board:
        board = (Board.objects.select_related("round__event")
                 .filter(pk=board_id, round=self.round).first())
        if board is None:
            raise BadMessage(_("That board is not in this round."))
        return board
