"""``checked``: the model's own validation, run by every service before it writes.

The limits live on the model fields (``tournament.inputs.validation``); this turns their verdict
into
the service layer's one refusal type, with the field's name in the message, so that a form, a
CSV line, a backup object and an API call all get the same words.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models

from tournament.services.errors import ServiceError


class InvalidInput(ServiceError):
    """Input that breaks a field's limits; ``errors`` maps field names to messages."""

    def __init__(self, errors: dict[str, list[str]], where: str = "") -> None:
        self.errors = errors
        self.where = where
        parts = [f"{field}: {' '.join(messages)}" for field, messages in errors.items()]
        super().__init__((f"{where}: " if where else "") + "; ".join(parts))


def _labels(model: type[models.Model], errors: dict[str, list[str]]) -> dict[str, list[str]]:
    named = {}
    for name, messages in errors.items():
        try:
            label = str(model._meta.get_field(name).verbose_name)
        except FieldDoesNotExist:  # NON_FIELD_ERRORS
            label = name
        named[label] = messages
    return named


def checked(instance: models.Model, *, exclude=(), where: str = "") -> models.Model:
    """``instance`` after ``full_clean`` (uniqueness is the database's and the service's job).

    ``exclude`` names fields not to check, typically foreign keys to objects not saved yet.
    """
    try:
        instance.full_clean(exclude=list(exclude), validate_unique=False,
                            validate_constraints=False)
    except ValidationError as exc:
        raise InvalidInput(_labels(type(instance), exc.message_dict), where) from None
    return instance


def checked_value(model: type[models.Model], field: str, value, *, where: str = ""):
    """One value checked against one model field's limits (for a reason stored elsewhere)."""
    try:
        return model._meta.get_field(field).clean(value, None)
    except ValidationError as exc:
        raise InvalidInput(_labels(model, {field: exc.messages}), where) from None
