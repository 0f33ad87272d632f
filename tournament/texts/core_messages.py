"""The cores' refusals in the reader's language.

A pure core says what is wrong as a ``code`` and ``params`` (with its own English text for the
command line and the tests); the shell keeps one gettext msgid per code, with the params as
named placeholders, and translates where the refusal reaches a page. :func:`say` is that step
for any core; this module holds the tables of the time-control grammar (``clocks.core.timecontrol``,
shown in the event settings form), the tiebreak list (the standings core) and the pairing
warnings (the pairing core's checks, on the arbiter's round page). The rules engine's
table is ``games.engine_messages``, which uses :func:`say` too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clocks.core.timecontrol import TimeControlError
from tournament.inputs.json_input import JSONRefused
from tournament.pairing import PairingWarning
from tournament.standings import UnknownTiebreakError

__all__ = ["JSON_DETAILS", "JSON_MSGIDS", "PAIRING_WARNING_MSGIDS", "TIEBREAK_MSGIDS",
           "TIME_CONTROL_MSGIDS", "json_text", "pairing_warning_text", "say", "tiebreak_text",
           "time_control_text"]


def say(table: Mapping[str, Promise], code: str, params: Mapping[str, Any],
        inner: Callable[[Any], Any] = lambda value: value) -> str:
    """The msgid of ``code`` in the active language, filled with ``params``; ``inner`` turns a
    param that is itself a refusal (a reason inside a reason) into its translated text."""
    return str(table[code] % {name: inner(value) for name, value in params.items()})


#: The time-control fields as people call them (the core names its attributes).
TIME_CONTROL_FIELDS: dict[str, Promise] = {
    "base_s": _("the time per player"),
    "increment_s": _("the increment"),
    "delay_s": _("the delay"),
}

TIME_CONTROL_MSGIDS: dict[str, Promise] = {
    "not_whole": _("%(field)s must be a whole number of seconds, got %(value)s"),
    "out_of_range": _("%(field)s must be between 0 and %(limit)s seconds, got %(value)s"),
    "base_zero": _("the time per player must be at least 1 second, got 0"),
    "both": _("a time control has a Fischer increment or a Bronstein delay, not both "
              "(increment %(increment)s s, delay %(delay)s s)"),
    "not_text": _("a time control is text like '600+5', got %(value)s"),
    "syntax": _("invalid time control %(text)s: expected seconds per player, optionally "
                "followed by '+N' (Fischer increment) or 'dN' (Bronstein delay), e.g. '600', "
                "'600+5', '600d10'"),
    "invalid": _("invalid time control %(text)s: %(why)s"),
}


def time_control_text(error: TimeControlError) -> str:
    """A time control refusal in the active language (the nested reason too)."""
    params = dict(error.params)
    if "field" in params:
        params["field"] = TIME_CONTROL_FIELDS.get(params["field"], params["field"])

    def inner(value: Any) -> Any:
        return time_control_text(value) if isinstance(value, TimeControlError) else value

    return say(TIME_CONTROL_MSGIDS, error.code, params, inner)


TIEBREAK_MSGIDS: dict[str, Promise] = {
    "unknown": _("unknown tiebreak %(name)s; valid names: %(valid)s"),
    "not_a_list": _("expected a list of tiebreak names, got the string %(names)s"),
    "twice": _("tiebreak %(name)s is listed twice"),
}


def tiebreak_text(error: UnknownTiebreakError) -> str:
    """A refused tiebreak list in the active language."""
    return say(TIEBREAK_MSGIDS, error.code, error.params)


#: A player's state as a pairing warning names it (the pairing core's ``Status`` values).
PAIRING_STATUS: dict[str, Promise] = {
    "absent": _("absent"),
    "half_bye": _("given a half-point bye"),
    "full_bye": _("given a full-point bye"),
    "withdrawn": _("withdrawn"),
}

PAIRING_WARNING_MSGIDS: dict[str, Promise] = {
    "unknown": _("no player has pairing number %(number)s"),
    "twice": _("%(name)s is paired %(count)s times"),
    "unavailable": _("%(name)s is %(status)s but paired"),
    "missing": _("%(name)s is neither paired nor given the bye"),
    "rematch": _("board %(board)s: %(first)s and %(second)s must not meet again"),
    "second_bye": _("%(name)s already had %(had)s"),
    "first_move_imbalance": _("board %(board)s: %(name)s would have moved first %(first)s and "
                              "second %(second)s times"),
    "first_move_streak": _("board %(board)s: %(name)s would move %(side)s three games "
                           "running"),
}

#: The words a pairing warning fills in: what a player already had, which side they move.
PAIRING_WORDS: dict[str, Promise] = {
    "bye": _("a bye"),
    "forfeit_win": _("a forfeit win"),
    "win_unplayed": _("a win's points without playing"),
    "first": pgettext_lazy("moves first", "first"),
    "second": pgettext_lazy("moves second", "second"),
}


def pairing_warning_text(warning: PairingWarning) -> str:
    """A pairing warning of the pairing core in the active language."""
    params = dict(warning.params)
    if "status" in params:
        params["status"] = PAIRING_STATUS.get(params["status"], params["status"])
    for name in ("had", "side"):
        if name in params:
            params[name] = PAIRING_WORDS[params[name]]
    return say(PAIRING_WARNING_MSGIDS, warning.code, params)


#: What Python's JSON parser says (the ``detail`` of the engine's ``json_invalid`` and of
#: ``tournament.inputs.json_input``'s ``syntax``: a reason inside theirs), in the reader's language.
#: A text not listed (another Python version) is shown as the parser wrote it.
JSON_DETAILS: dict[str, Promise] = {
    "Expecting value": pgettext_lazy("JSON parser", "Expecting value"),
    "Expecting property name enclosed in double quotes": pgettext_lazy(
        "JSON parser", "Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": pgettext_lazy("JSON parser", "Expecting ':' delimiter"),
    "Expecting ',' delimiter": pgettext_lazy("JSON parser", "Expecting ',' delimiter"),
    "Extra data": pgettext_lazy("JSON parser", "Extra data"),
    "Unterminated string starting at": pgettext_lazy("JSON parser",
                                                     "Unterminated string starting at"),
    "Invalid control character at": pgettext_lazy("JSON parser", "Invalid control character at"),
    "Invalid \\escape": pgettext_lazy("JSON parser", "Invalid \\escape"),
    "Invalid \\uXXXX escape": pgettext_lazy("JSON parser", "Invalid \\uXXXX escape"),
}

JSON_MSGIDS: dict[str, Promise] = {
    "not_text": _("expected JSON text, got a %(type)s"),
    "not_utf8": _("not UTF-8 text (invalid byte at offset %(offset)s)"),
    "too_large": _("%(size)s bytes of JSON; the limit is %(limit)s"),
    "syntax": _("not valid JSON: %(detail)s"),
    "too_deep": _("arrays and objects nested deeper than %(limit)s levels"),
    "long_integer": _("an integer of %(digits)s digits (at most %(limit)s)"),
    "bad_float": _("the number %(text)s is not a finite number of at most %(limit)s "
                   "characters"),
    "not_a_number": _("%(text)s is not a JSON number"),
    "lone_surrogate": _("a string holds the lone surrogate \\u%(point)s (not a character)"),
}


def json_text(error: JSONRefused) -> str:
    """A refusal of ``tournament.inputs.json_input.read_json`` in the active language, with
    where."""
    params = error.params
    if error.code == "syntax":
        params = {**params, "detail": JSON_DETAILS.get(params["detail"], params["detail"])}
    text = say(JSON_MSGIDS, error.code, params)
    if error.path is not None:
        where = _("at %(path)s") % {"path": error.path}
    elif error.line is not None:
        where = _("at line %(line)s, column %(column)s") % {"line": error.line,
                                                             "column": error.column}
    else:
        return text
    return f"{text} ({where})"
