"""Whether each seat of an online game is connected now, as the server hears it: the arbiter's
online round page shows it per seat.

A seat's page speaks at least every 1.25 s while it waits (its heartbeat, docs/online-protocol.md)
and with every move it makes, so a seat not heard from for ``LIVE_WITHIN_MS`` is offline, since
the last time it was heard; a socket that closes says so at once. Kept in the cache (shared by
the workers in the scale-out configuration, per process on the embedded one, like the throttles):
what is lost with it is only this display, never a game's state. Only what the server heard
counts; nothing a page claims.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

#: Heard within this long: connected (the heartbeat's pace leaves room for a slow network).
LIVE_WITHIN_MS = 10_000
_KEPT_S = 24 * 60 * 60


def _key(game_id: int, seat: str) -> str:
    return f"online-heard:{game_id}:{seat}"


async def heard(game_id: int, seat: str, now_ms: int, *, closed: bool = False) -> None:
    """The seat's socket sent something (or ``closed``) at ``now_ms``, server time."""
    await cache.aset(_key(game_id, seat), {"at": now_ms, "closed": closed}, _KEPT_S)


def seats(game_id: int, now_ms: int) -> dict[str, dict[str, Any]]:
    """Per seat: ``live`` (heard within ``LIVE_WITHIN_MS`` and not closed since) and ``at``,
    when it was last heard (server ms; None: never, or no longer known)."""
    found = cache.get_many([_key(game_id, seat) for seat in ("A", "B")])
    result = {}
    for seat in ("A", "B"):
        mark = found.get(_key(game_id, seat))
        at = mark["at"] if isinstance(mark, dict) else None
        result[seat] = {"at": at, "live": at is not None and not mark["closed"]
                        and now_ms - at <= LIVE_WITHIN_MS}
    return result
