"""The one reader of JSON from outside: request bodies, socket messages, records, backups.

Python's ``json.loads`` alone lets a stranger's input crash the code that called it: 100,000
nested ``[`` raise ``RecursionError``, a 5,000-digit integer raises a ``ValueError`` about
"integer string conversion" (or, below that limit, is a number no column or clock can hold),
``NaN`` and ``1e999`` are not JSON numbers at all, and an escaped lone surrogate (``"\\ud800"``)
is a string that cannot be written as UTF-8 (PostgreSQL and every export refuse it later,
far from the input). :func:`read_json` reads a document within stated :class:`Limits` and
raises one exception, :class:`JSONRefused`, with a ``code``, its ``params`` and where the
problem is: the ``path`` inside the document (``$.actions[3].ms``) or, for text that is not
JSON, its line and column. Every way in catches that one exception.

A pure core (no Django): the rules engine's record reader uses it too. The reader's own
English text is :meth:`JSONRefused.__str__`; ``tournament.texts.core_messages.json_text`` says it in
the reader's language.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_LIMITS", "ENGLISH", "JSONRefused", "Limits", "read_json"]


@dataclass(frozen=True)
class Limits:
    """What one document may hold.

    ``max_bytes``: its size in UTF-8 bytes; ``max_depth``: arrays and objects nested in one
    another (the top level is depth 1); ``max_digits``: the digits of an integer. 15 digits
    keep every integer exact in JavaScript (below 2**53), where the pages read the same data,
    and far above any count, id or millisecond amount the site stores.
    """

    max_bytes: int = 1024 * 1024
    max_depth: int = 32
    max_digits: int = 15


DEFAULT_LIMITS = Limits()

#: A float's literal may be no longer than this (digits, sign, point and exponent).
_MAX_FLOAT_CHARS = 40

#: The English text of each code (the command line, the tests, and the shell's msgids, which
#: ``tournament.texts.core_messages`` keeps with the same placeholders).
ENGLISH: dict[str, str] = {
    "not_text": "expected JSON text, got a {type}",
    "not_utf8": "not UTF-8 text (invalid byte at offset {offset})",
    "too_large": "{size} bytes of JSON; the limit is {limit}",
    "syntax": "not valid JSON: {detail}",
    "too_deep": "arrays and objects nested deeper than {limit} levels",
    "long_integer": "an integer of {digits} digits (at most {limit})",
    "bad_float": "the number {text} is not a finite number of at most {limit} characters",
    "not_a_number": "{text} is not a JSON number",
    "lone_surrogate": "a string holds the lone surrogate \\u{point} (not a character)",
}


class JSONRefused(ValueError):
    """Input that :func:`read_json` does not accept.

    ``code`` is a key of :data:`ENGLISH`, ``params`` its placeholders. ``path`` says where
    in the parsed document (``"$"`` for the whole, ``"$.tags.Event"``, ``"$[2]"``), ``line``
    and ``column`` where in the text (syntax errors); each is ``None`` when it does not apply.
    A ``ValueError``, as ``json.loads``'s own errors are, so older handlers still catch it.
    """

    def __init__(self, code: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None, **params: Any) -> None:
        self.code, self.params = code, params
        self.path, self.line, self.column = path, line, column
        super().__init__(str(self))

    def where(self) -> str:
        """``at $.a[1]`` or ``at line 3, column 7`` (or nothing), in English."""
        if self.path is not None:
            return f"at {self.path}"
        if self.line is not None:
            return f"at line {self.line}, column {self.column}"
        return ""

    def __str__(self) -> str:
        text = ENGLISH[self.code].format(**self.params)
        where = self.where()
        return f"{text} ({where})" if where else text


class _Odd:
    """A number the parser met that is not allowed; found with its path by the walk.

    The parser's hooks cannot raise with a position, so they leave this marker in place of
    the value and :func:`_check` reports it where it sits.
    """

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params


def read_json(data: str | bytes | bytearray, limits: Limits = DEFAULT_LIMITS) -> Any:
    """The document in ``data`` (text, or UTF-8 bytes with an optional BOM), checked.

    Raises :class:`JSONRefused` when it is too large, not UTF-8, not JSON, nested deeper than
    ``limits.max_depth``, holds an integer longer than ``limits.max_digits``, a float that is
    not finite, ``NaN``/``Infinity``, or a lone surrogate. Never any other exception.
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > limits.max_bytes:
            raise JSONRefused("too_large", size=f"{len(data):,}", limit=f"{limits.max_bytes:,}")
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONRefused("not_utf8", offset=error.start) from None
    elif isinstance(data, str):
        text = data
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if size > limits.max_bytes:
            raise JSONRefused("too_large", size=f"{size:,}", limit=f"{limits.max_bytes:,}")
    else:
        raise JSONRefused("not_text", type=type(data).__name__)
    text = text.removeprefix("\ufeff")
    try:
        value = json.loads(text, parse_int=_integer(limits.max_digits), parse_float=_float,
                           parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JSONRefused("syntax", line=error.lineno, column=error.colno,
                          detail=error.msg) from None
    except RecursionError:
        # deeper than Python's own stack allows: certainly deeper than any limit
        raise JSONRefused("too_deep", path="$", limit=limits.max_depth) from None
    _check(value, limits.max_depth)
    return value


def _integer(max_digits: int):
    def parse(literal: str) -> int | _Odd:
        digits = len(literal) - literal.startswith("-")
        if digits > max_digits:
            return _Odd("long_integer", digits=f"{digits:,}", limit=max_digits)
        return int(literal)
    return parse


def _float(literal: str) -> float | _Odd:
    value = float(literal) if len(literal) <= _MAX_FLOAT_CHARS else math.inf
    if not math.isfinite(value):
        shown = literal if len(literal) <= 20 else literal[:17] + "..."
        return _Odd("bad_float", text=shown, limit=_MAX_FLOAT_CHARS)
    return value


def _constant(literal: str) -> _Odd:
    return _Odd("not_a_number", text=literal)


def _check(value: Any, max_depth: int) -> None:
    """Walk the parsed document once (without recursion: the depth is what is checked)."""
    stack: list[tuple[Any, str, int]] = [(value, "$", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise JSONRefused("too_deep", path=path, limit=max_depth)
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key, path)
                    stack.append((inner, f"{path}.{_key(key)}", depth + 1))
            else:
                stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))
        elif isinstance(item, _Odd):
            raise JSONRefused(item.code, path=path, **item.params)


def _check_text(text: str, path: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise JSONRefused("lone_surrogate", path=path,
                              point=f"{ord(text[error.start]):04x}") from None


def _key(key: str) -> str:
    """A key as a path shows it: bare when it is a plain name, else quoted."""
    return key if key.isidentifier() and key.isascii() else json.dumps(key)
