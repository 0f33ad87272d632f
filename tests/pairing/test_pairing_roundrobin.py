"""Berger tables against the published FIDE tables (C.05 Annex 1) and their invariants."""

from collections import Counter
from itertools import combinations

import pytest

from tournament.pairing import InvalidEvent, berger_schedule, round_robin_rounds
from tournament.pairing.roundrobin import berger_round

# FIDE C.05 Annex 1, written as "first-second" per board, board 1 first, one string per round.
PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}


def as_text(players: int, double: bool = False) -> list[str]:
    return [
        " ".join(f"{b.first}-{b.second}" for b in p.boards)
        for p in berger_schedule(players, double=double)
    ]


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_tables_equal_the_published_ones(players):
    assert as_text(players) == PUBLISHED[players]


@pytest.mark.parametrize("players", range(2, 17))
def test_every_game_is_where_the_meeting_formula_puts_it(players):
    """Section 8: i, j < n meet in round ((i + j - 2) mod (n - 1)) + 1, colour by parity."""
    n = players + players % 2
    games = {}
    for pairing in berger_schedule(players):
        for board in pairing.boards:
            games[frozenset((board.first, board.second))] = (pairing.round, board.first)
    for i, j in combinations(range(1, n), 2):
        if j >= players + 1:
            continue
        expected_first = i if (i + j) % 2 else j
        assert games[frozenset((i, j))] == ((i + j - 2) % (n - 1) + 1, expected_first)


@pytest.mark.parametrize("players", range(2, 17))
@pytest.mark.parametrize("double", [False, True])
def test_everyone_meets_everyone_once_per_cycle(players, double):
    schedule = berger_schedule(players, double=double)
    cycles = 2 if double else 1
    n = players + players % 2
    assert len(schedule) == cycles * (n - 1)
    assert [p.round for p in schedule] == list(range(1, len(schedule) + 1))
    meetings = Counter(frozenset((b.first, b.second)) for p in schedule for b in p.boards)
    assert set(meetings) == {frozenset(pair) for pair in combinations(range(1, players + 1), 2)}
    assert set(meetings.values()) == {cycles}
    for pairing in schedule:
        assert sorted(pairing.players) == list(range(1, players + 1))


def test_ten_players_meet_everyone_once_in_nine_rounds():
    schedule = berger_schedule(10)
    assert len(schedule) == 9
    for player in range(1, 11):
        opponents = [
            b.second if b.first == player else b.first
            for p in schedule
            for b in p.boards
            if player in (b.first, b.second)
        ]
        assert sorted(opponents) == [q for q in range(1, 11) if q != player]


def test_nine_players_each_get_exactly_one_bye_in_nine_rounds():
    schedule = berger_schedule(9)
    assert len(schedule) == 9
    assert sorted(p.bye for p in schedule) == list(range(1, 10))
    assert all(len(p.boards) == 4 for p in schedule)


def test_odd_field_drops_the_dummy_board_and_keeps_the_rest_in_order():
    # 5 players use the 6-player table; player 6 is the bye.
    assert as_text(5) == [t.split(" ", 1)[1] for t in PUBLISHED[6]]
    assert [p.bye for p in berger_schedule(5)] == [1, 4, 2, 5, 3]


def _first_moves(schedule):
    moves = {}
    for pairing in schedule:
        for board in pairing.boards:
            moves.setdefault(board.first, []).append(True)
            moves.setdefault(board.second, []).append(False)
    return moves


@pytest.mark.parametrize("players", range(3, 17))
@pytest.mark.parametrize("double", [False, True])
def test_nobody_moves_first_or_second_three_games_running(players, double):
    for seq in _first_moves(berger_schedule(players, double=double)).values():
        assert all(len(set(seq[i : i + 3])) == 2 for i in range(len(seq) - 2))
        balance = [sum(1 if m else -1 for m in seq[:k]) for k in range(len(seq) + 1)]
        assert max(map(abs, balance)) <= 2


def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle():
    single = berger_schedule(6)
    double = berger_schedule(6, double=True)
    assert [p.boards for p in double[:5]] == [p.boards for p in (*single[:3], single[4], single[3])]
    for mirrored, original in zip(double[5:], single, strict=True):
        assert [(b.second, b.first) for b in mirrored.boards] == [
            (b.first, b.second) for b in original.boards
        ]
    # Without the swap someone would move the same way three games running across the cycles.
    unswapped = [*single, *double[5:]]
    assert any(
        any(len(set(seq[i : i + 3])) == 1 for i in range(len(seq) - 2))
        for seq in _first_moves(unswapped).values()
    )


def test_bad_sizes_and_rounds_are_refused_with_the_input_quoted():
    with pytest.raises(InvalidEvent, match="at least 2 players, got 1"):
        round_robin_rounds(1)
    with pytest.raises(InvalidEvent, match=r"rounds 1\.\.5, not 6"):
        berger_round(6, 6)
    with pytest.raises(InvalidEvent, match="at least 2 players, got 0"):
        berger_schedule(0)
