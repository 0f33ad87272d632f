"""The standings core's exceptions.

Every failure a caller can cause has its own class, so that the Django shell can tell a bad
result record (show it to the arbiter) from an unknown tiebreak name (a settings mistake) without
parsing messages. All derive from :class:`StandingsError`, itself a ``ValueError``: each one is a
bad input, never an internal fault.
"""

from __future__ import annotations

__all__ = [
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


class UnknownTiebreakError(StandingsError):
    """A tiebreak name is not in the registry (or listed twice); the message lists valid ones."""
