"""The standings core's exceptions.

Every failure a caller can cause has its own class, so that the Django shell can tell a bad
result record (show it to the arbiter) from an unknown tiebreak name (a settings mistake) without
parsing messages. All derive from :class:`StandingsError`, itself a ``ValueError``: each one is a
bad input, never an internal fault.
"""

from __future__ import annotations

__all__ = [
    "TIEBREAK_MESSAGES",
    "InvalidEventError",
    "InvalidResultError",
    "StandingsError",
    "UnknownTiebreakError",
]


class StandingsError(ValueError):
    """Base class: the input given to the standings core cannot be used."""


class InvalidResultError(StandingsError):
    """One game or bye is inconsistent in itself (wrong VP for its kind, malformed scores, ...)."""


class InvalidEventError(StandingsError):
    """The results do not fit together: unknown or duplicate players, a player twice in a round."""


def _rebuild(cls, code, params):  # type: ignore[no-untyped-def]
    return cls(code, **params)


class UnknownTiebreakError(StandingsError):
    """A tiebreak name is not in the registry (or listed twice); the message lists valid ones.

    ``code`` (a key of :data:`TIEBREAK_MESSAGES`) and ``params`` say it without the English,
    for the shell to translate.
    """

    def __init__(self, code: str, **params: str) -> None:
        self.code, self.params = code, params
        super().__init__(TIEBREAK_MESSAGES[code].format(**params))

    def __reduce__(self):  # pickled with its code and params (the default would pass the text)
        return (_rebuild, (type(self), self.code, self.params))


#: Code -> English text of the tiebreak list's refusals (``str.format`` fields).
TIEBREAK_MESSAGES: dict[str, str] = {
    "unknown": "unknown tiebreak {name}; valid names: {valid}",
    "not_a_list": "expected a list of tiebreak names, got the string {names}",
    "twice": "tiebreak {name} is listed twice",
}
