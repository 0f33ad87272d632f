"""Rules profiles are declarations chosen by name; a new one is a few lines."""

import pytest

from games.engine import Game, IllegalActionError, NotationError, Profile, get_profile
from games.engine.rules import FRESH_START_SYMBOL, ONE_PER_PLACEMENT, PROFILES, TOUCH


def test_the_two_profiles() -> None:
    kosmos, mso = get_profile("kosmos"), get_profile("mso")
    assert (kosmos.placement, kosmos.first_round, kosmos.bonus) == (
        "anywhere",
        "fresh-start-symbol",
        "one-per-colour",
    )
    assert (mso.placement, mso.first_round, mso.bonus) == ("touch", None, "one-per-placement")


def test_unknown_profile_names_the_valid_ones() -> None:
    with pytest.raises(NotationError) as caught:
        get_profile("MSO")
    assert "unknown rules profile 'MSO'" in str(caught.value)
    assert "kosmos, mso" in str(caught.value)
    with pytest.raises(NotationError, match="'club'"):
        Game(profile="club")


def test_bad_declarations_are_refused() -> None:
    with pytest.raises(ValueError, match="placement rule 'adjacent'"):
        Profile("x", placement="adjacent", first_round=None, bonus=ONE_PER_PLACEMENT)
    with pytest.raises(ValueError, match="bonus rule"):
        Profile("x", placement=TOUCH, first_round=None, bonus="two")


def test_a_new_profile_is_one_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    # touch rule *and* distinct start symbols in the first round, one bonus per placement
    club = Profile("club", placement=TOUCH, first_round=FRESH_START_SYMBOL, bonus=ONE_PER_PLACEMENT)
    monkeypatch.setitem(PROFILES, "club", club)
    game = Game(profile="club")
    game.place("A", "f10R-f9R")  # touches the red start symbol
    with pytest.raises(IllegalActionError, match="no earlier first-round tile"):
        game.place("B", "g11P-h11P")  # touches red again
    game.place("B", "k10P-j10P")
    with pytest.raises(IllegalActionError, match="must touch a tile"):
        game.place("A", "c3B-c4B")  # after the first round the touch rule applies
    assert game.place("A", "f8R-f7Y") == {"R": 3}


@pytest.mark.parametrize("profile", ["mso", "kosmos"])
def test_the_cells_a_page_marks_give_exactly_the_legal_placements(profile):
    """``Game.reach``: two adjacent free cells take a tile exactly when one of them is marked,
    at every position of random games under either rules profile (first round included)."""
    import random as _random

    from games.engine import Game
    from games.engine.tiles import Bag

    for seed in range(12):
        rng = _random.Random(seed)
        game = Game(2, profile)
        bag = Bag(game.tile_set, rng)
        names = game.board.names
        while not game.is_over and len(bag):
            tile = bag.draw(1)[0]
            legal = game.legal_placements(tile)
            reach = set(game.reach())
            free = {names[c] for c in range(len(names)) if game.position.cells[c] == -1}
            marked = {frozenset((names[a], names[b])) for a, b in game.board.edges
                      if {names[a], names[b]} <= free and ({names[a], names[b]} & reach)}
            assert marked == {frozenset((p.first, p.second)) for p in legal}, seed
            game.place(game.to_move, rng.choice(legal))
