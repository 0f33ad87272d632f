"""The hand-edited pairing checker: each warning on a worked example, names in messages."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.pairing import (
    Board,
    Event,
    Player,
    Result,
    RoundPairing,
    RoundRecord,
    Settings,
    Status,
    forfeit_rematches,
    pair_swiss,
    validate_pairing,
)

R = Result


def rec(result: Result, opponent: int = 0, first: bool | None = None) -> RoundRecord:
    return RoundRecord(result, opponent, first)


def event(**settings: object) -> Event:
    """Two rounds played.

    R1: Ann-Bob 1-0, Cy-Dan ½-½, Eve-Fay forfeit (Eve wins). R2: Ann-Cy 1-0, Fay-Dan 1-0,
    Bob the pairing bye, Eve a requested half-point bye. Gus withdrew after round 1.
    First moves so far: Ann FF, Bob S, Cy FS, Dan SS, Eve -, Fay F.
    """
    return Event(
        Settings(7, **settings),
        (
            Player(1, "Ann", history=(rec(R.WIN, 2, True), rec(R.WIN, 3, True))),
            Player(2, "Bob", history=(rec(R.LOSS, 1, False), rec(R.PAIRING_BYE))),
            Player(3, "Cy", history=(rec(R.DRAW, 4, True), rec(R.LOSS, 1, False))),
            Player(4, "Dan", history=(rec(R.DRAW, 3, False), rec(R.LOSS, 6, False))),
            Player(5, "Eve", history=(rec(R.FORFEIT_WIN, 6, True), rec(R.HALF_BYE))),
            Player(6, "Fay", history=(rec(R.FORFEIT_LOSS, 5, False), rec(R.WIN, 4, True))),
            Player(7, "Gus", history=(rec(R.ZERO_BYE), rec(R.ZERO_BYE)), status=Status.WITHDRAWN),
        ),
    )


def pairing(*boards: tuple[int, int], bye: int | None = None) -> RoundPairing:
    return RoundPairing(3, tuple(Board(a, b) for a, b in boards), bye)


def codes(warnings) -> list[tuple[str, tuple[int, ...]]]:
    return [(w.code, w.players) for w in warnings]


CLEAN = pairing((4, 1), (2, 3), (5, 6))


def test_a_legal_pairing_has_no_warnings():
    assert validate_pairing(event(), CLEAN) == []


def test_rematch_names_both_players_and_the_board():
    warnings = validate_pairing(event(), pairing((4, 1), (3, 2), (6, 5)))
    assert codes(warnings) == []  # Cy-Bob and Fay-Eve never played (a forfeit is no meeting)
    warnings = validate_pairing(event(), pairing((4, 3), (2, 1), (5, 6)))
    assert ("rematch", (4, 3)) in codes(warnings) and ("rematch", (2, 1)) in codes(warnings)
    assert "board 2: Bob (2) and Ann (1) must not meet again" in [w.message for w in warnings]


def test_forfeits_and_forbidden_pairs_block_when_the_event_says_so():
    warnings = validate_pairing(event(forfeit_is_meeting=True), CLEAN)
    assert codes(warnings) == [("rematch", (5, 6))]
    forbidden = replace(event(), forbidden=frozenset({(2, 3)}))
    assert codes(validate_pairing(forbidden, CLEAN)) == [("rematch", (2, 3))]


def test_record_explains_a_rematch_after_a_forfeit_is_found_but_is_no_warning():
    """Eve and Fay on board 3 again: their round-1 game was a forfeit, not a meeting. The
    page is told so; where the event counts forfeits as meetings it is a rematch instead."""
    assert forfeit_rematches(event(), CLEAN) == [(3, 5, 6, 1)]
    assert forfeit_rematches(event(), pairing((6, 5), (4, 1), (2, 3))) == [(1, 6, 5, 1)]
    assert validate_pairing(event(), CLEAN) == []
    assert forfeit_rematches(event(forfeit_is_meeting=True), CLEAN) == []


def test_players_twice_missing_unknown_or_unavailable():
    warnings = validate_pairing(event(), pairing((4, 1), (2, 4), (9, 7)))
    assert codes(warnings) == [
        ("twice", (4,)),
        ("unavailable", (7,)),
        ("unknown", (9,)),
        ("missing", (3,)),
        ("missing", (5,)),
        ("missing", (6,)),
        ("first_move_imbalance", (4,)),  # board 2 has Dan moving second a third time
        ("first_move_streak", (4,)),
    ]
    messages = {w.code: w.message for w in warnings}
    assert messages["twice"] == "Dan (4) is paired 2 times"
    assert messages["unavailable"] == "Gus (7) is withdrawn but paired"
    assert messages["unknown"] == "no player has pairing number 9"
    players = list(event().players)
    players[4] = replace(players[4], status=Status.HALF_BYE)
    absent = replace(event(), players=tuple(players))
    assert ("unavailable", (5,)) in codes(validate_pairing(absent, CLEAN))


def test_a_second_bye_or_a_bye_after_a_forfeit_win():
    warnings = validate_pairing(event(), pairing((4, 1), (6, 3), bye=2))
    assert [w.message for w in warnings if w.code == "second_bye"] == ["Bob (2) already had a bye"]
    warnings = validate_pairing(event(), pairing((4, 1), (2, 3), bye=5))
    assert [w.message for w in warnings if w.code == "second_bye"] == [
        "Eve (5) already had a win's points without playing"  # C.2 as amended in 2025
    ]
    by_2017 = replace(event(), settings=replace(event().settings, edition="2017"))
    warnings = validate_pairing(by_2017, pairing((4, 1), (2, 3), bye=5))
    assert [w.message for w in warnings if w.code == "second_bye"] == [
        "Eve (5) already had a forfeit win"
    ]


def test_a_full_point_bye_bars_the_pairing_bye_by_the_2025_rules_only():
    """C.2 as amended in 2025: any round not played that scored a win's points bars the
    pairing-allocated bye; the 2017 edition barred a bye and a forfeit win only."""
    full = Event(Settings(5), (Player(1, "A", history=(RoundRecord(Result.FULL_BYE),)),
                               Player(2, "B", history=(RoundRecord(Result.HALF_BYE),))))
    assert (full.bye_barred(1), full.bye_barred(2)) == ("win_unplayed", None)
    by_2017 = replace(full, settings=Settings(5, edition="2017"))
    assert (by_2017.bye_barred(1), by_2017.bye_barred(2)) == (None, None)


def test_the_engine_round_passes_the_checker():
    assert validate_pairing(event(), pair_swiss(event())) == []


def test_first_move_streaks_and_imbalance():
    warnings = validate_pairing(event(), pairing((1, 4), (2, 3), (5, 6)))
    assert codes(warnings) == [
        ("first_move_imbalance", (1,)),
        ("first_move_streak", (1,)),
        ("first_move_imbalance", (4,)),
        ("first_move_streak", (4,)),
    ]
    assert warnings[0].message == "board 1: Ann (1) would have moved first 3 and second 0 times"
    assert warnings[1].message == "board 1: Ann (1) would move first three games running"
    assert (
        str(warnings[3])
        == "first_move_streak: board 1: Dan (4) would move second three games running"
    )


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(1, 7)))
def test_every_warning_names_players_that_are_in_the_message(order):
    """Random hand pairings of the six active players: codes and messages agree."""
    boards = pairing(*zip(order[::2], order[1::2], strict=True))
    for warning in validate_pairing(event(), boards):
        assert warning.code in {"rematch", "first_move_imbalance", "first_move_streak"}
        for number in warning.players:
            assert f"({number})" in warning.message
        if warning.code == "rematch":
            a, b = warning.players
            assert event().met(a, b)
