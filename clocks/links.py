"""The board devices' links, for the arbiter's hall: live, offline since when, presses to check.

A board page keeps time through a lost connection (docs/clock.md), so the hall must say which
boards are cut off and which came back with presses the server dated where the device saw
them. The board socket reports here when it opens, when its heartbeat goes silent for
``SILENT_MS`` or resumes, and when it closes; a reconciled press worth a look (``worth_a_look``)
marks the board until an arbiter says it was seen. Each report is one short transaction on the
clock row, written only when the link changes (never per heartbeat), and the new link goes to
the round's hall group after the commit.

The link is kept per socket (by channel name), so a reload whose new socket opens before the old
one closes still reads as live. Each socket also names the page that opened it (``device``: a
random id the board page keeps for its tab), and a page's new socket replaces its older ones:
a worker that dies closes no socket and reports nothing, so its sockets would otherwise stay
listed as live for ever, and the hall would show the board live through its next outage. The
page reconnects to another worker with the same id, which clears them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clocks import services  # services uses this module too: only its functions are called
from clocks.core.clock import Dated, Reconciliation
from clocks.models import Clock

SILENT_MS = 3_000  # no heartbeat for this long: the board's device is offline
NOTABLE_LATE_MS = 1_000  # a press dated this much before its arrival is shown to the arbiter
NOTES_KEPT = 5
LIVE = "live"


def worth_a_look(reconciled: Reconciliation | None) -> bool:
    """A press the arbiter should see: it waited through an outage, withdrew a flag, or was
    dated on arrival because the budget was used up (ordinary network lag is not worth it)."""
    if reconciled is None:
        return False
    return (reconciled.late_ms >= NOTABLE_LATE_MS or reconciled.unflagged
            or reconciled.dated is Dated.BUDGET)


def public(link: dict[str, Any]) -> dict[str, Any]:
    """What the hall shows: ``state`` (live, offline or none: never connected), ``since_ms``
    (offline since), ``marked`` (reconciled presses not seen yet) and their ``notes``."""
    sockets = link.get("sockets", {})
    if any(value == LIVE for value in sockets.values()):
        state = "live"
    else:
        state = "offline" if "since_ms" in link else "none"
    return {"state": state, "since_ms": None if state != "offline" else link["since_ms"],
            "marked": link.get("marked", 0), "notes": link.get("notes", [])}


def _update(board_id: int, round_id: int, change) -> Clock | None:
    """Change the board's link under the clock row's lock; tell the hall if what it shows
    changed. Returns the clock row as it was locked (with the new link), None if missing."""
    with transaction.atomic():
        clock = Clock.objects.select_for_update().filter(board_id=board_id).first()
        if clock is None:
            return None
        before = public(clock.link)
        link = change(dict(clock.link))
        if link == clock.link:
            return clock
        Clock.objects.filter(pk=clock.pk).update(link=link)
        clock.link = link
        after = public(link)
        if after != before:
            event = {"type": "clock.link", "board": board_id, "link": after}
            transaction.on_commit(
                lambda: services.broadcast([(services.round_group(round_id), event)]),
                robust=True)
    return clock


def socket_state(board_id: int, round_id: int, channel: str, now: int,
                 silent_since: int | None = None, gone: bool = False,
                 device: str | None = None) -> Clock | None:
    """A board socket opened or heard again (live), went silent since ``silent_since``, or
    closed (``gone``); one that opens for ``device`` replaces that page's older sockets.
    Returns the clock row the report locked (``_update``)."""

    def change(link: dict[str, Any]) -> dict[str, Any]:
        sockets = dict(link.get("sockets", {}))
        devices = dict(link.get("devices", {}))
        was_live = LIVE in sockets.values()
        if silent_since is not None and channel not in sockets:
            return link  # a socket its page replaced (``device``) going quiet before it closes
        if gone:
            sockets.pop(channel, None)
            devices.pop(channel, None)
        else:
            if device is not None and channel not in devices:
                for older in [c for c, d in devices.items() if d == device]:
                    sockets.pop(older, None)
                    devices.pop(older)
                devices[channel] = device
            sockets[channel] = LIVE if silent_since is None else silent_since
        link["sockets"] = sockets
        if devices:
            link["devices"] = devices
        else:
            link.pop("devices", None)
        if LIVE in sockets.values():
            link.pop("since_ms", None)
        elif was_live or "since_ms" not in link:
            silent = [v for v in sockets.values() if isinstance(v, int)]
            link["since_ms"] = max(silent) if silent else now
        return link

    return _update(board_id, round_id, change)


def mark(board_id: int, round_id: int, note: str) -> None:
    """A reconciled press worth a look: the board stays marked until an arbiter has seen it."""

    def change(link: dict[str, Any]) -> dict[str, Any]:
        link["marked"] = link.get("marked", 0) + 1
        link["notes"] = [*link.get("notes", []), note][-NOTES_KEPT:]
        return link

    _update(board_id, round_id, change)


def seen(board_id: int, round_id: int) -> None:
    """An arbiter has looked at the board's reconciled presses (they stay in the clock log)."""

    def change(link: dict[str, Any]) -> dict[str, Any]:
        link.pop("marked", None)
        link.pop("notes", None)
        return link

    _update(board_id, round_id, change)
