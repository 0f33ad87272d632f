"""The tiebreak registry and the criteria's finer points, on small hand-built events."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournament.standings import (
    COLOUR_BY_COLOUR,
    CUMULATIVE,
    DEFAULT_TIEBREAKS,
    NOTHING,
    READINGS,
    TIEBREAKS,
    Bye,
    EventResults,
    Game,
    InvalidEventError,
    Player,
    ResultKind,
    Tiebreak,
    UnknownTiebreakError,
    compute_standings,
    get_tiebreak,
    progressive_readings,
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


def test_rounds_without_scores_count_by_the_events_rule() -> None:
    # a: round 1 beat b over the board (+1 on the lowest colour), round 2 a forfeit win, round
    # 3 a 1-0 decision without scores, round 4 a ½-½ decision with scores.
    players = _players("a", "b", "c")
    played = Game.played(1, "a", "b", (5, 6, 7, 8, 9, 10), (4, 6, 7, 8, 9, 10))
    others = [
        Game.forfeit(2, "a", "c", absent="c"),
        Game.decision(3, "a", "b", 1, 0),
        Game.decision(4, "a", "c", "1/2", "1/2", (1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)),
    ]
    event = EventResults(players, [played, *others], [Bye(2, "b")])
    # The earlier rule: the two rounds without scores add nothing.
    row = compute_standings(event, unplayed=NOTHING).row("a")
    assert row.tiebreak("lowest_colour_level").sort_key == (6, 7, 8, 9, 10, 11)
    assert row.tiebreak("lowest_colour_difference").sort_key == (1, 0, 0, 0, 0, 0)
    assert row.tiebreak("lowest_colour_difference").display == "+1"
    assert row.tiebreak("lowest_colour_level").detail == "6 7 8 9 10 11"
    assert (row.games_played, row.wins, row.draws, row.losses) == (2, 1, 1, 0)
    # The default: each full point without scores is the widest win, 18 against 0.
    row = compute_standings(event).row("a")
    assert row.tiebreak("lowest_colour_level").sort_key == (42, 43, 44, 45, 46, 47)
    assert row.tiebreak("lowest_colour_difference").sort_key == (37, 36, 36, 36, 36, 36)
    assert (row.games_played, row.wins, row.draws, row.losses) == (2, 1, 1, 0)
    # c: the forfeit loss (round 2) and the rounds without any entry (1, 3) are the widest
    # losses, the ½-½ decision counts its own scores.
    row = compute_standings(event).row("c")
    assert row.tiebreak("lowest_colour_difference").sort_key == (-54,) * 6
    assert row.tiebreak("lowest_colour_level").sort_key == (1,) * 6
    with pytest.raises(InvalidEventError, match="unplayed must be one of widest, nothing"):
        compute_standings(event, unplayed="zero")


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


def test_opponent_withdrawing_after_a_forfeit_loss_counts_it_as_zero() -> None:
    # b: lost to a (round 1), lost by forfeit to c (round 2), no entry in round 3 (withdrawn).
    # C.07 16.3: the forfeit loss (16.2.4) counts the 0 scored; only the round without any
    # opponent (16.2.5) counts as a draw. b's adjusted score: 0 + 0 + ½.
    players = _players("a", "b", "c")
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.forfeit(2, "c", "b", absent="b")]
    event = EventResults(players, games, [Bye(2, "a"), Bye(3, "a"), Bye(3, "c")])
    row = compute_standings(event, ["buchholz", "sonneborn_berger"]).row("a")
    own = Fraction(3)
    assert row.tiebreak("buchholz").sort_key == (Fraction(1, 2) + own + own,)
    assert row.tiebreak("buchholz").detail == "½ + 3* + 3*"
    assert row.tiebreak("sonneborn_berger").sort_key == (Fraction(1, 2) + own + own,)


def test_a_requested_absence_before_a_played_round_counts_its_vp() -> None:
    # b is absent in round 2 (0 VP) and plays again in round 3: the absence is category 16.2.3
    # and counts the 0 scored, not a draw.
    players = _players("a", "b", "c")
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.played(3, "b", "c", WIN, LOSS)]
    byes = [Bye(1, "c"), Bye(2, "a"), Bye(2, "b", ResultKind.ABSENT, 0), Bye(2, "c"),
            Bye(3, "a")]
    row = compute_standings(EventResults(players, games, byes), ["buchholz"]).row("a")
    assert row.tiebreak("buchholz").detail == "1 + 3* + 3*"


def test_cumulative_reading_weighs_early_games_more() -> None:
    # a: round 1 lowest colours 7 v 4 (+3); round 2 a bye (adds 0, its running total counts);
    # round 3 lowest colours 5 v 6 (−1). Running totals 3, 3, 2: cumulative difference +8;
    # levels 7, 7, 12: cumulative level 26. Colour-by-colour: +2 and 12.
    players = _players("a", "b", "c")
    games = [
        Game.played(1, "a", "b", (7, 9, 9, 9, 9, 9), (4, 9, 9, 9, 9, 9)),
        Game.played(2, "b", "c", WIN, LOSS),
        Game.played(3, "c", "a", (6, 6, 6, 6, 6, 6), (5, 8, 8, 8, 8, 8)),
    ]
    event = EventResults(players, games, [Bye(2, "a"), Bye(1, "c"), Bye(3, "b")])
    keys = [
        "lowest_colour_difference",
        "lowest_colour_level",
        "lowest_colour_difference_cumulative",
        "lowest_colour_level_cumulative",
    ]
    row = compute_standings(event, keys, unplayed=NOTHING).row("a")
    difference, level, cumulative_difference, cumulative_level = row.tiebreaks
    assert difference.sort_key == (2, 2, 2, 2, 2, 2)
    assert level.sort_key == (12, 17, 17, 17, 17, 17)
    # second-lowest: +0 (round 1) then +2 (round 3): running totals 0, 0, 2.
    assert cumulative_difference.sort_key == (8, 2, 2, 2, 2, 2)
    assert (cumulative_difference.display, cumulative_difference.detail) == (
        "+8", "+8 +2 +2 +2 +2 +2"
    )
    # levels: 7, 7, 12 -> 26; second-lowest 9, 9, 17 -> 35.
    assert cumulative_level.sort_key == (26, 35, 35, 35, 35, 35)
    assert cumulative_level.display == "26"
    # After round 2 the same reading has only two running totals: 3 + 3.
    early = compute_standings(event, keys, after_round=2, unplayed=NOTHING).row("a")
    assert early.tiebreak("lowest_colour_difference_cumulative").sort_key[0] == 6
    # By default the bye is the widest win: running differences 3, 21, 20 (sum 44), running
    # levels 7, 25, 30 (sum 62).
    row = compute_standings(event, keys).row("a")
    assert row.tiebreak("lowest_colour_difference_cumulative").sort_key[0] == 44
    assert row.tiebreak("lowest_colour_level_cumulative").sort_key[0] == 62


def test_cumulative_reading_can_order_players_differently() -> None:
    # x wins by +4 in round 1 and loses by −1 in round 2; y loses by −1 first, then wins by +4.
    # Same VP, same colour-by-colour sum (+3); cumulatively x has 4 + 3 = 7, y −1 + 3 = 2.
    players = _players("x", "y", "p", "q")
    games = [
        Game.played(1, "x", "p", (9, 9, 9, 9, 9, 9), (5, 9, 9, 9, 9, 9)),
        Game.played(1, "y", "q", (7, 9, 9, 9, 9, 9), (8, 9, 9, 9, 9, 9)),
        Game.played(2, "x", "q", (7, 9, 9, 9, 9, 9), (8, 9, 9, 9, 9, 9)),
        Game.played(2, "y", "p", (9, 9, 9, 9, 9, 9), (5, 9, 9, 9, 9, 9)),
    ]
    event = EventResults(players, games)
    by_colour = compute_standings(event, ["lowest_colour_difference"])
    # q beat both (2 VP); x and y, 1 VP each, share 2nd–3rd on the colour-by-colour sums.
    assert by_colour.row("x").place == by_colour.row("y").place == "2–3"
    cumulative = compute_standings(event, ["lowest_colour_difference_cumulative"])
    assert [row.player_id for row in cumulative][1:3] == ["x", "y"]
    assert cumulative.row("x").tiebreak("lowest_colour_difference_cumulative").sort_key[0] == 7
    assert cumulative.row("y").tiebreak("lowest_colour_difference_cumulative").sort_key[0] == 2


def test_each_colour_criterion_names_its_reading() -> None:
    readings = {key: tb.reading for key, tb in TIEBREAKS.items() if tb.reading is not None}
    assert readings == {
        "lowest_colour_difference": COLOUR_BY_COLOUR,
        "lowest_colour_level": COLOUR_BY_COLOUR,
        "lowest_colour_difference_cumulative": CUMULATIVE,
        "lowest_colour_level_cumulative": CUMULATIVE,
    }
    assert set(READINGS) == {COLOUR_BY_COLOUR, CUMULATIVE}


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (DEFAULT_TIEBREAKS, ("colour-by-colour",)),
        (["head_to_head", "lowest_colour_level_cumulative"], ("cumulative",)),
        (["buchholz", "wins"], ()),
        ([], ()),
        (
            ["lowest_colour_difference_cumulative", "lowest_colour_level", "head_to_head"],
            ("cumulative", "colour-by-colour"),
        ),
    ],
)
def test_progressive_readings_of_a_tiebreak_list(names, expected) -> None:
    assert progressive_readings(names) == expected


def test_progressive_readings_refuses_unknown_names() -> None:
    with pytest.raises(UnknownTiebreakError, match="unknown tiebreak"):
        progressive_readings(["lowest_colour_progressive"])


def test_head_to_head_as_a_mini_table_orders_the_docs_example() -> None:
    """docs/tiebreaks.md: Ada, Ben and Cy on 2½ VP; Ada beat Ben and drew with Cy, Ben beat Cy.
    MSO's head-to-head separates nobody; the mini-table orders them 1½, 1, ½."""
    even = (9, 9, 9, 9, 9, 9)
    games = [
        Game.played(1, "a", "b", WIN, LOSS), Game.played(1, "c", "d", WIN, LOSS),
        Game.played(1, "e", "f", WIN, LOSS),
        Game.played(2, "b", "c", WIN, LOSS), Game.played(2, "a", "d", WIN, LOSS),
        Game.played(2, "e", "f", WIN, LOSS),
        Game.played(3, "a", "c", even, even), Game.played(3, "b", "e", WIN, LOSS),
        Game.played(3, "d", "f", WIN, LOSS),
        Game.played(4, "b", "f", even, even), Game.played(4, "c", "e", WIN, LOSS),
    ]
    event = EventResults(_players("a", "b", "c", "d", "e", "f"), games)
    table = compute_standings(event, ["head_to_head_table"])
    top = [row for row in table if row.vp == Fraction(5, 2)]
    assert [(row.player_id, row.place, row.tiebreak("head_to_head_table").display)
            for row in top] == [("a", "1", "1½"), ("b", "2", "1"), ("c", "3", "½")]
    mso = compute_standings(event, ["head_to_head"])
    assert {(row.place, row.tiebreak("head_to_head").display)
            for row in mso if row.vp == Fraction(5, 2)} == {("1–3", "")}


def test_head_to_head_as_a_mini_table_needs_every_two_tied_players_to_have_met() -> None:
    # a, b, c on 1 VP each; a and c never met: the table separates nobody.
    games = [Game.played(1, "a", "b", WIN, LOSS), Game.played(2, "b", "c", WIN, LOSS),
             Game.played(3, "c", "d", WIN, LOSS), Game.played(1, "c", "d", LOSS, WIN),
             Game.played(2, "a", "d", LOSS, WIN)]
    table = compute_standings(EventResults(_players("a", "b", "c", "d"), games),
                              ["head_to_head_table"])
    tied = [row for row in table if row.vp == 1 and row.player_id in "abc"]
    assert {row.place for row in tied} == {tied[0].place} and len(tied) == 3
    assert {row.tiebreak("head_to_head_table").detail for row in tied} == {
        "not every two tied players met"}
