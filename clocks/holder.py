"""One clock device per board: the device that keeps a board's clock, and handing it over.

The board's link is printed on the scoresheet's QR code, so any player can open the board page
on their own phone. Two devices pressing one clock disagree on screen, and a second device's
presses were a door: a device on a live link claiming time it never lost. So the first device
that opens the board page keeps the clock (``claim``); every other device sees the clock and the
scoresheet but its presses are refused with the reason (``clocks.access.PressVet`` reads
``Clock.holder`` under the press's lock). The device is the browser: its board page keeps a
random id in the browser's storage and sends it with its socket (``device_key`` stores a hash
of it).

Handing over (a tablet whose battery died) is explicit and logged in the clock's log, and the
hall shows it:

- on the new device, both players agree on screen (``take_over``). Both boxes ticked on one
  screen are that one device's word, so it is granted at once only when the device keeping the
  clock has not been heard for ``QUIET_MS`` (a minute: its battery died, it was switched off);
  otherwise the arbiter is asked: the hall lists each asking device (one request per device)
  with its code, its browser, when its page opened and how long it watched;
- by the arbiter in the hall (``hand_over``): to the device the arbiter names among those that
  asked, or, when none asked, the clock is freed and the next device whose players agree takes
  it.

A device's silence is counted for its presses only from the moment it took the clock
(``Clock.holder_since_ms``, ``clocks.core.hearing.Silence.since``): what it did not send while
it only watched is not the keeper's silence, so a handover carries no credit from before it.

An arbiter's session may press on any device (its presses are logged under its name) and never
takes the clock by opening a board page.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clocks import groups, links, services
from clocks.models import Clock, ClockLogEntry
from tournament.models import Board

_DEVICE_ID = re.compile(r"[A-Za-z0-9]{16,64}")
#: The letters of a device's code: no 0/O or 1/I/L to misread between a phone and the hall.
_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

FIRST = "first"  # the first device that opened the board page
PLAYERS = "players"  # taken over on the new device, both players agreeing
ARBITER = "arbiter"  # handed over by the arbiter
FREED = "freed"  # freed by the arbiter: the next device whose players agree takes it

HELD, ASKED = "held", "asked"

#: While the device keeping the clock was heard this recently, only the arbiter moves it.
QUIET_MS = 60_000


class HandOverRefused(Exception):
    """A hand-over the hall cannot carry out as asked; the text says why."""


def device_key(raw: str | None) -> str | None:
    """What is stored for a board page's device id (``?device=`` of its socket): a hash, so
    that the database holds nothing a page could present; None if ``raw`` is not an id."""
    if raw is None or not _DEVICE_ID.fullmatch(raw):
        return None
    return hashlib.sha256(raw.encode("ascii")).hexdigest()[:32]


def device_code(device: str) -> str:
    """Four letters naming a device (``device_key``) on its own page and in the hall, so that
    the arbiter hands the clock to the phone in the players' hands, not to another one."""
    number, letters = int(device[:8], 16), []
    for _i in range(4):
        number, digit = divmod(number, len(_CODE_LETTERS))
        letters.append(_CODE_LETTERS[digit])
    return "".join(letters)


def claim(link: dict[str, Any], clock: Clock, device: str, now: int) -> None:
    """A board socket opens (``links.opened``): its device keeps the clock if no device has
    ever kept it (once freed or handed over, only ``take_over`` and ``hand_over`` give it)."""
    if not clock.holder and "holder" not in link:
        _give(link, clock, device, now, FIRST, "board page", None)


def take_over(board: Board, device: str, *, now: int, who: str, user=None,
              arbiter: bool = False, asking: dict[str, Any] | None = None) -> str:
    """The device ``device`` asks to keep the clock, both players agreeing on its screen (or an
    arbiter's session): ``HELD`` when it keeps it now, ``ASKED`` when the device keeping it was
    heard within ``QUIET_MS`` and the arbiter has been asked. ``asking``: what the hall shows
    of the device (``opened_ms``, when its page's socket opened; ``agent``, its browser)."""
    outcome = [HELD]

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        if clock.holder == device:
            return link
        heard = links.last_heard(link, clock.holder, now) if clock.holder else None
        if not arbiter and heard is not None and now - heard < QUIET_MS:
            requests = {d: r for d, r in link.get("requests", {}).items() if d != device}
            requests[device] = {"at_ms": now, "code": device_code(device), **(asking or {})}
            # the newest requests by their time (the link is JSON: PostgreSQL's jsonb keeps
            # no key order, so the order of the dict says nothing)
            newest = sorted(requests.items(), key=lambda item: item[1]["at_ms"])
            link["requests"] = dict(newest[-links.REQUESTS_KEPT:])
            outcome[0] = ASKED
            return link
        _give(link, clock, device, now, ARBITER if arbiter else PLAYERS, who, user)
        return link

    services.clock_for(board)
    links.update(board.pk, board.round_id, change)
    return outcome[0]


def hand_over(board: Board, *, now: int, user, device: str | None = None) -> tuple[str, str]:
    """The arbiter in the hall: the clock goes to ``device``, which must have asked for it (the
    only device asking may go unnamed), or, when no device asked, it is freed for the next
    device whose players agree (``take_over``). Returns ``ARBITER`` and the device's code, or
    ``FREED`` and ""; ``HandOverRefused`` when the device named did not ask, or several asked
    and none is named."""
    outcome = [FREED, ""]

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        requests = link.get("requests", {})
        chosen = device
        if chosen is None and len(requests) > 1:
            raise HandOverRefused(_("Several devices ask to keep this clock: choose one."))
        if chosen is None and requests:
            chosen = next(iter(requests))
        if chosen is not None and chosen not in requests:
            raise HandOverRefused(_("That device has not asked to keep this clock (any more)."))
        if chosen is not None:
            _give(link, clock, chosen, now, ARBITER, user.get_username(), user)
            outcome[:] = [ARBITER, device_code(chosen)]
        else:
            _give(link, clock, "", now, FREED, user.get_username(), user)
        return link

    services.clock_for(board)
    links.update(board.pk, board.round_id, change)
    return outcome[0], outcome[1]


def _give(link: dict[str, Any], clock: Clock, device: str, now: int, how: str, who: str,
          user) -> None:
    """The clock goes to ``device`` ("": no device), in the caller's transaction: logged (with
    the device's code), every request dropped, and every socket of the board told after the
    commit (``BoardConsumer.clock_holder``)."""
    handed = bool(clock.holder)
    clock.holder = device
    clock.holder_since_ms = now
    link["holder"] = {"since_ms": now, "how": how}
    link.pop("requests", None)
    detail = {"how": how, "handed_over": handed}
    if device:
        detail["device"] = device_code(device)
    ClockLogEntry.objects.create(
        clock_id=clock.pk, action=ClockLogEntry.Action.DEVICE, who=who[:150],
        user=user if getattr(user, "is_authenticated", False) else None, server_ms=now,
        version=clock.version, detail=detail)
    event = {"type": "clock.holder", "holder": device, "since_ms": now}
    group = groups.BOARD.name(clock.board_id)
    transaction.on_commit(lambda: groups.broadcast([(group, event)]), robust=True)
