"""The round page's pairing check compares the stored draw with the engine's board by board,
and says for each stored board that differs what is at stake on it."""

from __future__ import annotations

from tournament.bridges.pairing_check import compare, vp_number
from tournament.pairing import Board, Event, Player, Result, RoundPairing, RoundRecord, Settings


def _event() -> Event:
    """Round 1 played: 1 beat 2, 3 beat 4; 5 had the bye."""
    history = {1: RoundRecord(Result.WIN, 2, True), 2: RoundRecord(Result.LOSS, 1, False),
               3: RoundRecord(Result.WIN, 4, True), 4: RoundRecord(Result.LOSS, 3, False),
               5: RoundRecord(Result.PAIRING_BYE)}
    return Event(Settings(5), tuple(Player(n, f"P{n}", history=(history[n],))
                                    for n in range(1, 6)))


def test_identical_draws_have_no_difference():
    draw = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    assert compare(_event(), draw, draw) == ()


def test_each_differing_board_says_what_is_at_stake():
    engines = RoundPairing(2, (Board(3, 1), Board(5, 4)), 2)
    ours = RoundPairing(2, (Board(1, 2), Board(3, 4)), 5)
    board_1, board_2, bye = compare(_event(), ours, engines)
    assert (board_1.board, board_1.ours, board_1.engines) == (
        1, "P1 (1) (1 VP) – P2 (2) (0 VP)",
        "P3 (3) (1 VP) – P1 (1) (1 VP); bye: P2 (2) (0 VP)")
    assert any("must not meet again" in rule for rule in board_1.rules)
    assert any("score difference of 1 VP where the engine's board has 0" in rule
               for rule in board_1.rules)
    assert board_2.engines == "P3 (3) (1 VP) – P1 (1) (1 VP); P5 (5) (1 VP) – P4 (4) (0 VP)"
    assert any("must not meet again" in r for r in board_2.rules)
    assert (bye.board, bye.ours, bye.engines) == (0, "bye: P5 (5) (1 VP)", "bye: P2 (2) (0 VP)")
    assert any("already had a bye" in rule for rule in bye.rules)


def test_a_hand_edit_shows_the_boards_it_changed_not_the_ones_it_moved():
    """Two players put together by hand: their board differs, the engine's board of the
    player it left unpaired, and the bye; the boards that only moved are not listed."""
    engines = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    ours = RoundPairing(2, (Board(5, 2), Board(1, 4)), None)
    differences = compare(_event(), ours, engines)
    assert [(d.board, d.ours) for d in differences] == [
        (2, "P1 (1) (1 VP) – P4 (4) (0 VP)"), (1, "P3 (3) (1 VP) not paired"), (0, "—")]
    assert differences[0].engines == "P1 (1) (1 VP) – P3 (3) (1 VP); bye: P4 (4) (0 VP)"
    assert differences[1].engines == "P1 (1) (1 VP) – P3 (3) (1 VP)"
    assert differences[1].rules == ("P3 (3) is neither paired nor given the bye",)
    assert differences[2].engines == "bye: P4 (4) (0 VP)"


def test_record_explains_a_bye_made_by_hand_names_the_player_it_left_unpaired():
    """Board 1 given its first player alone: a bye by hand. The engine's board of the two is
    listed, with the opponent left unpaired, not only the bye."""
    engines = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    ours = RoundPairing(2, (Board(5, 2),), 1)
    board, bye = compare(_event(), ours, engines)
    assert (board.board, board.ours, board.engines) == (
        1, "bye: P1 (1) (1 VP); P3 (3) (1 VP) not paired", "P1 (1) (1 VP) – P3 (3) (1 VP)")
    assert board.rules == ("P3 (3) is neither paired nor given the bye",)
    assert (bye.ours, bye.engines) == ("bye: P1 (1) (1 VP); P4 (4) (0 VP) not paired",
                                       "bye: P4 (4) (0 VP)")


def test_record_explains_a_board_moved_to_another_number_is_not_identical():
    draw = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    assert compare(_event(), draw, draw, [1, 2]) == ()
    (moved,) = compare(_event(), draw, draw, [1, 99])
    assert (moved.board, moved.rules) == (
        99, ("numbered board 99 where the engine's draw has board 2",))


def test_first_move_the_other_way_round_is_named():
    engines = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    ours = RoundPairing(2, (Board(3, 1), Board(5, 2)), 4)
    (only,) = compare(_event(), ours, engines)
    assert only.rules == ("first move the other way round",)


def test_the_same_boards_in_another_order_are_a_board_order_difference():
    engines = RoundPairing(2, (Board(1, 3), Board(5, 2)), 4)
    ours = RoundPairing(2, (Board(5, 2), Board(1, 3)), 4)
    assert [d.rules for d in compare(_event(), ours, engines)] == [("board order",)] * 2


def test_vp_are_written_as_the_pages_write_them():
    assert [vp_number(t) for t in (0, 5, 10, 15, 30)] == ["0", "½", "1", "1½", "3"]
