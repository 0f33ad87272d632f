"""An ASGI worker's garbage collector, tuned for a hall of open sockets.

A worker holding 1,500 sockets keeps about 300,000 objects that Python's cycle collector
traces (each socket's consumer, its protocol objects, its tasks). With Python's defaults a
young collection runs every 700 new objects, several times for each clock press, and a full
collection every few seconds; a full one traced all 300,000 objects and held the worker for
150–300 ms of CPU, during which no press was answered: it was the long tail of the clock
benchmark (docs/benchmarks.md). So, in a server process:

- what is loaded at start (modules, settings, URL patterns) is frozen, never traced again;
- a young collection waits for ``YOUNG`` new objects: most objects of a press are freed by
  their reference counts long before, so fewer, larger young collections trace far less;
- full collections no longer run by themselves: ``FULL_EVERY_S`` a background thread runs one,
  so the cycles that outlive the young collections (a socket that closed, say) are still freed,
  and the pause comes once in minutes instead of every few seconds.

``WORKER_GC=off`` keeps Python's defaults (settings.WORKER_GC); the test suite runs with them.
"""

from __future__ import annotations

import gc
import threading
import time

YOUNG = 20_000  # Python's default is 700
OLDER = 10  # young collections per middle one, as Python's default
NEVER = 1_000_000_000  # a full collection only from ``_collect_fully``
FULL_EVERY_S = 600

_started = False


def freeze_and_raise() -> tuple[int, int, int]:
    """Freeze what exists now and raise the thresholds; returns the thresholds before (the
    benchmark client restores them, ``gc.unfreeze`` undoes the freeze)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, NEVER)
    return before


def tune() -> None:
    """Freeze what is loaded, raise the thresholds and start the periodic full collection
    (once per process)."""
    global _started
    if _started:
        return
    _started = True
    freeze_and_raise()
    threading.Thread(target=_collect_fully, name="full-gc", daemon=True).start()


def _collect_fully() -> None:
    while True:
        time.sleep(FULL_EVERY_S)
        gc.collect()
