"""Hand-scored positions, one rule each (two-player board unless said otherwise).

Cells used below, with axial (q, r): start symbols R f11 (5,0), O f1 (-5,0), P k11 (5,-5),
Y k6 (0,-5), G a6 (0,5); f10 (4,0), f9 (3,0), f8 (2,0), f7 (1,0), f2 (-4,0), f3 (-3,0),
e8 (2,1), e7 (1,1), g9 (3,-1), g8 (2,-1), k10 (4,-5), j10 (4,-4), j6 (0,-4), k7 (1,-5).
"""

import pytest
from engine_helpers import play, preset

from games.engine import Game, IllegalActionError

OPENING = ("A f10R-f9R", "B k10P-j10P", "A f8R-f7Y", "B j6Y-k7Y")


def test_own_other_half_never_counts_and_start_symbols_do() -> None:
    # f2 touches the orange symbol f1: 1. f3's line west runs through f2 (the tile's own other
    # half, then the symbol): not counted, so f3 scores 0.
    assert Game().place("A", "f2O-f3O") == {"O": 1}
    assert Game().place("A", "f3O-f2O") == {"O": 1}


def test_lines_count_consecutive_symbols_through_tiles_and_symbols() -> None:
    game = Game()
    # f10: east is the red symbol (1). f9's line east is its own tile: 0.
    # f8: east f9 R, f10 R, then the symbol f11 R: 3; f7 has no yellow around: 0.
    # j6 and k7 both touch the yellow symbol k6: 2. k10 and j10 both touch the purple one: 2.
    assert play(game, *OPENING) == [{"R": 1}, {"P": 2}, {"R": 3}, {"Y": 2}]
    # g9: south-west f8 R then e7 empty (1), south-east f9 R then e9 empty (1); g8 B: 0.
    assert game.place("A", "g9R-g8B") == {"R": 2}
    assert game.scores["A"] == {"R": 6, "G": 0, "B": 0, "O": 0, "Y": 0, "P": 0}


def test_a_placement_may_score_nothing() -> None:
    game = Game(profile="kosmos")
    play(game, "A f10R-f9R", "B k10P-j10P")
    assert game.place("A", "c3B-c4G") == {}
    assert game.to_move == "B"


def test_cap_at_eighteen_loses_the_points_past_it() -> None:
    game = Game()
    play(game, *OPENING[:2])
    preset(game, "A", R=17)
    assert game.place("A", "f8R-f7Y") == {"R": 1}  # 3 points, only 1 fits
    assert game.scores["A"]["R"] == 18
    assert game.to_move == "A" and game.in_bonus_play  # reaching 18 by passing it


def test_a_colour_at_eighteen_scores_no_more_and_earns_no_bonus() -> None:
    game = Game()
    play(game, *OPENING[:2])
    preset(game, "A", R=18)
    assert game.place("A", "f8R-f7Y") == {}
    assert game.to_move == "B" and not game.in_bonus_play


def test_landing_exactly_on_eighteen_gives_a_bonus_play() -> None:
    game = Game()
    play(game, *OPENING[:2])
    preset(game, "A", R=15)
    assert game.place("A", "f8R-f7Y") == {"R": 3}
    assert game.to_move == "A" and game.in_bonus_play
    with pytest.raises(IllegalActionError, match=r"wrong seat to act: B.*seat A is to act"):
        game.place("B", "b6G-b5O")
    game.place("A", "g10B-h10B")  # the bonus play, from the unrefilled rack
    assert game.bonus_plays == 1 and game.to_move == "B"


def _two_colours_at_once(profile: str) -> Game:
    game = Game(profile=profile)
    play(game, *OPENING)
    preset(game, "A", R=16, Y=17)
    # e8 R: north-east f9 R (1), north-west f8 R (1) = 2; e7 Y: north-west f7 Y = 1
    assert game.place("A", "e8R-e7Y") == {"R": 2, "Y": 1}
    return game


def test_two_colours_at_once_mso_gives_one_extra_turn() -> None:
    game = _two_colours_at_once("mso")
    game.place("A", "g10B-h10B")
    assert game.to_move == "B" and game.bonus_plays == 1


def test_two_colours_at_once_kosmos_gives_two() -> None:
    game = _two_colours_at_once("kosmos")
    game.place("A", "g10B-h10B")
    assert game.to_move == "A"
    game.place("A", "c3B-c4B")
    assert game.to_move == "B" and game.bonus_plays == 2


@pytest.mark.parametrize(("profile", "bonus_plays"), [("mso", 2), ("kosmos", 3)])
def test_a_chain_of_bonus_plays(profile: str, bonus_plays: int) -> None:
    game = _two_colours_at_once(profile)
    preset(game, "A", G=17)
    assert game.place("A", "b6G-b5O") == {"G": 1}  # the bonus play reaches 18 again
    while game.to_move == "A":
        game.place("A", game.legal_placements("BB")[0])
    assert game.bonus_plays == bonus_plays
    assert game.scores["A"]["G"] == game.scores["A"]["R"] == game.scores["A"]["Y"] == 18


def test_eighteen_in_all_six_wins_at_once() -> None:
    game = Game()
    play(game, *OPENING[:2])
    preset(game, "A", R=17, G=18, B=18, O=18, Y=18, P=18)
    preset(game, "B", R=17, G=17, B=17, O=17, Y=17, P=17)
    game.place("A", "f8R-f7Y")
    assert game.is_over and game.end == "all six colours at 18" and game.to_move is None
    summary = game.summary()
    assert summary.result == "1-0" and summary.winners == ("A",)
    assert summary.levels["A"] == (18,) * 6 and summary.differences["A"] == (1,) * 6
    with pytest.raises(IllegalActionError, match="action after the end"):
        game.place("B", "b6G-b5O")
