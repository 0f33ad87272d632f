"""Ranking mechanics, display strings, "after round k" and the crosstable."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from standings_fixture_io import GOLDEN_DIR, build_event, load

import tournament.standings as standings_pkg
from tournament.standings import (
    EventResults,
    Game,
    InvalidEventError,
    Player,
    build_crosstable,
    compute_standings,
    decided,
    display,
    format_points,
    table,
    tiebreaks,
)
from tournament.standings.display import format_signed, format_vector
from tournament.standings.table import place_label


@pytest.mark.parametrize("module", [standings_pkg, decided, display, table, tiebreaks])
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(7, 2), "3½"), (Fraction(1, 2), "½"), (0, "0"), (Fraction(-1, 2), "−½"),
     (Fraction(9, 4), "2¼"), (Fraction(3, 4), "¾"), (Fraction(7, 3), "2 1/3"), (5, "5")],
)
def test_format_points(value: Fraction, text: str) -> None:
    assert format_points(value) == text


def test_signed_and_vector_formats() -> None:
    assert [format_signed(v) for v in (3, 0, -2)] == ["+3", "0", "−2"]
    assert format_vector((1, -1, 0), signed=True) == "+1 −1 0"


def test_place_labels_use_an_en_dash() -> None:
    assert place_label(1, 1) == "1"
    assert place_label(3, 2) == "3\u20134"
    assert place_label(5, 3) == "5\u20137"


def test_worked_example_rows() -> None:
    event = build_event(load(GOLDEN_DIR / "worked_example.json"))
    result = compute_standings(event)
    assert result.rounds == 4
    assert len(result) == 6
    assert [tb.key for tb in result.tiebreaks] == [
        "head_to_head", "lowest_colour_difference", "lowest_colour_level"]
    top = result.rows[0]
    assert (top.rank, top.place, top.name, top.vp, top.vp_display) == (1, "1", "Dan", 4, "4")
    assert not top.shared
    assert top.sort_key[0] == 4
    with pytest.raises(KeyError):
        top.tiebreak("buchholz")
    with pytest.raises(KeyError):
        result.row("nobody")


def test_after_round_counts_only_earlier_rounds() -> None:
    event = build_event(load(GOLDEN_DIR / "worked_example.json"))
    assert compute_standings(event, after_round=0).rows[0].place == "1\u20136"
    after_one = compute_standings(event, after_round=1)
    assert after_one.rounds == 1
    assert sum(row.vp for row in after_one) == 3
    later = compute_standings(event, after_round=6)
    # Rounds 5-6 have no results: everyone counts as absent there, VP unchanged.
    assert [r.vp for r in later] == [r.vp for r in compute_standings(event)]
    with pytest.raises(InvalidEventError, match="after_round"):
        compute_standings(event, after_round=-1)


def test_player_without_any_result_is_listed_with_zero() -> None:
    players = [Player(1, "Ada"), Player(2, "Ben"), Player(3, "Late")]
    event = EventResults(players, [Game.forfeit(1, 1, 2, absent=2)])
    result = compute_standings(event)
    places = [(row.player_id, row.place) for row in result]
    assert places == [(1, "1"), (2, "2\u20133"), (3, "2\u20133")]
    crosstable = build_crosstable(event, result)
    assert crosstable[2].cells == (None,)
    assert crosstable[0].cells[0].symbol == "+"
    assert crosstable[1].cells[0].symbol == "\u2212"


def test_crosstable_cells_and_totals() -> None:
    event = build_event(load(GOLDEN_DIR / "worked_example.json"))
    result = compute_standings(event)
    rows = build_crosstable(event, result)
    assert [row.player_id for row in rows] == [row.player_id for row in result]
    dan = rows[0]
    assert (dan.firsts, dan.seconds) == (1, 2)
    first = dan.cells[0]
    assert (first.opponent_id, first.opponent_rank, first.first, first.vp) == ("A", 4, False, 1)
    bye = dan.cells[2]
    assert (bye.opponent_id, bye.first, bye.symbol) == (None, None, "1")
    assert sum(c.vp for c in dan.cells if c) == dan.vp
