"""The tiebreak registry and the criteria's finer points, on small hand-built events."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournament.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    Bye,
    EventResults,
    Game,
    Player,
    ResultKind,
    Tiebreak,
    UnknownTiebreakError,
    compute_standings,
    get_tiebreak,
)
from tournament.standings.tiebreaks import resolve_tiebreaks

WIN = (9, 9, 9, 9, 9, 9)
LOSS = (8, 9, 9, 9, 9, 9)


def _players(*ids: str) -> list[Player]:
    return [Player(pid, pid.upper()) for pid in ids]


def test_default_order_is_the_mso_order() -> None:
    assert DEFAULT_TIEBREAKS == (
        "head_to_head",
        "lowest_colour_difference",
        "lowest_colour_level",
    )


@pytest.mark.parametrize("key", list(TIEBREAKS))
def test_every_tiebreak_describes_itself(key: str) -> None:
    tiebreak = TIEBREAKS[key]
    assert isinstance(tiebreak, Tiebreak)
    assert tiebreak.key == key
    assert 0 < len(tiebreak.label) <= 6
    assert tiebreak.definition.endswith(".")
    assert "\n" not in tiebreak.definition
    assert key in repr(tiebreak)


def test_unknown_name_refused_listing_valid_ones() -> None:
    with pytest.raises(UnknownTiebreakError) as info:
        get_tiebreak("median_buchholz")
    message = str(info.value)
    assert "'median_buchholz'" in message
    assert all(key in message for key in TIEBREAKS)
    with pytest.raises(UnknownTiebreakError, match="unknown tiebreak"):
        compute_standings(EventResults(_players("a")), ["buchholz", "nope"])


def test_repeated_name_and_bare_string_refused() -> None:
    with pytest.raises(UnknownTiebreakError, match="listed twice"):
        resolve_tiebreaks(["buchholz", "buchholz"])
    with pytest.raises(UnknownTiebreakError, match="list of tiebreak names"):
        resolve_tiebreaks("buchholz")


def test_head_to_head_two_players_winner_first_even_with_worse_colours() -> None:
    # a beat b narrowly; b then crushed c while a had a 0-VP absence: b has the better difference.
    games = [
        Game.played(1, "a", "b", WIN, LOSS),
        Game.played(2, "b", "c", (15, 15, 15, 15, 15, 15), (2, 2, 2, 2, 2, 2)),
    ]
    event = EventResults(_players("a", "b", "c"), games, [Bye(2, "a", ResultKind.ABSENT, 0)])
    standings = compute_standings(event)
    a, b = standings.row("a"), standings.row("b")
    assert a.vp == b.vp == 1
    assert a.tiebreak("lowest_colour_difference").sort_key < b.tiebreak(
        "lowest_colour_difference"
    ).sort_key
    assert (a.rank, a.tiebreak("head_to_head").display) == (1, "+")
    assert (b.rank, b.tiebreak("head_to_head").display) == (2, "−")


def test_head_to_head_counts_a_forfeit_but_not_a_double_forfeit() -> None:
    players = _players("a", "b")
    forfeit = compute_standings(
        EventResults(players, [Game.forfeit(1, "a", "b", absent="b")], [Bye(2, "b")])
    )
    assert [row.player_id for row in forfeit] == ["a", "b"]
    assert forfeit.row("a").tiebreak("head_to_head").display == "+"
    double = compute_standings(
        EventResults(players, [Game.double_forfeit(1, "a", "b")], [Bye(2, "a"), Bye(2, "b")])
    )
    assert [row.place for row in double] == ["1–2", "1–2"]
    assert {row.tiebreak("head_to_head").display for row in double} == {""}


def test_head_to_head_sums_both_games_of_a_double_meeting() -> None:
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.played(2, "b", "a", WIN, LOSS)]
    standings = compute_standings(EventResults(_players("a", "b"), games), ["head_to_head"])
    assert [row.place for row in standings] == ["1–2", "1–2"]


def test_head_to_head_after_other_criteria_sees_only_the_remaining_group() -> None:
    # All four on 1 VP; the difference separates b (+9) and c (-9) from a and d (0 each);
    # head-to-head, listed second, then only sees {a, d}: d beat a.
    games = [
        Game.played(1, "a", "b", WIN, LOSS),
        Game.played(1, "c", "d", WIN, LOSS),
        Game.played(2, "b", "c", (18, 18, 18, 18, 18, 18), (8, 18, 18, 18, 18, 18)),
        Game.played(2, "d", "a", WIN, LOSS),
    ]
    event = EventResults(_players("a", "b", "c", "d"), games)
    standings = compute_standings(event, ["lowest_colour_difference", "head_to_head"])
    assert [row.player_id for row in standings] == ["b", "d", "a", "c"]
    marks = {row.player_id: row.tiebreak("head_to_head") for row in standings}
    assert [marks[p].display for p in "bdac"] == ["", "+", "−", ""]
    assert marks["b"].detail == "not tied"
    # Listed first, head-to-head sees all four: nobody beat or lost to all three.
    default = compute_standings(event)
    assert {row.tiebreak("head_to_head").display for row in default} == {""}


def test_level_and_difference_skip_games_without_scores() -> None:
    players = _players("a", "b", "c")
    played = Game.played(1, "a", "b", (5, 6, 7, 8, 9, 10), (4, 6, 7, 8, 9, 10))
    others = [
        Game.forfeit(2, "a", "c", absent="c"),
        Game.decision(3, "a", "b", 1, 0),
        Game.decision(4, "a", "c", "1/2", "1/2", (1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)),
    ]
    event = EventResults(players, [played, *others], [Bye(2, "b")])
    row = compute_standings(event).row("a")
    assert row.tiebreak("lowest_colour_level").sort_key == (6, 7, 8, 9, 10, 11)
    assert row.tiebreak("lowest_colour_difference").sort_key == (1, 0, 0, 0, 0, 0)
    assert row.tiebreak("lowest_colour_difference").display == "+1"
    assert row.tiebreak("lowest_colour_level").detail == "6 7 8 9 10 11"
    assert (row.games_played, row.wins, row.draws, row.losses) == (2, 1, 1, 0)


def test_buchholz_dummy_opponent_for_own_unplayed_rounds() -> None:
    # a: round 1 beat b over the board, round 2 a 1-VP bye, round 3 a forfeit win against c.
    players = _players("a", "b", "c")
    games = [
        Game.played(1, "a", "b", WIN, LOSS),
        Game.played(2, "b", "c", WIN, LOSS),
        Game.forfeit(3, "a", "c", absent="c"),
    ]
    event = EventResults(players, games, [Bye(2, "a"), Bye(3, "b", ResultKind.ABSENT, 0)])
    row = compute_standings(event, ["buchholz", "sonneborn_berger", "buchholz_cut1"]).row("a")
    # b's rounds: L, W, absent (a trailing voluntary absence counts as a draw): 1 + ½.
    b_adjusted = Fraction(3, 2)
    own = Fraction(3)
    assert row.tiebreak("buchholz").sort_key == (b_adjusted + own + own,)
    assert row.tiebreak("buchholz").detail == "1½ + 3* + 3*"
    assert row.tiebreak("sonneborn_berger").sort_key == (b_adjusted + own + own,)
    # No voluntarily unplayed round of a's own: the lowest contribution (b's) is cut.
    assert row.tiebreak("buchholz_cut1").sort_key == (own + own,)


def test_buchholz_cut1_cuts_a_voluntary_absence_first() -> None:
    players = _players("a", "b", "c")
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.played(2, "b", "c", WIN, LOSS)]
    byes = [Bye(2, "a", ResultKind.ABSENT, "1/2"), Bye(1, "c")]
    event = EventResults(players, games, byes)
    row = compute_standings(event, ["buchholz", "buchholz_cut1"]).row("a")
    # contributions: b (1) and a's own 1½ for the absence; the absence is cut although higher.
    assert row.tiebreak("buchholz").sort_key == (Fraction(5, 2),)
    assert row.tiebreak("buchholz_cut1").sort_key == (Fraction(1),)
    assert row.tiebreak("buchholz_cut1").detail.endswith("(lowest cut)")


def test_wins_and_wins_played_differ_on_unplayed_points() -> None:
    players = _players("a", "b", "c")
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.forfeit(2, "a", "c", absent="c")]
    event = EventResults(players, games, [Bye(3, "a"), Bye(2, "b", vp=0)])
    row = compute_standings(event, ["wins", "wins_played"]).row("a")
    assert row.tiebreak("wins").sort_key == (3,)
    assert row.tiebreak("wins_played").sort_key == (1,)
