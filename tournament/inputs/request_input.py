"""The one reader of whole numbers and dates that come in a request (query string, form field,
URL part handed on by a view): every view asks here rather than calling ``int()``.

``str.isdigit`` and ``int()`` are too generous for input: ``"²".isdigit()`` is true (and
``int("²")`` then raises), ``int()`` takes ``"٣"``, ``" 1_000 "`` and 5,000-digit strings (a
``ValueError`` past 4,300 digits, an ``OverflowError`` from SQLite past 64 bits, a PostgreSQL
error past a ``smallint``'s 32,767). Here a number is plain ASCII digits
(a minus sign where the column allows one) within the range of the column it is meant for, as
PostgreSQL sizes that column, on every database, so that SQLite and PostgreSQL refuse the same
input. Anything else raises :class:`InputRefused`, which ``tournament.site.middleware`` turns into a
400 with the message (the API's JSON error shape under ``/api/``), unless the view says it
otherwise.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

__all__ = ["InputRefused", "column_range", "date_time", "whole_number"]

_DIGITS = re.compile(r"-?[0-9]{1,20}")


class InputRefused(Exception):
    """A number or date from a request that cannot be used; ``field`` names the input (the
    label the person sees), ``message`` says why in the request's language, ``code`` is the
    stable word for programs (the API's error shape)."""

    code = "bad_input"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def column_range(model: type[Model], name: str) -> tuple[int, int]:
    """The values the integer column ``model.name`` holds on every supported database.

    PostgreSQL's size of the column's type (a foreign key: the key it points to), narrowed by
    the field's own minimum and maximum validators. SQLite's columns hold 64 bits whatever the
    type, so its own range is never the narrower one.
    """
    field: Field = model._meta.get_field(name)
    if field.is_relation:
        field = field.target_field
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    for validator in field.validators:
        if isinstance(validator, MinValueValidator):
            low = max(low, validator.limit_value)
        elif isinstance(validator, MaxValueValidator):
            high = min(high, validator.limit_value)
    return low, high


def whole_number(raw: object, *, label: str, column: tuple[int, int],
                 required: bool = True) -> int | None:
    """``raw`` (a ``request.GET``/``POST`` value) as a whole number within ``column`` (see
    :func:`column_range`; a narrower range of the caller's own is fine too). Surrounding spaces
    are allowed; an empty value is ``None`` when not ``required``."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        if required or not isinstance(raw, str | None):
            raise InputRefused(label, _("%(field)s: a whole number is needed.")
                               % {"field": label})
        return None
    if not _DIGITS.fullmatch(text):
        raise InputRefused(label, _("%(field)s: %(value)s is not a whole number (digits 0-9 "
                                    "only).") % {"field": label, "value": _shown(text)})
    value, (low, high) = int(text), column
    if not low <= value <= high:
        raise InputRefused(label, _("%(field)s: %(value)s is out of range (%(low)s to "
                                    "%(high)s).") % {"field": label, "value": _shown(text),
                                                     "low": low, "high": high})
    return value


def date_time(raw: object, *, label: str) -> datetime | None:
    """``raw`` as an aware date and time (``2026-05-02T09:30``, with an optional UTC offset;
    without one it is the site's time zone), or ``None`` for an empty value. A date that does
    not exist (month 13, 25 o'clock), an offset past ±24 hours, or one so near year 1 or 9999
    that it leaves the calendar in UTC is refused."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return None
    try:
        when = parse_datetime(text)
        if when is not None:
            if timezone.is_naive(when):
                when = timezone.make_aware(when)
            when.astimezone(UTC)  # refuse now what the database would overflow on later
    except (ValueError, OverflowError):
        when = None
    if when is None:
        raise InputRefused(label, _("%(field)s: %(value)s is not a date and time like "
                                    "2026-05-02T09:30.") % {"field": label,
                                                            "value": _shown(text)})
    return when


def _shown(text: str) -> str:
    """The refused value as a message quotes it: printable and short."""
    shown = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
    return repr(shown if len(shown) <= 24 else shown[:21] + "...")
