"""Time controls and their notation: ``600``, ``600+5`` (Fischer), ``600d10`` (Bronstein).

The notation is the one of the game record's ``TimeControl`` tag (docs/notation, game-rules.md
section 7): whole seconds per player, then optionally ``+N`` seconds added after every completed
turn (Fischer increment) or ``dN`` seconds of every turn that cost nothing (Bronstein delay).
The value object parses and prints itself, so the event settings, the clock and the game record
all speak the same text.

>>> TimeControl.parse("600d10")
TimeControl(base_s=600, increment_s=0, delay_s=10)
>>> str(TimeControl(600, increment_s=5))
'600+5'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DEFAULT_TIME_CONTROL", "MAX_SECONDS", "MESSAGES", "TimeControl", "TimeControlError"]

#: Upper bound for every number in a time control: a day is far beyond any board game, so a
#: larger value is a typo (or milliseconds typed as seconds) and is refused rather than obeyed.
MAX_SECONDS = 86_400

# Canonical digits only (no sign, no leading zeros), so parse and format round-trip exactly.
_NOTATION = re.compile(r"(0|[1-9][0-9]{0,5})(?:([+d])(0|[1-9][0-9]{0,5}))?")


#: Code -> English text of every refusal (``str.format`` fields). The Django shell translates
#: a refusal from its ``code`` and ``params`` (``tournament.texts.core_messages``), not from the
#: text.
MESSAGES: dict[str, str] = {
    "not_whole": "{field} must be a whole number of seconds, got {value}",
    "out_of_range": "{field} must be between 0 and {limit} seconds, got {value}",
    "base_zero": "base_s must be at least 1 second, got 0",
    "both": "a time control has a Fischer increment or a Bronstein delay, not both "
    "(increment_s={increment}, delay_s={delay})",
    "not_text": "a time control is text like '600+5', got {value}",
    "syntax": "invalid time control {text}: expected seconds per player, optionally "
    "followed by '+N' (Fischer increment) or 'dN' (Bronstein delay), e.g. '600', '600+5', "
    "'600d10'",
    "invalid": "invalid time control {text}: {why}",
}


def _rebuild(cls, code, params):  # type: ignore[no-untyped-def]
    return cls(code, **params)


class TimeControlError(ValueError):
    """A time control that cannot be parsed or makes no sense; the message quotes the input.

    ``code`` (a key of :data:`MESSAGES`) and ``params`` say what is wrong without the English;
    a param may be another ``TimeControlError`` (the reason a quoted text is invalid).
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code, self.params = code, params
        super().__init__(MESSAGES[code].format(**params))

    def __reduce__(self):  # pickled with its code and params (the default would pass the text)
        return (_rebuild, (type(self), self.code, self.params))


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds per player for the whole game, plus either a Fischer increment or a Bronstein delay.

    Whole seconds because the notation has nothing finer; the clock works in milliseconds
    (see the ``*_ms`` properties).
    """

    base_s: int = 600
    increment_s: int = 0
    delay_s: int = 0

    def __post_init__(self) -> None:
        for name in ("base_s", "increment_s", "delay_s"):
            value = getattr(self, name)
            if type(value) is not int:
                raise TimeControlError("not_whole", field=name, value=repr(value))
            if not 0 <= value <= MAX_SECONDS:
                raise TimeControlError("out_of_range", field=name, limit=MAX_SECONDS, value=value)
        if self.base_s == 0:
            raise TimeControlError("base_zero")
        if self.increment_s and self.delay_s:
            raise TimeControlError("both", increment=self.increment_s, delay=self.delay_s)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``600``, ``600+5`` or ``600d10``; ``+0`` and ``d0`` mean no increment or delay.

        Surrounding whitespace is ignored (form input); anything else unexpected is refused with
        the text quoted, never guessed at.
        """
        if not isinstance(text, str):
            raise TimeControlError("not_text", value=repr(text))
        match = _NOTATION.fullmatch(text.strip())
        if match is None:
            raise TimeControlError("syntax", text=repr(text))
        base, kind, extra = match.groups()
        try:
            if kind == "+":
                return cls(int(base), increment_s=int(extra))
            if kind == "d":
                return cls(int(base), delay_s=int(extra))
            return cls(int(base))
        except TimeControlError as error:
            raise TimeControlError("invalid", text=repr(text), why=error) from None

    def __str__(self) -> str:
        if self.increment_s:
            return f"{self.base_s}+{self.increment_s}"
        if self.delay_s:
            return f"{self.base_s}d{self.delay_s}"
        return str(self.base_s)

    @property
    def base_ms(self) -> int:
        return self.base_s * 1000

    @property
    def increment_ms(self) -> int:
        return self.increment_s * 1000

    @property
    def delay_ms(self) -> int:
        return self.delay_s * 1000


#: The tournament rules' time control (tournament-rules.md section 3): 10 minutes, no increment.
DEFAULT_TIME_CONTROL = TimeControl()
