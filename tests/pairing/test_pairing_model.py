"""The input model: TRF cells parse and print, and inconsistent events are refused early."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.pairing import (
    Event,
    InvalidEvent,
    Player,
    Result,
    RoundRecord,
    Settings,
    Status,
    TrfError,
)

GAME = (Result.WIN, Result.DRAW, Result.LOSS, Result.FORFEIT_WIN, Result.FORFEIT_LOSS)
BYES = (Result.PAIRING_BYE, Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE)

records = st.one_of(
    st.builds(RoundRecord, st.sampled_from(GAME), st.integers(1, 9999), st.booleans()),
    st.builds(RoundRecord, st.sampled_from(BYES)),
)


@given(records)
def test_round_record_prints_as_an_8_character_cell_and_parses_back(record):
    cell = str(record)
    assert len(cell) == 8
    assert RoundRecord.parse(cell) == record


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("  12 w 1", RoundRecord(Result.WIN, 12, True)),
        ("   3 b =", RoundRecord(Result.DRAW, 3, False)),
        ("  40 b +", RoundRecord(Result.FORFEIT_WIN, 40, False)),
        ("0000 - U", RoundRecord(Result.PAIRING_BYE)),
        ("0000 - H", RoundRecord(Result.HALF_BYE)),
        ("        ", RoundRecord(Result.ZERO_BYE)),  # blank: absent
        ("     -  ", RoundRecord(Result.ZERO_BYE)),
        ("   7 w W", RoundRecord(Result.WIN, 7, True)),  # unrated win counts as played
        ("   7 b l", RoundRecord(Result.LOSS, 7, False)),
    ],
)
def test_round_record_reads_fide_cells(cell, expected):
    assert RoundRecord.parse(cell) == expected


@pytest.mark.parametrize(
    ("cell", "quoted"),
    [
        ("  12 x 1", "'x'"),
        ("  1a w 1", "'  1a'"),
        ("  12 w Q", "'Q'"),
        ("0000 - 1", "'0000 - 1'"),  # a game without an opponent
        ("  12 - 1", "'  12 - 1'"),  # a game without a first move
        ("  12 w U", "'  12 w U'"),  # a bye with an opponent
        ("  12w  1", "'  12w  1'"),
    ],
)
def test_bad_cells_are_refused_quoting_the_cell(cell, quoted):
    with pytest.raises(TrfError) as info:
        RoundRecord.parse(cell)
    assert quoted in str(info.value)


def test_result_kinds():
    assert [r for r in Result if r.played] == [Result.WIN, Result.DRAW, Result.LOSS]
    assert [r for r in Result if r.forfeit] == [Result.FORFEIT_WIN, Result.FORFEIT_LOSS]
    assert all(r.bye for r in BYES)
    assert not any(r.bye for r in GAME)


def test_settings_points_and_validation():
    settings = Settings(7, bye=0.5, half_bye=0)
    assert settings.tenths(Result.PAIRING_BYE) == 5
    assert settings.tenths(Result.HALF_BYE) == 0
    assert settings.tenths(Result.WIN) == 10
    assert settings.tenths(Result.FORFEIT_LOSS) == 0
    with pytest.raises(InvalidEvent, match="first_move must be 'first' or 'second', got 'white'"):
        Settings(7, first_move="white")
    with pytest.raises(InvalidEvent, match=r"bye must be a multiple of 0\.1.*0\.25"):
        Settings(7, bye=0.25)
    with pytest.raises(InvalidEvent, match="rounds must be between 1 and 99, got 0"):
        Settings(0)


def test_first_move_by_lot_replays_from_the_seed():
    draws = [Settings.first_move_by_lot(random.Random(seed)) for seed in range(40)]
    assert draws == [Settings.first_move_by_lot(random.Random(seed)) for seed in range(40)]
    assert set(draws) == {"first", "second"}


def game(a_result, b_result, a, b, a_first=True):
    return RoundRecord(a_result, b, a_first), RoundRecord(b_result, a, not a_first)


def two_player_event(a_record, b_record, **settings):
    return Event(
        Settings(5, **settings),
        (Player(1, "Ann", history=(a_record,)), Player(2, "Bob", history=(b_record,))),
    )


def test_event_points_and_meetings():
    event = two_player_event(*game(Result.WIN, Result.LOSS, 1, 2))
    assert event.points(1) == 1.0 and event.points(2) == 0.0
    assert event.rounds_played == 1
    assert event.met(1, 2) and event.met(2, 1)
    forfeit = two_player_event(*game(Result.FORFEIT_WIN, Result.FORFEIT_LOSS, 1, 2))
    assert not forfeit.met(1, 2)  # FIDE: a forfeit is not a meeting
    counted = two_player_event(
        *game(Result.FORFEIT_WIN, Result.FORFEIT_LOSS, 1, 2), forfeit_is_meeting=True
    )
    assert counted.met(1, 2)


@pytest.mark.parametrize(
    ("records", "message"),
    [
        (game(Result.WIN, Result.FORFEIT_LOSS, 1, 2), "incompatible"),
        (game(Result.FORFEIT_WIN, Result.FORFEIT_WIN, 1, 2), "incompatible"),
        ((RoundRecord(Result.WIN, 3, True), RoundRecord(Result.LOSS, 1, False)), "no such"),
        ((RoundRecord(Result.WIN, 1, True), RoundRecord(Result.LOSS, 1, False)), "no such"),
        ((RoundRecord(Result.WIN, 2, True), RoundRecord(Result.LOSS, 1, True)), "both players"),
        ((RoundRecord(Result.WIN, 2, True), RoundRecord(Result.ZERO_BYE)), "but player 2 has"),
    ],
)
def test_inconsistent_games_are_refused(records, message):
    """A played game may score any two of win, draw and loss (an arbiter's ½–0 or 1–1)."""
    with pytest.raises(InvalidEvent, match=message):
        two_player_event(*records)


def test_event_structure_is_checked():
    with pytest.raises(InvalidEvent, match=r"pairing numbers must be 1..2, got \[1, 3\]"):
        Event(Settings(5), (Player(1, "A"), Player(3, "C")))
    with pytest.raises(InvalidEvent, match="different numbers of completed rounds"):
        Event(Settings(5), (Player(1, "A", history=(RoundRecord("Z"),)), Player(2, "B")))
    with pytest.raises(InvalidEvent, match="forbidden pair"):
        Event(Settings(5), (Player(1, "A"), Player(2, "B")), forbidden=frozenset({(1, 3)}))
    with pytest.raises(InvalidEvent, match="no player has pairing number 7"):
        Event(Settings(5), (Player(1, "A"), Player(2, "B"))).player(7)
    with pytest.raises(InvalidEvent, match="no round is left"):
        Event(
            Settings(1),
            (
                Player(1, "A", history=(RoundRecord("Z"),), status=Status.ABSENT),
                Player(2, "B", history=(RoundRecord("Z"),)),
            ),
        )


def test_players_are_sorted_and_forbidden_pairs_normalised():
    event = Event(Settings(5), (Player(2, "B"), Player(1, "A")), forbidden=frozenset({(2, 1)}))
    assert [p.number for p in event.players] == [1, 2]
    assert event.forbidden == {(1, 2)}
    assert event.met(1, 2)


def test_late_entry_rules():
    late = Player(3, "Cy", history=(RoundRecord("Z"), RoundRecord("H")), joined_round=3)
    assert late.first_moves == ()
    with pytest.raises(InvalidEvent, match="joined in round 2 but has '   1 w 1' in round 1"):
        Player(3, "Cy", history=(RoundRecord(Result.WIN, 1, True),), joined_round=2)
    with pytest.raises(InvalidEvent, match="joins in round 4 and cannot play round 2"):
        Player(3, "Cy", history=(RoundRecord("Z"),), joined_round=4)
    waiting = Player(3, "Cy", history=(RoundRecord("Z"),), joined_round=4, status=Status.ABSENT)
    assert waiting.status.absence is Result.ZERO_BYE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"number": 0}, "pairing number must be 1-9999, got 0"),
        ({"rating": 12000}, "rating 12000 is not 0-9999"),
        ({"name": "A\nB"}, "contains a line break"),
        ({"joined_round": 0}, "joined_round 0 < 1"),
    ],
)
def test_player_fields_are_checked(kwargs, message):
    values = {"number": 1, "name": "Ann", **kwargs}
    with pytest.raises(InvalidEvent, match=message):
        Player(**values)


def test_statuses_map_to_trf_absence_codes():
    assert {s: s.absence for s in Status} == {
        Status.PLAYING: None,
        Status.ABSENT: Result.ZERO_BYE,
        Status.HALF_BYE: Result.HALF_BYE,
        Status.FULL_BYE: Result.FULL_BYE,
        Status.WITHDRAWN: None,
    }


@pytest.mark.parametrize("codes", [(Result.WIN, Result.WIN), (Result.DRAW, Result.LOSS),
                                   (Result.LOSS, Result.LOSS)])
def test_an_arbiters_decision_is_each_players_points(codes):
    """½–0, 1–1 and 0–0 on a played game are written as the points each player scored."""
    event = Event(Settings(3), (Player(1, "A", history=(RoundRecord(codes[0], 2, True),)),
                                Player(2, "B", history=(RoundRecord(codes[1], 1, False),))))
    assert event.points(1) + event.points(2) == sum(
        {Result.WIN: 1, Result.DRAW: 0.5, Result.LOSS: 0}[code] for code in codes)
