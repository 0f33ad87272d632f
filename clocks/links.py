"""The board devices' links, for the arbiter's hall: live, offline since when, presses to check.

A board page keeps time through a lost connection (docs/clock.md), so the hall must say which
boards are cut off and which came back with presses the server dated where the device saw
them. The board socket reports here when it opens, when its heartbeat goes silent for
``SILENT_MS`` or resumes, and when it closes; a reconciled press worth a look (``worth_a_look``)
marks the board until an arbiter says it was seen. Each report is one short transaction on the
clock row, written only when the link changes (never per heartbeat), and the new link goes to
the round's hall group after the commit.

The link is kept per socket (by channel name), so a reload whose new socket opens before the old
one closes still reads as live. Each socket also names the device that opened it (``devices``:
the hash of a random id the board page keeps in the browser), and one device has one socket per
board: a new socket of the device replaces its older ones (``opened`` returns them, to be
closed). A worker that dies closes no socket and reports nothing, so its sockets would
otherwise stay listed as live for ever; the page reconnects to another worker, which clears
them.

One device keeps a board's clock (``Clock.holder``, ``clocks.holder``): the hall's link is that
device's, live or offline since the last time the server heard it at its pace (``heard``: each
device's, recorded when its socket falls silent or closes); other devices on the board are
counted as viewers, and those asking to keep the clock are listed (``requests``: one per
device, with when its page opened and what browser it is).

A socket's entry is ``live``, the time since which it is silent, or ``{"burst": ms}``: heard
again after a silence, but only in the burst that ended it (late bytes TCP kept, a queue sent
at once), not yet at its pace, so that a device's new socket on another worker still counts
its silence from ``ms`` (``clocks.core.hearing``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from clocks import groups
from clocks.core.clock import Dated, Reconciliation
from clocks.core.hearing import Hearing
from clocks.models import Clock

SILENT_MS = 3_000  # no heartbeat for this long: the board's device is offline
#: a press credited this much (dated before its arrival) is shown: more than a live link at
#: the page's pace gets (the transport allowance) and more than its heartbeat's jitter
NOTABLE_CREDIT_MS = 2_000
NOTABLE_CLAIM_MS = 1_000  # so is a device claiming this much more than the server observed
NOTES_KEPT = 5
HEARD_KEPT = 4  # devices whose last message is remembered (the holder and a few others)
REQUESTS_KEPT = 5  # devices asking to keep the clock, the latest
LIVE = "live"

Change = Callable[[dict[str, Any], Clock], dict[str, Any]]


def worth_a_look(reconciled: Reconciliation | None) -> bool:
    """A press the arbiter should see: credited more than a few seconds (it waited through an
    outage), claiming more than the server observed, placed before an arbiter's command,
    withdrawing a flag, or limited by the budget (ordinary network lag is not worth it)."""
    if reconciled is None:
        return False
    return (reconciled.late_ms >= NOTABLE_CREDIT_MS or reconciled.before_flag
            or reconciled.dated is Dated.BUDGET or reconciled.before_commands > 0
            or reconciled.claimed_ms - reconciled.late_ms >= NOTABLE_CLAIM_MS)


def is_live(state: Any) -> bool:
    """A socket's entry says it is heard (at its pace, or in a burst after a silence)."""
    return state == LIVE or isinstance(state, dict)


def paced_of(state: Any) -> int | None:
    """When a socket's device was last heard at its pace, as its entry says (None: live, so
    not known outside the worker that serves it)."""
    if isinstance(state, dict):
        return state["burst"]
    return state if isinstance(state, int) else None


def last_heard(link: dict[str, Any], device: str, now: int) -> int | None:
    """When the server last heard ``device`` at its pace: ``now`` while one of its sockets is
    heard, else the latest its sockets and ``heard`` recorded (None: never)."""
    sockets, devices = link.get("sockets", {}), link.get("devices", {})
    states = [sockets[c] for c in sockets if devices.get(c) == device]
    if any(is_live(state) for state in states):
        return now
    times = [t for t in (paced_of(state) for state in states) if t is not None]
    heard = link.get("heard", {}).get(device)
    return max([*times, *([] if heard is None else [heard])], default=None)


def public(link: dict[str, Any], holder: str = "") -> dict[str, Any]:
    """What the hall shows: ``state`` of the device keeping the clock (live, offline or none:
    never connected), ``since_ms`` (offline since its last message), ``viewers`` (other
    devices connected), ``holder`` (since when and how it keeps the clock, None: no device
    does), ``request`` (when a device asked to take the clock over), ``marked`` (reconciled
    presses not seen yet) and their ``notes``."""
    sockets, devices = link.get("sockets", {}), link.get("devices", {})
    held = [c for c in sockets if devices.get(c) == holder] if holder else list(sockets)
    viewers = sum(1 for c, v in sockets.items() if is_live(v) and c not in held)
    if any(is_live(sockets[c]) for c in held):
        state, since = "live", None
    elif holder:
        since = last_heard(link, holder, 0)
        state = "none" if since is None else "offline"
    else:
        since = link.get("since_ms")
        state = "none" if since is None else "offline"
    connected = {devices.get(c) for c, v in sockets.items() if is_live(v)}
    requests = sorted(({"device": device, **asked, "connected": device in connected}
                       for device, asked in link.get("requests", {}).items()),
                      key=lambda r: r["at_ms"])
    return {"state": state, "since_ms": since, "viewers": viewers,
            "holder": link.get("holder") if holder else None, "requests": requests,
            "marked": link.get("marked", 0), "notes": link.get("notes", [])}


def update(board_id: int, round_id: int, change: Change) -> Clock | None:
    """Change the board's link (and its holder: ``change`` may set ``clock.holder``) under the
    clock row's lock; tell the hall if what it shows changed. Returns the clock row as it was
    locked (with the new link), None if missing."""
    with transaction.atomic():
        clock = Clock.objects.select_for_update().filter(board_id=board_id).first()
        if clock is None:
            return None
        holder = clock.holder
        before = public(clock.link, holder)
        link = change(dict(clock.link), clock)
        if link == clock.link and clock.holder == holder:
            return clock
        Clock.objects.filter(pk=clock.pk).update(link=link, holder=clock.holder,
                                                 holder_since_ms=clock.holder_since_ms)
        clock.link = link
        after = public(link, clock.holder)
        if after != before:
            event = {"type": "clock.link", "board": board_id, "link": after}
            transaction.on_commit(
                lambda: groups.broadcast([(groups.ROUND.name(round_id), event)]),
                robust=True)
    return clock


def _heard(link: dict[str, Any], device: str | None, at_ms: int | None,
           holder: str = "") -> None:
    """Remember when ``device`` was last heard at its pace (its socket fell silent or closed);
    the device keeping the clock is never forgotten for others."""
    if device is None or at_ms is None:
        return
    heard = dict(link.get("heard", {}))
    heard[device] = max(at_ms, heard.get(device, at_ms))
    # the devices heard longest ago go first (by time: jsonb keeps no key order)
    others = sorted((d for d in heard if d != holder), key=lambda d: heard[d])
    for old in others[:max(0, len(heard) - HEARD_KEPT)]:
        heard.pop(old)
    link["heard"] = heard


def _since(link: dict[str, Any], sockets: dict[str, Any], was_live: bool, now: int) -> None:
    """``since_ms``: since when no socket of the board is live (the hall's time when no device
    keeps the clock)."""
    if any(is_live(v) for v in sockets.values()):
        link.pop("since_ms", None)
    elif was_live or "since_ms" not in link:
        silent = [t for t in (paced_of(v) for v in sockets.values()) if t is not None]
        link["since_ms"] = max(silent) if silent else now


@dataclass(frozen=True)
class Opening:
    """What a board socket learns as it opens: the clock row its report locked, whether its
    device keeps the clock, when the server last heard the device at its pace before this
    socket (None: not known, no silence is credited: ``clocks.core.hearing``), the device's
    older sockets it replaces (their pages are told to stop) and whether the device has asked
    to keep the clock (``clocks.holder``)."""

    clock: Clock | None
    holds: bool
    paced_ms: int | None
    replaced: tuple[str, ...]
    asked: bool = False


def opened(board_id: int, round_id: int, channel: str, now: int, device: str | None,
           claim: Callable[[dict[str, Any], Clock, str, int], None] | None = None,
           live_elsewhere: dict[str, int] | None = None) -> Opening:
    """A board socket opened for ``device``: listed live (in the burst of a silence, when it
    opens more than a heartbeat after the device was last heard), replacing its older sockets.
    ``claim`` (``clocks.holder``) gives the clock to the device if no device has ever kept it.
    ``live_elsewhere``: this process's older sockets of the device by channel, with the last
    time each heard it at its pace (the others' are known only once reported)."""
    found: dict[str, Any] = {}

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        sockets = dict(link.get("sockets", {}))
        devices = dict(link.get("devices", {}))
        was_live = any(is_live(v) for v in sockets.values())
        older = [c for c, d in devices.items() if device is not None and d == device]
        heard = link.get("heard", {}).get(device) if device is not None else None
        unknown = False
        for old in older:
            state = sockets.pop(old, None)
            devices.pop(old)
            paced = (live_elsewhere or {}).get(old, paced_of(state))
            if paced is None:  # live in another worker, or a dead one: its pace not known
                unknown = unknown or state is not None
            else:
                heard = max(heard or 0, paced)
        # opened after a silence, the socket is in its burst: a socket the device opens next
        # (a page's second attempt, another worker) still counts the silence from ``heard``
        paced = None if unknown else heard
        sockets[channel] = LIVE if Hearing.opened(now, paced).back else {"burst": paced}
        if device is not None:
            devices[channel] = device
        link["sockets"], link["devices"] = sockets, devices
        _since(link, sockets, was_live, now)
        if claim is not None and device is not None:
            claim(link, clock, device, now)
        found.update(replaced=tuple(older), heard=None if unknown else heard,
                     asked=device is not None and device in link.get("requests", {}))
        return link

    clock = update(board_id, round_id, change)
    holds = clock is not None and device is not None and clock.holder == device
    return Opening(clock, holds, found.get("heard"), found.get("replaced", ()),
                   found.get("asked", False))


def socket_state(board_id: int, round_id: int, channel: str, now: int,
                 silent_since: int | None = None, gone: bool = False,
                 device: str | None = None, heard_ms: int | None = None,
                 burst_since: int | None = None) -> Clock | None:
    """A board socket was heard again at its pace (live), heard again in the burst that ended
    its silence since ``burst_since`` (not yet at its pace), went silent since
    ``silent_since``, or closed (``gone``, its device last heard at its pace at ``heard_ms``).
    Returns the clock row the report locked (``update``)."""

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        sockets = dict(link.get("sockets", {}))
        devices = dict(link.get("devices", {}))
        was_live = any(is_live(v) for v in sockets.values())
        if channel not in sockets:
            return link  # a socket its device replaced (``opened``) going quiet or closing
        if gone:
            sockets.pop(channel, None)
            devices.pop(channel, None)
            _heard(link, device, heard_ms, clock.holder)
        elif silent_since is not None:
            sockets[channel] = silent_since
            _heard(link, device, silent_since, clock.holder)
        else:
            sockets[channel] = LIVE if burst_since is None else {"burst": burst_since}
        link["sockets"], link["devices"] = sockets, devices
        _since(link, sockets, was_live, now)
        return link

    return update(board_id, round_id, change)


def mark(board_id: int, round_id: int, note: str) -> None:
    """A reconciled press worth a look: the board stays marked until an arbiter has seen it."""

    def change(link: dict[str, Any], _clock: Clock) -> dict[str, Any]:
        link["marked"] = link.get("marked", 0) + 1
        link["notes"] = [*link.get("notes", []), note][-NOTES_KEPT:]
        return link

    update(board_id, round_id, change)


def seen(board_id: int, round_id: int) -> None:
    """An arbiter has looked at the board's reconciled presses (they stay in the clock log)."""

    def change(link: dict[str, Any], _clock: Clock) -> dict[str, Any]:
        link.pop("marked", None)
        link.pop("notes", None)
        return link

    update(board_id, round_id, change)
