"""A small fixed-window rate limit per key (a board token), kept in Django's cache.

Enough to stop a runaway script or a stuck button from flooding a board with submissions.
The cache is Redis when ``REDIS_URL`` is set (``tournament.config.cache_config``), so every
worker of a scaled-out deployment counts against the same limit; the embedded setup's one
process keeps the counts in its local memory.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def allow(key: str, *, limit: int, window_s: int, now: float | None = None) -> bool:
    """Count one use of ``key``; False once ``limit`` uses fall in the current window."""
    window = int((now if now is not None else time.time()) // window_s)
    name = f"throttle:{key}:{window}"
    if cache.add(name, 1, timeout=window_s * 2):
        return True
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=window_s * 2)
        return True
    return count <= limit
