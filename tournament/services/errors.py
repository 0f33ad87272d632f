"""What a service refuses, and what it reports back."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Result


class ServiceError(Exception):
    """An action the arbiter asked for that the rules or the event's state do not allow."""


class InvalidResult(ServiceError):
    """A result that cannot be recorded as given; ``field`` names the input at fault.

    The outcome core's ``ResultError`` becomes this at the service boundary, so that views and
    the API see one refusal type from the service layer.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class ResultRefused(ServiceError):
    """A board that takes no result of this kind: another app decides its result (an online
    game's board: only its game, or an arbiter's decision with a reason). ``code`` is stable,
    for programs; nothing was written."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleResult(ServiceError):
    """The result changed since the form was shown; nothing was written."""


class NeedsConfirmation(ServiceError):
    """The action would remove clocks, records or live entries: ask the arbiter first.

    ``attachments`` lists what would go; calling again with ``confirm=True`` removes it and
    keeps a snapshot in the event's history.
    """

    def __init__(self, message: str, attachments: list) -> None:
        super().__init__(message)
        self.attachments = attachments


@dataclass(frozen=True)
class Recorded:
    """What ``record_result`` did: the row it concerns and whether it wrote one;
    ``disputed_by``: the players whose confirmation differs from it (it was kept as a
    conflict beside their accounts)."""

    result: Result
    created: bool
    conflict: bool
    disputed_by: tuple[str, ...] = ()
