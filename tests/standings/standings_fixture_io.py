"""Reading the golden standings events (tests/golden/standings/*.json) into core objects.

Shared by the golden tests and the worked-example test. The JSON shape: ``players`` (id, name),
``rounds`` (each with ``games`` and ``byes``; a game names its ``kind`` and whatever that kind
needs: scores, ``resigned``, ``absent``, ``first_vp``/``second_vp``), ``tiebreaks`` (registry
names in ranking order), ``unplayed`` (the rule for rounds without scores in the colour
tiebreaks, ``UNPLAYED_RULES``; the default when absent) and ``standings``: expected rows after a
round (``after_round`` null = the last), each with ``place``, ``id``, ``vp`` (a fraction
string), optionally ``games`` ([played, won, drawn, lost]) and ``values`` (per tiebreak name: a
vector for the colour criteria, the display string for head-to-head, a number string for the
others).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tournament.standings import WIDEST, Bye, EventResults, Game, Player, ResultKind

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden" / "standings"


def golden_files() -> list[Path]:
    """Every golden standings event, sorted by name."""
    return sorted(GOLDEN_DIR.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def unplayed(data: dict[str, Any]) -> str:
    """The fixture's rule for unplayed rounds in the colour tiebreaks."""
    return data.get("unplayed", WIDEST)


def build_event(data: dict[str, Any]) -> EventResults:
    """The fixture's players, games and byes as an :class:`EventResults`."""
    players = [Player(p["id"], p["name"], p.get("club"), p.get("rating")) for p in data["players"]]
    games: list[Game] = []
    byes: list[Bye] = []
    for rnd in data["rounds"]:
        number = rnd["round"]
        for g in rnd["games"]:
            games.append(_game(number, g))
        for b in rnd["byes"]:
            byes.append(Bye(number, b["player"], ResultKind(b["kind"]), b["vp"]))
    return EventResults(players, games, byes)


def _game(number: int, g: dict[str, Any]) -> Game:
    kind, first, second = g["kind"], g["first"], g["second"]
    if kind == "played":
        return Game.played(number, first, second, g["first_scores"], g["second_scores"])
    if kind == "resigned":
        return Game.resigned(
            number, first, second, g["first_scores"], g["second_scores"], resigned=g["resigned"]
        )
    if kind == "forfeit":
        return Game.forfeit(number, first, second, absent=g["absent"])
    if kind == "double_forfeit":
        return Game.double_forfeit(number, first, second)
    if kind == "decision":
        return Game.decision(
            number,
            first,
            second,
            g["first_vp"],
            g["second_vp"],
            g.get("first_scores"),
            g.get("second_scores"),
        )
    raise ValueError(f"unknown game kind {kind!r} in fixture")
