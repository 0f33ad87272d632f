"""The limits of what people may type or upload, stated once, on the model fields.

Every way in (the forms, the CSV import, the backup import, the JSON API, the admin) ends in
the model's ``full_clean`` (the admin and model forms by themselves, the services through
``services.validation.checked``), so each limit below is written exactly once.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clocks.core.timecontrol import TimeControl, TimeControlError
from tournament.standings import UnknownTiebreakError, resolve_tiebreaks
from tournament.texts.core_messages import tiebreak_text, time_control_text

#: C0 and C1 control characters and the Unicode line and paragraph separators. Tabs and line
#: breaks have no place in a one-line field either; multi-line texts are TextFields.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: Bidirectional embeddings, overrides and isolates, and the zero-width characters: invisible,
#: they reorder the text around a name on a page (U+202E turns "board 3 against X, link"
#: around) or make two equal-looking names different.
_INVISIBLE = re.compile(r"[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]")


def one_line(value: str) -> None:
    """Refuse control characters (NUL breaks exports, a line break breaks TRF lines) and the
    invisible formatting characters of ``_INVISIBLE``; the message names the character."""
    found = _CONTROL.search(value)
    if found:
        raise ValidationError(
            _("Control character U+%(code)04X at position %(pos)d is not allowed here."),
            code="control_character",
            params={"code": ord(found.group()), "pos": found.start() + 1},
        )
    found = _INVISIBLE.search(value)
    if found:
        raise ValidationError(
            _("Invisible character U+%(code)04X (%(name)s) at position %(pos)d is not allowed "
              "here: it can reorder or hide the text around it."),
            code="invisible_character",
            params={"code": ord(found.group()), "pos": found.start() + 1,
                    "name": unicodedata.name(found.group()).lower()},
        )


def time_control(value: str) -> None:
    """The time-control grammar of ``clocks.core.timecontrol``: ``600``, ``600+5``, ``600d10``."""
    try:
        TimeControl.parse(value)
    except TimeControlError as exc:
        raise ValidationError(time_control_text(exc), code="time_control") from None


def tiebreak_list(value) -> None:
    """A list of known tiebreak names, each once (the standings core's registry decides)."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ValidationError(_("The tiebreaks are a list of names."), code="tiebreaks")
    try:
        resolve_tiebreaks(value)
    except UnknownTiebreakError as exc:
        raise ValidationError(tiebreak_text(exc), code="tiebreaks") from None
