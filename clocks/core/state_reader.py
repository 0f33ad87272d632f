"""A stored clock state read back from a file nobody vouches for (an event backup).

``ClockState.from_dict`` trusts its input: the server wrote it. A backup may have been edited
or crafted, and a state that only looks right (a time as a string, a press number of 10**30, a
turn of "C") would be stored and fail later, at the first press or in the flag timer, far from
the file that caused it. So a file's state is read field by field against the core's own
records, every number a whole number within ±2**53 ms (about 285,000 years, far inside the
database's 64 bits and exact in JavaScript), and it must be exactly what ``to_dict`` writes
for the state it describes: no key missing, none added. The error names the path of the first
field that is wrong.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import StrEnum
from typing import Any

from clocks.core.clock import ClockState
from clocks.core.timecontrol import TimeControl, TimeControlError

__all__ = ["MAX_MS", "StateError", "read_state"]

#: The largest magnitude of any number in a state read from a file.
MAX_MS = 2**53


class StateError(ValueError):
    """A state that is not one this server could have written; ``path`` names the field."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def read_state(data: object, path: str = "state") -> ClockState:
    """The clock state ``data`` describes, or ``StateError`` naming the first wrong field."""
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
    return state


def _check_object(data: object, record: type, path: str) -> None:
    if not isinstance(data, dict):
        raise StateError(path, "must be an object")
    hints = typing.get_type_hints(record)
    names = [f.name for f in dataclasses.fields(record)]
    for key in data:
        if key not in names:
            raise StateError(f"{path}.{key}", "unknown field")
    for name in names:
        if name not in data:
            raise StateError(f"{path}.{name}", "missing")
        _check_value(data[name], hints[name], f"{path}.{name}")


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
    if dataclasses.is_dataclass(kind) and kind is not TimeControl:
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
