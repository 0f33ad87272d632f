"""Game records as values, and their JSON form.

A :class:`Record` is tags plus actions; where it came from (source lines and columns) rides
along for error messages but takes no part in equality, so a record read from text equals the
same record read from JSON. The JSON form (documented in docs/notation.md)::

    {"tags": {"Event": "Demo Open", "Players": "2", "Rules": "mso"},
     "actions": [{"seat": "A", "action": "place", "placement": "d1B-e1R"},
                 {"seat": "B", "action": "place", "placement": "e2B-f2O",
                  "claim": {"B": 1, "O": 1}, "clock": 552},
                 {"seat": "B", "action": "swap", "tiles": ["OY", "YP"]},
                 {"seat": "A", "action": "flag"}]}

``clock`` is the seat's remaining time in seconds (``@9:12`` in text is 552).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .board import COLOURS
from .errors import EngineError, NotationError
from .tiles import Placement, Tile

__all__ = ["ACTION_KINDS", "TAG_NAME", "Action", "Record"]

PLACE, SWAP, DRAW, FLAG, RESIGN = "place", "swap", "draw", "flag", "resign"
#: The action kinds, as written in text (a placement is written as the placement itself).
ACTION_KINDS = (PLACE, SWAP, DRAW, FLAG, RESIGN)
#: What a tag name may look like.
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
CONTROL_CHAR = re.compile(r"[\x00-\x1f\x7f]")  # what a tag value may not hold
_SEATS = "ABCD"
_MAX_CLOCK = 99 * 60 * 60
Claim = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One line of a record: a seat and what it did.

    ``claim`` is None when the line claims nothing, ``()`` for a claimed zero; otherwise
    (colour, points) pairs in colour order. ``clock`` is the remaining time in seconds.
    """

    seat: str
    kind: str
    placement: Placement | None = None
    tiles: tuple[Tile, ...] = ()
    claim: Claim | None = None
    clock: int | None = None

    def __str__(self) -> str:
        if self.kind == PLACE:
            text = f"{self.seat} {self.placement}"
            if self.claim is not None:
                text += " {" + " ".join(f"{c}+{n}" for c, n in self.claim) + "}"
        elif self.kind in (SWAP, DRAW):
            text = " ".join([self.seat, self.kind, *map(str, self.tiles)])
        else:
            text = f"{self.seat} {self.kind}"
        if self.clock is not None:
            text += f" @{self.clock // 60}:{self.clock % 60:02d}"
        return text

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "action": self.kind}
        if self.kind == PLACE:
            data["placement"] = str(self.placement)
            if self.claim is not None:
                data["claim"] = dict(self.claim)
        elif self.kind in (SWAP, DRAW):
            data["tiles"] = [str(t) for t in self.tiles]
        if self.clock is not None:
            data["clock"] = self.clock
        return data


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: ``tags`` (name, value) pairs in order, and the ``actions``.

    ``positions`` holds, per action, ``(line, column, claim column)`` in the source text (JSON:
    ``(index, None, None)``); ``tag_lines`` the line of each tag. Neither takes part in equality.
    """

    tags: tuple[tuple[str, str], ...] = ()
    actions: tuple[Action, ...] = ()
    positions: tuple[tuple[int, int | None, int | None], ...] = field(
        default=(), compare=False, repr=False
    )
    tag_lines: tuple[int | None, ...] = field(default=(), compare=False, repr=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of a tag, or ``default``."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def tag_line(self, name: str) -> int | None:
        """The source line of a tag (None for JSON or an absent tag)."""
        for i, (key, _) in enumerate(self.tags):
            if key == name:
                return self.tag_lines[i] if i < len(self.tag_lines) else None
        return None

    def position(self, index: int) -> tuple[int, int | None, int | None]:
        """``(line, column, claim column)`` of the action at 0-based ``index``."""
        if index < len(self.positions):
            return self.positions[index]
        return (index + 1, None, None)

    def to_json(self) -> dict[str, Any]:
        """The JSON form as plain dicts and lists (``json.dumps`` it as you like)."""
        return {"tags": dict(self.tags), "actions": [a.to_json() for a in self.actions]}

    @staticmethod
    def from_json(data: Any) -> Record:
        """Build a record from its JSON form; anything malformed is a :class:`NotationError`
        whose ``line`` is the 1-based index of the offending action."""
        if not isinstance(data, dict):
            raise NotationError("json_not_object")
        unknown = set(data) - {"tags", "actions"}
        if unknown:
            raise NotationError("json_unknown_key", key=sorted(unknown)[0])
        tags = data.get("tags", {})
        if not isinstance(tags, dict):
            raise NotationError("json_tags_not_object")
        for name, value in tags.items():
            check_tag(name, value)
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise NotationError("json_actions_not_list")
        parsed = []
        for i, item in enumerate(actions, 1):
            try:
                parsed.append(_action_from_json(item))
            except EngineError as error:
                raise error.at(line=i, action=i) from None
        return Record(
            tags=tuple(tags.items()),
            actions=tuple(parsed),
            positions=tuple((i, None, None) for i in range(1, len(parsed) + 1)),
            tag_lines=(None,) * len(tags),
        )


def check_tag(name: Any, value: Any) -> None:
    """Refuse tag names and values that the text form could not carry."""
    if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
        raise NotationError("tag_name_invalid", name=name)
    if not isinstance(value, str):
        raise NotationError("tag_value_not_text", name=name, value=repr(value))
    if CONTROL_CHAR.search(value):
        raise NotationError("tag_control_char", name=name)


def _action_from_json(item: Any) -> Action:
    if not isinstance(item, dict):
        raise NotationError("json_action_not_object", type=type(item).__name__)
    seat, kind = item.get("seat"), item.get("action")
    if not isinstance(seat, str) or seat not in _SEATS or len(seat) != 1:
        raise NotationError("json_unknown_seat", token=str(seat), seat=seat)
    if kind not in ACTION_KINDS:
        raise NotationError(
            "json_unknown_action", token=str(kind), kind=kind, kinds=", ".join(ACTION_KINDS)
        )
    allowed = {"seat", "action", "clock"} | (
        {"placement", "claim"} if kind == PLACE else {"tiles"} if kind in (SWAP, DRAW) else set()
    )
    extra = set(item) - allowed
    if extra:
        raise NotationError("json_key_misplaced", key=sorted(extra)[0], kind=kind)
    clock = item.get("clock")
    if clock is not None and (
        not isinstance(clock, int) or isinstance(clock, bool) or not 0 <= clock <= _MAX_CLOCK
    ):
        raise NotationError("json_clock_invalid", clock=clock, limit=_MAX_CLOCK)
    if kind == PLACE:
        text = item.get("placement")
        if not isinstance(text, str):
            raise NotationError("json_placement_missing")
        return Action(seat, kind, Placement.parse(text), claim=_claim_from_json(item), clock=clock)
    if kind in (SWAP, DRAW):
        tiles = item.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise NotationError("json_tiles_missing", kind=kind)
        if kind == DRAW and not tiles:
            raise NotationError("json_draw_empty")
        return Action(seat, kind, tiles=tuple(Tile.parse(t) for t in tiles), clock=clock)
    return Action(seat, kind, clock=clock)


def _claim_from_json(item: dict[str, Any]) -> Claim | None:
    if "claim" not in item or item["claim"] is None:
        return None
    claim = item["claim"]
    if not isinstance(claim, dict):
        raise NotationError("json_claim_not_object")
    for colour, points in claim.items():
        if colour not in COLOURS or len(colour) != 1:
            raise NotationError("json_claim_colour", token=colour, colour=colour)
        if not isinstance(points, int) or isinstance(points, bool) or not 0 < points <= 999:
            raise NotationError("json_claim_points", points=points, colour=colour)
    return tuple((c, claim[c]) for c in COLOURS if c in claim)
