"""Reading and writing game records: the text form of game-rules.md section 7 and the JSON form.

:func:`parse_record` takes text, bytes, a JSON string or an already decoded JSON object and
never raises anything but :class:`~.errors.NotationError`, whatever the input; every error
names the line and column and quotes the token. :func:`format_record` writes the canonical
text (or JSON); text -> JSON -> text gives the same tags, actions, claims and clock notes.
The grammar is in docs/notation.md.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tournament.inputs.json_input import JSONRefused, Limits, read_json

from .board import COLOURS
from .errors import EngineError, NotationError
from .messages import Message
from .record import (
    CONTROL_CHAR,
    DRAW,
    FLAG,
    PLACE,
    RESIGN,
    SWAP,
    Action,
    Claim,
    Record,
    check_tag,
)
from .tiles import Placement, Tile

__all__ = [
    "MAX_RECORD_CHARS",
    "claim_of",
    "format_record",
    "parse_record",
    "read_items",
    "scan_text",
]

#: Refuse records longer than this (a full four-player record with draws is under 20 kB).
MAX_RECORD_CHARS = 1_000_000

# One match per line: a plain placement line fills groups 1-6 (each half as one token like
# 'f10R': cell and colour), any other line group 7.
_LINES = re.compile(
    r"^(?:[ \t]*(?:\d{1,4}\.+[ \t]*)?([ABCD])[ \t]+([a-z][0-9]{1,3}[RGBOYP])-"
    r"([a-z][0-9]{1,3}[RGBOYP])(?:[ \t]*(\{[^{}\n]*\}))?(?:[ \t]+@(\d{1,4}):([0-5][0-9]))?"
    r"[ \t]*(?:;[^\n]*)?|([^\n]*))$",
    re.MULTILINE,
)
_FIRST_CELL = re.compile(r"[a-z]")
_TAG = re.compile(
    r"[ \t]*\[([A-Za-z][A-Za-z0-9_]{0,39})[ \t]+\"((?:[^\"\\]|\\.)*)\"[ \t]*\][ \t]*(?:;.*)?"
)
_TOKEN = re.compile(r"\{[^{}]*\}|\{[^}]*|[^\s{}]+|[{}]")
_MOVE_NUMBER = re.compile(r"\d{1,6}\.+")
_CLOCK = re.compile(r"@(\d{1,4}):([0-5][0-9])")
_CLAIM_ITEM = re.compile(r"([RGBOYP])\+(\d{1,3})")
_CLAIM_SPLIT = re.compile(r"[\s,]+")
_UNESCAPE = re.compile(r"\\(.)")
_CLAIMS: dict[str, Claim] = {}  # claim text -> parsed claim (claims repeat a lot)
_VERBS = {"swap": SWAP, "draw": DRAW, "flag": FLAG, "resign": RESIGN}


def parse_record(source: str | bytes | dict[str, Any] | Record) -> Record:
    """Read a record from text, UTF-8 bytes, JSON text or a decoded JSON object.

    >>> record = parse_record('[Rules "mso"]\\n1. A e1R-f2O {O+1} ; first move\\n')
    >>> record.tag("Rules"), str(record.actions[0])
    ('mso', 'A e1R-f2O {O+1}')
    """
    if isinstance(source, Record):
        return source
    tags, tag_lines, items, positions = read_items(source)
    if isinstance(items, tuple):
        return Record(tags, items, positions, tag_lines)
    positions = positions.as_tuple()
    actions = tuple(_row_action(item) if type(item) is tuple else item for item in items)
    return Record(tags, actions, positions, tag_lines)


def _row_action(row: tuple[str, ...]) -> Action:
    """The :class:`Action` of a plain placement line matched by ``_LINES``."""
    seat, first, second, claim, minutes, seconds, _ = row
    clock = int(minutes) * 60 + int(seconds) if minutes else None
    placement = Placement(first[:-1], first[-1], second[:-1], second[-1])
    return Action(seat, PLACE, placement, (), claim_of(claim), clock)


def claim_of(text: str) -> Claim | None:
    """The parsed claim of a ``{...}`` text already checked by :func:`scan_text`."""
    if not text:
        return None
    claim = _CLAIMS.get(text)
    return claim if claim is not None else _parse_claim(text[1:-1], 0, None, 0)


def read_items(source: Any) -> tuple[Any, Any, Any, Any]:
    """``(tags, tag_lines, items, positions)`` of any record source (see :func:`scan_text`);
    a JSON source or a :class:`Record` gives its actions as a tuple."""
    if isinstance(source, Record):
        return source.tags, source.tag_lines, source.actions, source.positions
    if isinstance(source, dict):
        record = Record.from_json(source)
        return record.tags, record.tag_lines, record.actions, record.positions
    if isinstance(source, bytes | bytearray | memoryview):
        raw = bytes(source)
        _check_size(len(raw))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw.count(b"\n", 0, error.start) + 1
            raise NotationError("not_utf8", line=line, offset=error.start) from None
    elif isinstance(source, str):
        text = source
    else:
        raise NotationError("unreadable_type", type=type(source).__name__)
    _check_size(len(text))
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        record = _parse_json_text(text)
        return record.tags, record.tag_lines, record.actions, record.positions
    return scan_text(text)


#: A JSON record's limits: the size is the record's own (``MAX_RECORD_CHARS``, checked first).
_RECORD_JSON = Limits(max_bytes=4 * MAX_RECORD_CHARS)


def format_record(record: Record, *, form: str = "text") -> str:
    """Write a record canonically: ``form="text"`` (numbered lines) or ``form="json"``."""
    if form == "json":
        return json.dumps(record.to_json(), ensure_ascii=False, indent=1) + "\n"
    if form != "text":
        raise NotationError("unknown_form", form=form)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    if record.tags and record.actions:
        lines.append("")
    lines.extend(f"{i}. {action}" for i, action in enumerate(record.actions, 1))
    return "\n".join(lines) + "\n" if lines else ""


def _check_size(size: int) -> None:
    if size > MAX_RECORD_CHARS:
        raise NotationError("too_large", size=f"{size:,}", limit=f"{MAX_RECORD_CHARS:,}")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _parse_json_text(text: str) -> Record:
    """A JSON record, read by the site's one JSON reader (``tournament.inputs.json_input``): deep
    nesting, huge numbers and lone surrogates are refused there with their path."""
    try:
        data = read_json(text, _RECORD_JSON)
    except JSONRefused as refused:
        if refused.code == "syntax":
            raise NotationError("json_invalid", line=refused.line, column=refused.column,
                                detail=refused.params["detail"]) from None
        raise NotationError("json_refused", reason=refused) from None
    return Record.from_json(data)


def _quote(token: str) -> str:
    """A token as it may appear in a message: printable and at most 40 characters."""
    shown = token if token.isprintable() else token.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= 40 else shown[:37] + "..."


class _Positions:
    """``(line, column, claim column)`` per item of a text record, worked out only when asked:
    verification needs them for an error message, which is rare."""

    __slots__ = ("_known", "_lines", "_text", "_text_lines")

    def __init__(self, lines: list[int], known: dict[int, Any], text: str) -> None:
        self._lines, self._known, self._text = lines, known, text
        self._text_lines: list[str] | None = None

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, i: int) -> tuple[int, int | None, int | None]:
        if i in self._known:
            return self._known[i]  # type: ignore[no-any-return]
        lineno = self._lines[i]
        if self._text_lines is None:
            self._text_lines = self._text.split("\n")
        line = self._text_lines[lineno - 1]
        body = line.split(";", 1)[0]
        column = _FIRST_CELL.search(body)
        claim = body.find("{")
        return (lineno, column.start() + 1 if column else None, claim + 1 if claim >= 0 else None)

    def as_tuple(self) -> tuple[tuple[int, int | None, int | None], ...]:
        return tuple(self[i] for i in range(len(self._lines)))


def scan_text(text: str) -> tuple[Any, Any, list[Any], Any]:
    """Split a text record into tags and action items (the shared front end).

    A plain placement line stays the bare tuple of strings the line pattern matched
    ``(seat, "f10R", "f9G", "{claim}", minutes, seconds, "")`` (each half's cell and colour as
    one token; cheap: verification uses it directly, see :func:`claim_of`); other lines become
    :class:`Action`.
    Returns ``(tags, tag_lines, items, positions)``; ``positions`` is indexable like a tuple.
    One regular expression splits all lines at once (one match per line); only lines that are
    not plain placements go through the slower tokenizer.
    """
    _check_size(len(text))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    tags: list[tuple[str, str]] = []
    tag_lines: list[int] = []
    items: list[Any] = []
    lines: list[int] = []
    known: dict[int, Any] = {}
    tag_names: set[str] = set()
    append, add_line, claims = items.append, lines.append, _CLAIMS
    for lineno, row in enumerate(_LINES.findall(text), 1):
        if row[0]:
            claim = row[3]
            if claim and claim not in claims:
                try:
                    parsed = _parse_claim(claim[1:-1], lineno, None, len(items) + 1)
                except NotationError as error:
                    line = text.split("\n")[lineno - 1]
                    raise error.at(column=line.split(";", 1)[0].find("{") + 1) from None
                if len(claims) < 4096:
                    claims[claim] = parsed
            append(row)
            add_line(lineno)
            continue
        other = row[6]
        stripped = other.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if stripped.startswith("["):
            if items:
                raise NotationError("tag_after_action", line=lineno, column=1)
            name, value = _parse_tag(other, lineno)
            if name in tag_names:
                raise NotationError("tag_twice", line=lineno, token=name, name=name)
            tags.append((name, value))
            tag_names.add(name)
            tag_lines.append(lineno)
            continue
        action, column, claim_column = _parse_action(other, lineno, len(items) + 1)
        known[len(items)] = (lineno, column, claim_column)
        append(action)
        add_line(lineno)
    return tuple(tags), tuple(tag_lines), items, _Positions(lines, known, text)


def _parse_tag(line: str, lineno: int) -> tuple[str, str]:
    match = _TAG.fullmatch(line)
    if match is None:
        raise NotationError(
            "tag_malformed",
            text=_quote(line.strip()),
            line=lineno,
            column=line.find("[") + 1,
            token=line.strip(),
        )
    name, value = match.group(1, 2)
    if "\\" in value:
        value = _UNESCAPE.sub(r"\1", value)
    try:
        if CONTROL_CHAR.search(value):  # the name is already a valid one (see _TAG)
            check_tag(name, value)
    except EngineError as error:
        raise error.at(line=lineno, column=match.start(2) + 1) from None
    return name, value


def _parse_claim(content: str, lineno: int, column: int | None, number: int) -> Claim:
    points: dict[str, int] = {}
    for item in _CLAIM_SPLIT.split(content.strip()):
        if not item:
            continue
        match = _CLAIM_ITEM.fullmatch(item)
        if match is None:
            raise NotationError(
                "claim_item_malformed",
                item=_quote(item),
                line=lineno,
                column=column,
                action=number,
                token=item,
            )
        colour, amount = match.group(1), int(match.group(2))
        if amount == 0:
            raise NotationError(
                "claim_item_zero",
                item=item,
                line=lineno,
                column=column,
                action=number,
                token=item,
            )
        if colour in points:
            raise NotationError(
                "claim_colour_twice",
                colour=colour,
                claim=_quote(content),
                line=lineno,
                column=column,
                action=number,
                token=item,
            )
        points[colour] = amount
    return tuple((c, points[c]) for c in COLOURS if c in points)


def _parse_action(line: str, lineno: int, number: int) -> tuple[Action, int, int | None]:
    """The slow path: tokenize an action line and say exactly what is wrong with it."""
    cut = line.find(";")
    body = line if cut < 0 else line[:cut]
    tokens = [(m.start() + 1, m.group()) for m in _TOKEN.finditer(body)]

    def fail(code: str, column: int, token: str, **params: Any) -> NotationError:
        return NotationError(
            code, line=lineno, column=column, action=number, token=token, **params
        )

    if tokens and _MOVE_NUMBER.fullmatch(tokens[0][1]):
        tokens.pop(0)
    if not tokens:
        column = len(line) + 1
        raise fail("number_without_action", column, "")
    column, seat = tokens.pop(0)
    if seat not in ("A", "B", "C", "D"):
        raise fail("seat_expected", column, seat, text=_quote(seat))
    clock = None
    if tokens:
        match = _CLOCK.fullmatch(tokens[-1][1])
        if match is not None:
            clock = int(match.group(1)) * 60 + int(match.group(2))
            tokens.pop()
    if not tokens:
        raise fail("seat_without_action", len(body.rstrip()) + 1, "", seat=seat)
    body_column, verb = tokens.pop(0)
    claim_column = None
    if verb in _VERBS:
        kind = _VERBS[verb]
        tiles: list[Tile] = []
        if kind in (SWAP, DRAW):
            for col, token in tokens:
                try:
                    tiles.append(Tile.parse(token))
                except EngineError:
                    raise fail("not_a_tile_in_line", col, token, text=_quote(token)) from None
            tokens = []
            if kind == DRAW and not tiles:
                raise fail("draw_lists_no_tiles", body_column, verb)
        action = Action(seat, kind, tiles=tuple(tiles), clock=clock)
    else:
        try:
            placement = Placement.parse(verb)
        except EngineError:
            raise fail("not_an_action", body_column, verb, text=_quote(verb)) from None
        claim = None
        if tokens and tokens[0][1].startswith("{"):
            claim_column, text = tokens.pop(0)
            if not text.endswith("}"):
                raise fail("claim_unclosed", claim_column, text, text=_quote(text))
            claim = _parse_claim(text[1:-1], lineno, claim_column, number)
        action = Action(seat, PLACE, placement, claim=claim, clock=clock)
    if tokens:
        column, token = tokens[0]
        what = Message("clock_note_last") if token.startswith("@") else Message("unexpected")
        raise fail("not_understood", column, token, text=_quote(token), what=what)
    return action, body_column, claim_column
