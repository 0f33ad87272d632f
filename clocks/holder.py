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

- on the new device, both players agree on screen (``take_over``): granted at once when the
  device keeping the clock is not connected; while it is, the arbiter is asked instead, since
  one player's phone could claim both players' agreement;
- by the arbiter in the hall (``hand_over``): to the device that asked, or, when none asked,
  the clock is freed and the next device whose players agree takes it.

An arbiter's session may press on any device (its presses are logged under its name) and never
takes the clock by opening a board page.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db import transaction

from clocks import links, services
from clocks.models import Clock, ClockLogEntry
from tournament.models import Board

_DEVICE_ID = re.compile(r"[A-Za-z0-9]{16,64}")

FIRST = "first"  # the first device that opened the board page
PLAYERS = "players"  # taken over on the new device, both players agreeing
ARBITER = "arbiter"  # handed over by the arbiter
FREED = "freed"  # freed by the arbiter: the next device whose players agree takes it

HELD, ASKED = "held", "asked"


def device_key(raw: str | None) -> str | None:
    """What is stored for a board page's device id (``?device=`` of its socket): a hash, so
    that the database holds nothing a page could present; None if ``raw`` is not an id."""
    if raw is None or not _DEVICE_ID.fullmatch(raw):
        return None
    return hashlib.sha256(raw.encode("ascii")).hexdigest()[:32]


def claim(link: dict[str, Any], clock: Clock, device: str, now: int) -> None:
    """A board socket opens (``links.opened``): its device keeps the clock if no device has
    ever kept it (once freed or handed over, only ``take_over`` and ``hand_over`` give it)."""
    if not clock.holder and "holder" not in link:
        _give(link, clock, device, now, FIRST, "board page", None)


def take_over(board: Board, device: str, *, now: int, who: str, user=None,
              arbiter: bool = False) -> str:
    """The device ``device`` asks to keep the clock, both players agreeing on its screen (or an
    arbiter's session): ``HELD`` when it keeps it now, ``ASKED`` when the device keeping it is
    connected and the arbiter has been asked."""
    outcome = [HELD]

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        if clock.holder == device:
            return link
        if not arbiter and clock.holder and links.public(link, clock.holder)["state"] == "live":
            link["request"] = {"device": device, "at_ms": now}
            outcome[0] = ASKED
            return link
        _give(link, clock, device, now, ARBITER if arbiter else PLAYERS, who, user)
        return link

    services.clock_for(board)
    links.update(board.pk, board.round_id, change)
    return outcome[0]


def hand_over(board: Board, *, now: int, user) -> str:
    """The arbiter in the hall: the clock goes to the device that asked for it, or is freed
    for the next device whose players agree (``take_over``). Returns ``ARBITER`` or ``FREED``."""
    outcome = [FREED]

    def change(link: dict[str, Any], clock: Clock) -> dict[str, Any]:
        request = link.get("request")
        if request is not None:
            _give(link, clock, request["device"], now, ARBITER, user.get_username(), user)
            outcome[0] = ARBITER
        else:
            _give(link, clock, "", now, FREED, user.get_username(), user)
        return link

    services.clock_for(board)
    links.update(board.pk, board.round_id, change)
    return outcome[0]


def _give(link: dict[str, Any], clock: Clock, device: str, now: int, how: str, who: str,
          user) -> None:
    """The clock goes to ``device`` ("": no device), in the caller's transaction: logged, and
    every socket of the board told after the commit (``BoardConsumer.clock_holder``)."""
    handed = bool(clock.holder)
    clock.holder = device
    link["holder"] = {"since_ms": now, "how": how}
    link.pop("request", None)
    ClockLogEntry.objects.create(
        clock_id=clock.pk, action=ClockLogEntry.Action.DEVICE, who=who[:150],
        user=user if getattr(user, "is_authenticated", False) else None, server_ms=now,
        version=clock.version, detail={"how": how, "handed_over": handed})
    event = {"type": "clock.holder", "holder": device}
    group = services.board_group(clock.board_id)
    transaction.on_commit(lambda: services.broadcast([(group, event)]), robust=True)
