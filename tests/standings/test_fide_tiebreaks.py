"""The optional FIDE tiebreaks agree with FIDE's own Tie-Break Server on three messy Swiss events.

``tests/golden/fide-tiebreaks/`` holds, per event, a TRF-16 file and the values that the FIDE
Technical Commission's reference implementation (TEC-FIDE/TieBreakServer, C.07 as in force since
2024) computes from it: BH, BH-C1, SB, WIN and WON for every player (copied from
``/work/shared/fixtures/fide-tiebreaks/``; see the README there). Each TRF is read through the
project's own import (:func:`tournament.pairing.trf.import_trf`) and turned into the standings
core's input; every value of every player must agree.

Chess has no colour scores: a game played over the board is given stand-in level vectors that
produce its result (the FIDE criteria only look at VP and at whether the game was played).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tournament.pairing.model import Event, Result, Settings
from tournament.pairing.trf import import_trf
from tournament.standings import (
    Bye,
    EventResults,
    Game,
    Player,
    ResultKind,
    compute_standings,
)

FIXTURES = Path(__file__).resolve().parents[1] / "golden" / "fide-tiebreaks"
COLUMNS = {
    "BH": "buchholz",
    "BH-C1": "buchholz_cut1",
    "SB": "sonneborn_berger",
    "WIN": "wins",
    "WON": "wins_played",
}
HIGH, LOW = (2, 2, 2, 2, 2, 2), (1, 1, 1, 1, 1, 1)
"""Stand-in level vectors: HIGH beats LOW, equal vectors draw."""


def _scores(result: Result) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(own, opponent's) stand-in scores of a game played over the board."""
    return {Result.WIN: (HIGH, LOW), Result.LOSS: (LOW, HIGH), Result.DRAW: (LOW, LOW)}[result]


def _bye(settings: Settings, round_: int, number: int, result: Result) -> Bye:
    """A round without an opponent: the XXS line gives what the bye is worth."""
    if result is Result.PAIRING_BYE:
        return Bye(round_, number, ResultKind.BYE, Fraction(settings.bye))
    if result is Result.FULL_BYE:
        return Bye(round_, number, ResultKind.BYE, Fraction(settings.full_bye))
    if result is Result.HALF_BYE:
        return Bye(round_, number, ResultKind.ABSENT, Fraction(settings.half_bye))
    return Bye(round_, number, ResultKind.ABSENT, Fraction(0))


def event_results(event: Event) -> EventResults:
    """A TRF event as the standings core's input; VP are game points (1, ½, 0)."""
    players = [Player(p.number, p.name, rating=p.rating) for p in event.players]
    games: list[Game] = []
    byes: list[Bye] = []
    for player in event.players:
        for round_, cell in enumerate(player.history, start=1):
            number, result = player.number, cell.result
            if result.bye:
                byes.append(_bye(event.settings, round_, number, result))
            elif cell.first:  # each game once, from the side of the player who moved first
                second = cell.opponent
                if result.played:
                    own, other = _scores(result)
                    games.append(Game.played(round_, number, second, own, other))
                elif result is Result.FORFEIT_WIN:
                    games.append(Game.forfeit(round_, number, second, absent=second))
                elif _opponent_result(event, second, round_) is Result.FORFEIT_WIN:
                    games.append(Game.forfeit(round_, number, second, absent=number))
                else:
                    games.append(Game.double_forfeit(round_, number, second))
    return EventResults(players, games, byes)


def _opponent_result(event: Event, number: int, round_: int) -> Result:
    return event.player(number).history[round_ - 1].result


def _load(stem: str) -> tuple[EventResults, dict[str, Any]]:
    event = import_trf((FIXTURES / f"{stem}.trf").read_text(encoding="utf-8"))
    golden = json.loads((FIXTURES / f"{stem}.json").read_text(encoding="utf-8"))
    return event_results(event), golden


EVENTS = sorted(path.stem for path in FIXTURES.glob("*.trf"))


def test_every_fixture_has_its_golden_values() -> None:
    assert len(EVENTS) == 3
    for stem in EVENTS:
        golden = json.loads((FIXTURES / f"{stem}.json").read_text(encoding="utf-8"))
        assert golden["tiebreaks"] == list(COLUMNS)


@pytest.mark.parametrize("stem", EVENTS)
def test_values_agree_with_fide_tie_break_server(stem: str) -> None:
    results, golden = _load(stem)
    standings = compute_standings(results, list(COLUMNS.values()))
    rows = {row.player_id: row for row in standings}
    assert set(rows) == {int(number) for number in golden["players"]}
    mismatches = []
    for number, expected in golden["players"].items():
        row = rows[int(number)]
        assert row.vp == Fraction(str(expected["points"])), number
        for column, key in COLUMNS.items():
            got = row.tiebreak(key).sort_key[0]
            if got != Fraction(str(expected[column])):
                mismatches.append(f"{number} {column}: {got} != {expected[column]}")
    assert not mismatches, "\n".join(mismatches)
