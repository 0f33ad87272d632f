"""Input value objects: the VP the rules fix, and refusal of inconsistent results."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.outcome import compare_scores
from tournament.standings import (
    Bye,
    EventResults,
    Game,
    InvalidEventError,
    InvalidResultError,
    Player,
    ResultKind,
    StandingsError,
)
from tournament.standings.model import compare_levels, level_vector, played_vp

HALF = Fraction(1, 2)
LOW = (3, 9, 9, 10, 12, 14)
HIGH = (4, 5, 6, 7, 8, 9)  # lowest colour 4 beats 3, whatever the other colours


def test_level_vector_sorts_ascending() -> None:
    assert level_vector([12, 3, 9, 14, 9, 10]) == (3, 9, 9, 10, 12, 14)


def test_lowest_colour_decides() -> None:
    assert played_vp(HIGH, LOW) == (1, 0)
    assert played_vp(LOW, HIGH) == (0, 1)


def test_second_lowest_decides_when_lowest_equal() -> None:
    assert played_vp([5, 7, 18, 18, 18, 18], [5, 8, 8, 8, 8, 8]) == (0, 1)


def test_draw_only_on_identical_level_vectors() -> None:
    assert played_vp([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]) == (HALF, HALF)
    assert played_vp([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7]) == (0, 1)


def test_played_constructor_derives_vp_and_keeps_scores() -> None:
    game = Game.played(1, "a", "b", HIGH, LOW)
    assert (game.first_vp, game.second_vp) == (1, 0)
    assert game.kind is ResultKind.PLAYED
    assert game.scored


def test_played_with_wrong_vp_refused() -> None:
    with pytest.raises(InvalidResultError, match="do not follow"):
        Game(1, "a", "b", ResultKind.PLAYED, Fraction(0), Fraction(1), HIGH, LOW)


def test_resignation_gives_win_to_the_other_player_whatever_the_scores() -> None:
    game = Game.resigned(2, "a", "b", HIGH, LOW, resigned="a")
    assert (game.first_vp, game.second_vp) == (0, 1)
    assert game.scored


def test_forfeit_and_double_forfeit() -> None:
    game = Game.forfeit(1, "a", "b", absent="a")
    assert (game.first_vp, game.second_vp, game.scored) == (0, 1, False)
    double = Game.double_forfeit(1, "a", "b")
    assert (double.first_vp, double.second_vp) == (0, 0)


def test_decision_accepts_strings_decimals_and_optional_scores() -> None:
    game = Game.decision(1, "a", "b", "1/2", 0)
    assert (game.first_vp, game.second_vp, game.scored) == (HALF, 0, False)
    scored = Game.decision(1, "a", "b", 1, 0, LOW, HIGH)
    assert scored.scored


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Game.forfeit(1, "a", "b", absent="c"), "not in the game"),
        (lambda: Game.resigned(1, "a", "b", LOW, HIGH, resigned="z"), "not in the game"),
        (lambda: Game.played(1, "a", "a", LOW, HIGH), "themself"),
        (lambda: Game.played(0, "a", "b", LOW, HIGH), "round must be"),
        (lambda: Game.played(1, "a", "b", LOW, (1, 2, 3)), "six integer"),
        (lambda: Game.played(1, "a", "b", LOW, (1, 2, 3, 4, 5, 19)), "six integer"),
        (lambda: Game.decision(1, "a", "b", 2, 0), "0, 1/2 or 1"),
        (lambda: Game.decision(1, "a", "b", "x", 0), "not a number"),
        (lambda: Game.decision(1, "a", "b", True, 0), "must be a number"),
        (lambda: Game.decision(1, "a", "b", 1, 0, LOW, None), "both players' scores"),
        (lambda: Game(1, "a", "b", ResultKind.FORFEIT, 1, 1), "1 VP and 0 VP"),
        (lambda: Game(1, "a", "b", ResultKind.DOUBLE_FORFEIT, 1, 0), "0 VP to both"),
        (lambda: Game(1, "a", "b", ResultKind.FORFEIT, 1, 0, LOW, HIGH), "no colour scores"),
        (lambda: Game(1, "a", "b", ResultKind.PLAYED, 1, 0), "needs both"),
        (lambda: Game(1, "a", "b", ResultKind.BYE, 1, 0), "not a kind of game"),
        (lambda: Game(1, "a", "b", "chess", 1, 0), "unknown result kind"),
        (lambda: Bye(1, "a", ResultKind.FORFEIT), "not of bye"),
        (lambda: Bye(1, "a", vp=Fraction(1, 3)), "0, 1/2 or 1"),
    ],
)
def test_inconsistent_results_refused(build, message: str) -> None:
    with pytest.raises(InvalidResultError, match=message) as info:
        build()
    assert isinstance(info.value, StandingsError)
    assert isinstance(info.value, ValueError)


def test_bye_defaults_to_one_vp_and_accepts_half() -> None:
    assert Bye(3, "a").vp == 1
    assert Bye(3, "a", ResultKind.ABSENT, 0.5).vp == HALF


def test_event_refuses_duplicate_and_unknown_players() -> None:
    players = [Player("a", "Ada"), Player("b", "Ben")]
    with pytest.raises(InvalidEventError, match="registered twice"):
        EventResults([*players, Player("a", "Again")])
    with pytest.raises(InvalidEventError, match="unknown player id 'c'"):
        EventResults(players, [Game.forfeit(1, "a", "c", absent="c")])
    with pytest.raises(InvalidEventError, match="more than one result"):
        EventResults(players, [Game.forfeit(1, "a", "b", absent="b")], [Bye(1, "a")])


def test_event_converts_lists_and_knows_its_last_round() -> None:
    event = EventResults([Player("a", "Ada")], [], [Bye(2, "a")])
    assert isinstance(event.players, tuple)
    assert event.last_round == 2
    assert EventResults([Player("a", "Ada")]).last_round == 0


@given(st.lists(st.integers(0, 18), min_size=6, max_size=6),
       st.lists(st.integers(0, 18), min_size=6, max_size=6))
def test_the_result_rule_is_antisymmetric_and_draws_only_on_equal_levels(a, b):
    assert compare_levels(a, b) == -compare_levels(b, a)
    assert (compare_levels(a, b) == 0) == (sorted(a) == sorted(b))
    as_dicts = [dict(zip("RGBOYP", v, strict=True)) for v in (a, b)]
    assert compare_scores(*as_dicts) == compare_levels(a, b)
