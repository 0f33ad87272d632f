"""A board's clock as a file keeps it: its state and its log, written out and read back.

Two files hold clocks: the history entry of a re-pairing that removed boards (what the removed
clocks had seen, ``clocks.attachments``) and the event backup (``backups.document``), where a
board's clock is kept so that a restore after a crash or a move to another machine gives every
board its times back, with its presses, the arbiter's adjustments and the Wi-Fi
reconciliations ("press 14, measured by the board: 5.8 s, arrived 11.2 s late": the log
entry's ``detail.reconciled``) that decided them.

The log is kept without the states before and after each change (the state's own ``presses``
and ``log`` lists replay them, and they would make a backup ten times larger): a restored
entry has none. Times are the server's wall clock in milliseconds since 1970, so they keep
their meaning on another machine. A clock that was running when the file was written comes
back paused where its last change left it (the turn in progress starts again with the time its
side had at its start, as a restored online game's does): nobody's time runs while the server
was down, and the arbiter resumes the round from the hall.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clocks.core.clock import ClockState
from clocks.core.state_reader import MAX_MS, MAX_VERSION, StateError, read_state
from clocks.models import Clock, ClockLogEntry, compact
from tournament.models import Board

#: Who the pause of a restored running clock is logged under when no importer is known.
RESTORE = "backup"
_ACTIONS = {choice.value for choice in ClockLogEntry.Action}
_WHO_LENGTH = ClockLogEntry._meta.get_field("who").max_length


def record(clock: Clock, entries: list[ClockLogEntry]) -> dict[str, Any]:
    """The clock's state and log (``entries``, oldest first) as JSON-able values."""
    return {
        "state": clock.state,
        "log": [
            {"action": e.action, "who": e.who, "server_ms": e.server_ms,
             "version": e.version, "detail": e.detail}
            for e in entries
        ],
    }  # fmt: skip


@dataclass(frozen=True)
class ArchivedClock:
    """A clock read from a file and checked, not yet stored."""

    state: ClockState
    log: list[dict[str, Any]]


def read_record(data: object, path: str) -> ArchivedClock:
    """A clock ``record`` read back, or ``StateError`` naming the first wrong field."""
    if not isinstance(data, dict) or set(data) != {"state", "log"}:
        raise StateError(path, "must be an object with a state and a log")
    state = read_state(data["state"], f"{path}.state")
    if state.started_at_ms is None:
        raise StateError(f"{path}.state", "a clock that never started is not kept")
    log = data["log"]
    if not isinstance(log, list):
        raise StateError(f"{path}.log", "must be a list")
    for index, entry in enumerate(log):
        _check_entry(entry, f"{path}.log[{index}]")
    return ArchivedClock(state, log)


def _check_entry(entry: object, path: str) -> None:
    if not isinstance(entry, dict) or set(entry) != {"action", "who", "server_ms", "version",
                                                     "detail"}:
        raise StateError(path, "must be an object with action, who, server_ms, version, detail")
    if entry["action"] not in _ACTIONS:
        raise StateError(f"{path}.action", "must be one of " + ", ".join(sorted(_ACTIONS)))
    who = entry["who"]
    if not isinstance(who, str) or not 0 < len(who) <= _WHO_LENGTH or not who.isprintable():
        raise StateError(f"{path}.who", f"must be a printable text of 1 to {_WHO_LENGTH} "
                                        "characters")
    for name, top in (("server_ms", MAX_MS), ("version", MAX_VERSION)):
        if type(entry[name]) is not int or not 0 <= entry[name] <= top:
            raise StateError(f"{path}.{name}", f"must be a whole number from 0 to {top}")
    if not isinstance(entry["detail"], dict):
        raise StateError(f"{path}.detail", "must be an object")


def restore(board: Board, archived: ArchivedClock, *, who: str, user=None,
            now_ms: int) -> Clock:
    """Store ``archived`` as ``board``'s clock (a new board: nothing to lock), paused if it was
    running, the pause logged under ``who`` at ``now_ms``."""
    clock = Clock(board=board)
    state = archived.state
    entries = [
        ClockLogEntry(clock=clock, action=e["action"], who=e["who"], server_ms=e["server_ms"],
                      version=e["version"], detail=e["detail"], state_after=None)
        for e in archived.log
    ]
    if state.finished is None and state.running is not None:
        paused = state.pause(state.updated_ms)
        entries.append(ClockLogEntry(
            clock=clock, action=ClockLogEntry.Action.PAUSE, who=who, user=user,
            server_ms=now_ms, version=paused.version, state_before=compact(state),
            state_after=compact(paused), detail={"reason": "restored from a backup"},
        ))
        state = paused
    clock.store(state)
    clock.save()
    ClockLogEntry.objects.bulk_create(entries)
    return clock
