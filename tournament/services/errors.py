"""What a service refuses, and what it reports back."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Result


class ServiceError(Exception):
    """An action the arbiter asked for that the rules or the event's state do not allow."""


class StaleResult(ServiceError):
    """The result changed since the form was shown; nothing was written."""


@dataclass(frozen=True)
class Recorded:
    """What ``record_result`` did: the row it concerns and whether it wrote one."""

    result: Result
    created: bool
    conflict: bool
