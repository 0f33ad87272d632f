"""The pairing core's exceptions, one class per kind of failure.

The event pages treat them differently: `NoLegalPairing` becomes "pair this round by hand",
`TrfError` and `InvalidEvent` are input the arbiter must fix, `EngineError` is a broken
engine installation (logged), `EngineConfigError` a wrong setting. All share `PairingError`
so a caller that only wants "pairing failed" needs one ``except``.
"""

from __future__ import annotations


class PairingError(Exception):
    """Base class of every error raised by :mod:`tournament.pairing`."""


class InvalidEvent(PairingError, ValueError):
    """The event handed to the core contradicts itself (e.g. a game one player does not list)."""


class NoLegalPairing(PairingError):
    """No pairing of the round satisfies the absolute criteria; the arbiter pairs by hand.

    Raised instead of returning a partial pairing: a half-paired round is worse than none.
    """


class TrfError(PairingError, ValueError):
    """A TRF file or an engine's pairing output is malformed.

    ``line`` and ``column`` are 1-based and ``None`` when unknown; the message always quotes
    the offending text so the arbiter can find it in the file.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class EngineError(PairingError):
    """The pairing engine failed or answered with something that is not a full pairing."""


class EngineConfigError(PairingError, ValueError):
    """An engine was asked for by an unknown name or with unknown or missing options."""


class EngineMissing(EngineError):
    """The engine of the event's edition is not installed here (bbpPairings not built): the
    shell says so and lets the arbiter decide, never pairs by another edition quietly."""
