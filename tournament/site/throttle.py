"""Rate limits per client address, kept in Django's cache: failed player-code lookups (the
personal page, the kiosk), the kiosk's check-ins, and new logins made by the sign-up forms
(an invitation's, a self-running event's registration).

A player code's secret half is 50 bits: guessing is hopeless at ten wrong codes per address
every ten minutes. Only a text in a code's own form is a code (the kiosk asks
``player_codes.code_in``): a name searched at the kiosk never counts, whatever its letters.
The cache is Redis when ``REDIS_URL`` is set, so every worker counts against the same limit;
the embedded setup's one process counts in its memory. Fixed windows: a window's count expires
with it.
"""

from __future__ import annotations

import ipaddress
import time

from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import gettext as _

#: Wrong codes one address may try per window before it is refused (429).
FAILED_CODES = 10
FAILED_CODES_WINDOW_S = 600
#: Check-ins (names picked, codes scanned) one kiosk may send per minute: a queue at the door
#: is a few a minute; a stuck key or a script is far more.
KIOSK_ACTIONS = 60
KIOSK_WINDOW_S = 60
#: New logins one address may make per hour: a club signing its players up together makes a
#: handful; a script making accounts, far more.
SIGNUPS = 20
SIGNUPS_WINDOW_S = 3600
#: Searches the kiosk's box sends as a player types (names only: they never check anyone in
#: nor try a code): a few per player, ten times the check-ins.
KIOSK_FILTERS = 600


def client_address(request) -> str:
    """The address the request came from: ``REMOTE_ADDR``, which the ASGI application sets from
    the hop the deployment trusts (``tournament/site/client_address.py``). The login lockout
    counts by it too (``lockout_address``)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:64]


def lockout_address(request) -> str | None:
    """The same address for the login lockout (django-axes, ``AXES_CLIENT_IP_CALLABLE``), which
    keeps it in an address column: ``None`` for a request without one (a login made by a
    command or a test client's ``force_login``), never a word PostgreSQL would refuse."""
    address = request.META.get("REMOTE_ADDR") or ""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def _name(scope: str, request, window_s: int, now: float | None) -> str:
    window = int((now if now is not None else time.time()) // window_s)
    return f"throttle:{scope}:{client_address(request)}:{window}"


def used(request, scope: str, *, window_s: int, now: float | None = None) -> int:
    """How many times ``scope`` was counted for this address in the current window."""
    return int(cache.get(_name(scope, request, window_s, now)) or 0)


def count(request, scope: str, *, window_s: int, now: float | None = None) -> int:
    """Count one use of ``scope`` for this address; the count so far."""
    name = _name(scope, request, window_s, now)
    if cache.add(name, 1, timeout=window_s * 2):
        return 1
    try:
        return cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=window_s * 2)
        return 1


def codes_blocked(request, now: float | None = None) -> bool:
    """Whether this address has used up its wrong codes for now."""
    return used(request, "codes", window_s=FAILED_CODES_WINDOW_S, now=now) >= FAILED_CODES


def code_failed(request, now: float | None = None) -> None:
    count(request, "codes", window_s=FAILED_CODES_WINDOW_S, now=now)


def signups_blocked(request, now: float | None = None) -> bool:
    """Whether this address has made its new logins for this hour."""
    return used(request, "signup", window_s=SIGNUPS_WINDOW_S, now=now) >= SIGNUPS


def signed_up(request, now: float | None = None) -> None:
    count(request, "signup", window_s=SIGNUPS_WINDOW_S, now=now)


def kiosk_allowed(request, now: float | None = None) -> bool:
    """Count one kiosk action; False once this address sent too many this minute."""
    return count(request, "kiosk", window_s=KIOSK_WINDOW_S, now=now) <= KIOSK_ACTIONS


def kiosk_filter_allowed(request, now: float | None = None) -> bool:
    """Count one search sent while typing; False once this address sent too many this minute."""
    return count(request, "kiosk-filter", window_s=KIOSK_WINDOW_S, now=now) <= KIOSK_FILTERS


def too_many(request, *, kiosk: bool = False):
    """The 429 page: what happened and when to try again."""
    if kiosk:
        message = _("Too many check-ins from this device in one minute. Wait a minute, then "
                    "try again; if it happens again, please see the arbiter.")
    else:
        message = _("Too many wrong player codes from this address. Wait ten minutes and try "
                    "again, or ask the arbiter for your card.")
    response = render(request, "tournament/checkin/refused.html",
                      {"heading": _("Too many attempts"), "message": message}, status=429)
    response["Retry-After"] = str(KIOSK_WINDOW_S if kiosk else FAILED_CODES_WINDOW_S)
    return response
