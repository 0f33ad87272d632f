"""A stored clock state read back from a file nobody vouches for (an event backup).

``ClockState.from_dict`` trusts its input: the server wrote it. A backup may have been edited
or crafted, and a state that only looks right (a time as a string, a press number of 10**30, a
turn of "C") would be stored and fail later, at the first press or in the flag timer, far from
the file that caused it. So a file's state is read field by field against the core's own
records, every number a whole number within ±2**53 ms (about 285,000 years, far inside the
database's 64 bits and exact in JavaScript), and it must be exactly what ``to_dict`` writes
for the state it describes: no key missing, none added. Then it must hold together as every
state the core makes does (``_check_consistency``): a press number that exceeds the presses
kept, say, made every later press fail. Its version is stored in a 32-bit column
(``MAX_VERSION``). The error names the path of the first field that is wrong.

States written before the credit bound lack ``credited_ms`` and ``recent_commands``: they read
as none so far (``_upgraded``), as ``ClockState.from_dict`` reads them.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from enum import StrEnum
from typing import Any

from clocks.core.clock import ClockState, CommandKind, RecentCommands
from clocks.core.timecontrol import TimeControl, TimeControlError

__all__ = ["MAX_MS", "MAX_VERSION", "StateError", "read_state"]

#: The largest magnitude of any number in a state read from a file.
MAX_MS = 2**53
#: The largest version a clock (and a clock log entry) may have: the database keeps it in a
#: ``PositiveIntegerField``, 32 bits on PostgreSQL.
MAX_VERSION = 2**31 - 1
#: What ``to_dict(history=False)`` leaves out: the state before the recent commands is kept so.
_HISTORY = ("presses", "log", "recent_commands")


class StateError(ValueError):
    """A state that is not one this server could have written; ``path`` names the field."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def read_state(data: object, path: str = "state") -> ClockState:
    """The clock state ``data`` describes, or ``StateError`` naming the first wrong field."""
    data = _upgraded(data)
    _check_object(data, ClockState, path)
    try:
        TimeControl.parse(data["time_control"])
    except TimeControlError as exc:
        raise StateError(f"{path}.time_control", str(exc)) from None
    try:
        state = ClockState.from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise StateError(path, str(exc)) from None
    if state.to_dict() != data:
        raise StateError(path, "not a state this server writes")
    _check_consistency(state, path)
    return state


def _upgraded(data: object) -> object:
    """A state as an earlier version wrote it, with the fields added since at their defaults."""
    if not isinstance(data, dict) or "recent_commands" in data:
        return data
    data = {**data, "recent_commands": None}
    for side in ("a", "b"):
        if isinstance(data.get(side), dict) and "credited_ms" not in data[side]:
            data[side] = {**data[side], "credited_ms": 0}
    return data


def _check_consistency(state: ClockState, path: str) -> None:
    """What every state the core makes holds, and the code relies on."""
    if state.version > MAX_VERSION:
        raise StateError(f"{path}.version", f"must be at most {MAX_VERSION}")
    if state.press_number != len(state.presses):
        raise StateError(f"{path}.press_number", "must be the number of presses kept")
    for index, press in enumerate(state.presses):
        if press.number != index + 1:
            raise StateError(f"{path}.presses[{index}].number", f"must be {index + 1}")
    stamps = [p.at_ms for p in state.presses]
    if stamps != sorted(stamps):
        raise StateError(f"{path}.presses", "must be in the order they were made")
    started = state.started_at_ms is not None
    if not started and (state.turn is not None or state.presses or state.paused):
        raise StateError(path, "a clock that has not started has no turn, press or pause")
    running = state.turn is not None and not state.paused and state.finished is None
    if running != (state.turn_started_ms is not None):
        raise StateError(f"{path}.turn_started_ms", "must be set exactly while a clock runs")
    if state.turn is not None and state.flagged(state.turn):
        raise StateError(f"{path}.turn", "a side whose time ran out cannot be to move")
    if state.flag_turn is not None and not state.flagged(state.flag_turn.side):
        raise StateError(f"{path}.flag_turn", "must be the turn of a flagged side")
    recent = state.recent_commands
    if recent is not None:
        _check_recent(state, recent, f"{path}.recent_commands")


def _check_recent(state: ClockState, recent: RecentCommands, path: str) -> None:
    before = recent.before
    if before.epoch + len(recent.commands) != state.epoch:
        raise StateError(f"{path}.commands", "must be the commands since the state before them")
    if before.press_number != state.press_number or before.finished is not None:
        raise StateError(f"{path}.before", "must be the clock before the commands")
    if before.version > state.version or before.version > MAX_VERSION:
        raise StateError(f"{path}.before.version", "must be below the clock's")
    times = [t for t in (before.updated_ms, *(c.at_ms for c in recent.commands),
                         state.updated_ms) if t is not None]
    if times != sorted(times):
        raise StateError(f"{path}.commands", "must be given in order, after the state before")
    for index, command in enumerate(recent.commands):
        wanted = {CommandKind.ADJUST: (command.side, command.adjust),
                  CommandKind.CORRECT: (command.turn,), CommandKind.FINISH: (command.finish,)}
        if any(value is None for value in wanted.get(command.kind, ())):
            raise StateError(f"{path}.commands[{index}]", "lacks what its kind needs")
    _check_consistency(before, f"{path}.before")


def _check_object(data: object, record: type, path: str, without: tuple[str, ...] = ()) -> None:
    if not isinstance(data, dict):
        raise StateError(path, "must be an object")
    hints = _hints(record)
    names = [name for name in hints if name not in without]
    for key in data:
        if key not in names:
            raise StateError(f"{path}.{key}", "unknown field")
    for name in names:
        if name not in data:
            raise StateError(f"{path}.{name}", "missing")
        _check_value(data[name], hints[name], f"{path}.{name}")


@functools.cache
def _hints(record: type) -> dict[str, Any]:
    """The record's fields with their types, in their order (resolving them is slow)."""
    hints = typing.get_type_hints(record)
    return {f.name: hints[f.name] for f in dataclasses.fields(record)}


def _check_value(value: Any, hint: Any, path: str) -> None:
    if typing.get_origin(hint) is tuple:  # the append-only lists: tuple[Press, ...]
        if not isinstance(value, list):
            raise StateError(path, "must be a list")
        for index, item in enumerate(value):
            _check_object(item, typing.get_args(hint)[0], f"{path}[{index}]")
        return
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None:
        if type(None) not in options:
            raise StateError(path, "must not be empty")
        return
    kind = next(o for o in options if o is not type(None))
    if kind is ClockState:  # the state before the recent commands, kept without its history
        _check_object(value, kind, path, without=_HISTORY)
    elif dataclasses.is_dataclass(kind) and kind is not TimeControl:
        _check_object(value, kind, path)
    elif kind is bool:
        if type(value) is not bool:
            raise StateError(path, "must be true or false")
    elif kind is int:
        if type(value) is not int or abs(value) > MAX_MS:
            raise StateError(path, f"must be a whole number within ±{MAX_MS}")
    elif kind is str or kind is TimeControl:
        if not isinstance(value, str) or len(value) > 300:
            raise StateError(path, "must be a text of at most 300 characters")
    elif isinstance(kind, type) and issubclass(kind, StrEnum):
        if value not in {member.value for member in kind}:
            choices = ", ".join(member.value for member in kind)
            raise StateError(path, f"must be one of {choices}")
    else:  # pragma: no cover - a new field type needs a rule here
        raise StateError(path, f"no rule for {kind!r}")
