"""One page's reading of an event: what it asks twice is computed once.

A draft's round page asks the same questions of the event from three places: the pairing
warnings, the check against the engine and the TRF that check gives the engine each build the
pairing core's view of the event, and the VP before the round and the TRF's ranks are the same
standings. Inside ``one_reading`` the bridges answer a repeated question from memory.

The memory is the block's and dies with it (a context variable, so two requests served by one
process never share it): a page that only reads wraps its rendering in it, after any write
it made, and the next page reads the database afresh. The answers kept are the cores' frozen
values, which nobody can change in place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

_memory: ContextVar[dict[Hashable, object] | None] = ContextVar("event_reading", default=None)


@contextmanager
def one_reading() -> Iterator[None]:
    """Within the block, ``remembered`` answers a question asked before from memory. A block
    inside another is part of it (the TRF download reads once, and once more inside a page
    that reads it)."""
    if _memory.get() is not None:
        yield
        return
    token = _memory.set({})
    try:
        yield
    finally:
        _memory.reset(token)


def remembered(key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, or inside ``one_reading`` the value it gave for ``key`` before (a failure
    is not kept: asked again, it is computed again and fails again)."""
    memory = _memory.get()
    if memory is None:
        return compute()
    if key not in memory:
        memory[key] = compute()
    return memory[key]  # type: ignore[return-value]
