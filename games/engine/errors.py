"""The engine's errors: one base type, one subclass per kind of failure.

Every failure the engine reports is an :class:`EngineError`, so a caller (the log submission
form, ``verify_log``) needs one ``except`` clause whatever the input was. The two subclasses
separate "this is not a game record" (:class:`NotationError`) from "this is a record, but the
game it describes breaks a rule" (:class:`IllegalActionError`). Each error carries where it
happened (line, column, action number) and the offending token, and its message quotes it.
The message itself is a code and params (see messages.py), so the shell can translate it.
"""

from __future__ import annotations

from typing import Any

from .messages import MESSAGES, Message, render

__all__ = ["EngineError", "IllegalActionError", "NotationError", "UnknownProfileError"]


class EngineError(ValueError):
    """Base class of every error the engine raises on purpose.

    ``code`` names the message in :data:`~.messages.MESSAGES` and ``params`` fill it in (a
    param may be a nested :class:`~.messages.Message`): the shell translates an error from these
    two alone. ``reason`` is the plain English explanation rendered from them (it quotes the
    offending token); ``line`` is the 1-based line of a text record (for a JSON record: the
    1-based index of the action), ``column`` the 1-based column where sensible, ``action`` the
    1-based number of the action, ``token`` the text that was refused. ``str(error)`` puts the
    position in front of the reason.
    """

    def __init__(
        self,
        code: str,
        *,
        line: int | None = None,
        column: int | None = None,
        action: int | None = None,
        token: str | None = None,
        **params: Any,
    ) -> None:
        if code not in MESSAGES:  # a raise site without its message: a bug, said at once
            raise ValueError(f"unknown engine message code {code!r}")
        super().__init__(code)
        self.code = code
        self.params = params
        self.line = line
        self.column = column
        self.action = action
        self.token = token

    @property
    def reason(self) -> str:
        """The English explanation (rendered when asked: refusals are often caught unread)."""
        return render(Message(self.code, self.params))

    def at(
        self,
        *,
        line: int | None = None,
        column: int | None = None,
        action: int | None = None,
        token: str | None = None,
    ) -> EngineError:
        """Return a copy of this error with the position filled in (kept where already set).

        The game state raises without knowing where the action came from; the replay loop adds
        the record position. A copy keeps the original exception object untouched.
        """
        return type(self)(
            self.code,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
            action=self.action if self.action is not None else action,
            token=self.token if self.token is not None else token,
            **self.params,
        )

    @property
    def message(self) -> str:
        """The plain reason, without the position (the position has its own fields)."""
        return self.reason

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        if self.action is not None:
            where.append(f"action {self.action}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def __repr__(self) -> str:
        params = "".join(f", {name}={value!r}" for name, value in self.params.items())
        return (
            f"{type(self).__name__}({self.code!r}{params}, line={self.line!r}, "
            f"column={self.column!r}, action={self.action!r})"
        )

    def __reduce__(self):  # keep the keyword fields when pickled (multiprocessing, caches)
        fields = (self.code, self.line, self.column, self.action, self.token, self.params)
        return (_rebuild, (type(self), *fields))


def _rebuild(cls, code, line, column, action, token, params):  # type: ignore[no-untyped-def]
    return cls(code, line=line, column=column, action=action, token=token, **params)


class NotationError(EngineError):
    """The input is not a well-formed game record (syntax, tag values, size, encoding)."""


class IllegalActionError(EngineError):
    """The record is well formed but an action breaks the rules, a claim is false, or the
    record stops before the game is over."""


class UnknownProfileError(NotationError):
    """A rules profile name that is not registered; the message lists the valid names."""
