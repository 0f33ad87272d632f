"""A server restart is not charged to the players of online games.

While the server is down (a crash, ``kill -9``, the seconds a restart takes) nobody can move in
an online game, yet its clock, which only stores when the turn began, would charge the whole
time to the player on move. So every process of the server (each worker, the flag timer) writes
when it was last alive, every second (``ServerProcess``), and the flag timer, at each tick,
looks for a time when **no** process was alive: from the last moment one of the processes that
died was alive, to the start of the first process alive now. That time is given back: the
running clock of every online game is held over it (``clocks.services.hold``: paused where the
server was last alive, resumed where it came back; the flags that fell while it was up stand),
through the game's owner so that the game follows (``clocks.access.owned_command``), logged in
the clock's log and marked in the hall ("server restarted at 14:03:07: 5.2 s given back to both
players"). The dead processes' rows go in the same transaction, so a restart is given back once.

Over-the-board clocks are not held: their board pages kept time through the outage and the
players played on; their presses come back measured (``clocks.core.reconcile``).
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import uuid

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import access, links, services
from clocks.models import Clock, ServerProcess
from tournament.models import Board

log = logging.getLogger(__name__)

#: A process not heard for this long is dead.
DEAD_AFTER_MS = 5_000
#: A gap shorter than this (processes replaced one by one) is no outage.
OUTAGE_MS = 1_500
#: This process, as its row names it.
NAME = f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
SERVER = "server"
BEAT_S = 1.0

_last_beat = {"ms": None}
#: When this process became able to serve (``ready``); None: at its first beat.
_ready = {"ms": None}


def ready(now: int) -> None:
    """This process can serve from ``now`` (its application is built: the server listens
    right after). The end of an outage is this moment, not the first beat, which waits for
    the first request on a server without ASGI lifespan events (daphne): the pages'
    reconnection backoff is not the server's downtime."""
    if _ready["ms"] is None:
        _ready["ms"] = now


def beat(now: int, every_ms: int = 1_000) -> bool:
    """This process is alive at ``now`` (written at most every ``every_ms``: whether it was
    written now)."""
    last = _last_beat["ms"]
    if last is not None and 0 <= now - last < every_ms:
        return False
    _last_beat["ms"] = now
    if not ServerProcess.objects.filter(name=NAME).update(alive_ms=now):
        started = min(now, _ready["ms"] if _ready["ms"] is not None else now)
        ServerProcess.objects.get_or_create(name=NAME,
                                            defaults={"started_ms": started, "alive_ms": now})
    return True


def outage(now: int) -> tuple[int, int] | None:
    """When no process of the server was alive (``[from, to]``, ms), if that happened since
    the last look; the dead processes are forgotten (call it inside a transaction)."""
    rows = list(ServerProcess.objects.select_for_update().order_by("pk"))
    dead = [row for row in rows if now - row.alive_ms > DEAD_AFTER_MS and row.name != NAME]
    alive = [row for row in rows if row not in dead]
    if not dead:
        return None
    ServerProcess.objects.filter(pk__in=[row.pk for row in dead]).delete()
    if not alive:
        return None
    down, up = max(row.alive_ms for row in dead), min(row.started_ms for row in alive)
    return (down, up) if up - down >= OUTAGE_MS else None


def give_back(now: int) -> int:
    """Hold every running online game's clock over the last outage of the server, if there
    was one since the last look; the number of clocks held."""
    with transaction.atomic():
        gap = outage(now)
    if gap is None:
        return 0
    down, up = gap
    at = timezone.localtime(datetime.datetime.fromtimestamp(up / 1000, tz=datetime.UTC))
    note = _("server restarted at %(time)s: %(seconds).1f s given back to both players") % {
        "time": at.strftime("%H:%M:%S"), "seconds": (up - down) / 1000}
    held = 0
    boards = Board.objects.filter(pk__in=Clock.objects.filter(
        deadline_ms__isnull=False).values("board_id")).select_related("round__event")
    for board in boards:
        if not access.press_refusal(board.pk):  # over the board: its device kept time
            continue
        try:
            access.owned_command(board, {"type": "hold"}, lambda board=board: services.hold(
                board, down, up, who=SERVER, reason=note))
        except services.ClockRefused as refused:
            log.warning("restart: board %s not held: %s", board.pk, refused)
            continue
        links.mark(board.pk, board.round_id, note)
        held += 1
    log.warning("the server was down from %s to %s ms: %d online clocks held", down, up, held)
    return held
