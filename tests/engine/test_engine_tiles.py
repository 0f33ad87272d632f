"""Tiles, placements, tile sets and the seeded bag."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalActionError, NotationError, Placement, Tile
from games.engine.tiles import KINDS, TILE_SETS, Bag, get_tile_set

colour = st.sampled_from("RGBOYP")
cell = st.builds(lambda row, n: f"{row}{n}", st.sampled_from("abcdefghijklmno"), st.integers(1, 15))


def test_standard_and_travel_sets() -> None:
    standard, travel = TILE_SETS["standard"], TILE_SETS["travel"]
    assert len(KINDS) == 21
    assert standard.total == 120 and travel.total == 57
    assert standard.count(Tile.parse("RG")) == 6 and standard.count(Tile.parse("YY")) == 5
    assert travel.count(Tile.parse("OP")) == 3 and travel.count(Tile.parse("BB")) == 2
    assert sum(1 for a, b in KINDS if a != b) == 15
    assert travel.max_players == 2
    with pytest.raises(NotationError, match=r"unknown tile set 'mini'.*standard, travel"):
        get_tile_set("mini")


def test_tiles_are_canonical_whatever_the_order() -> None:
    assert Tile.parse("YO") == Tile.parse("OY") == Tile("O", "Y")
    assert str(Tile.parse("PR")) == "RP"
    assert Tile.parse("GG").is_double and Tile.parse("RG").shows("G")
    for bad in ("R", "RGB", "rg", "XY", ""):
        with pytest.raises(NotationError, match="is not a tile"):
            Tile.parse(bad)
    with pytest.raises(NotationError, match="canonical order"):
        Tile("Y", "O")


@settings(max_examples=150, deadline=None)
@given(cell, colour, cell, colour)
def test_placement_parses_what_it_prints(c1: str, k1: str, c2: str, k2: str) -> None:
    placement = Placement(c1, k1, c2, k2)
    assert Placement.parse(str(placement)) == placement
    assert placement.tile == Tile.parse(k1 + k2)


@pytest.mark.parametrize("bad", ["f10R", "f10R-f9", "f10r-f9G", "F10R-F9G", "f10R f9G", "10R-9G"])
def test_malformed_placements_are_notation_errors(bad: str) -> None:
    with pytest.raises(NotationError, match="is not a placement"):
        Placement.parse(bad)


def test_bag_is_seeded_and_holds_the_whole_set() -> None:
    first = Bag(TILE_SETS["standard"], random.Random(42))
    second = Bag(TILE_SETS["standard"], random.Random(42))
    assert first.draw(6) == second.draw(6)
    drawn = first.draw(200)  # more than it holds: stops when empty
    assert len(drawn) == 114 and len(first) == 0
    first.put_back(drawn[:3])
    assert len(first) == 3 and first.draw(6) and len(first) == 0
    every = Bag(TILE_SETS["travel"], random.Random(1)).draw(57)
    assert Counter(every) == Counter(TILE_SETS["travel"].tiles())


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["standard", "travel"]),
    st.integers(0, 6),
    st.integers(0, 120),
)
def test_bag_swap_draws_six_then_puts_the_shown_tiles_back(
    seed: int, name: str, shown_count: int, taken: int
) -> None:
    """What a swap preserves: the tiles of bag and rack together; the six new tiles come from
    the bag as it was before the shown ones went back; a bag under six refuses."""
    tile_set = TILE_SETS[name]
    bag = Bag(tile_set, random.Random(seed))
    shown = bag.draw(shown_count)
    elsewhere = bag.draw(taken)  # on the board or in other racks
    before = Counter(tile_set.tiles()) - Counter(shown) - Counter(elsewhere)
    if sum(before.values()) < 6:
        with pytest.raises(IllegalActionError, match=r"the bag holds only \d tiles"):
            bag.swap(shown)
        assert len(bag) == sum(before.values())
        return
    drawn = bag.swap(shown)
    assert len(drawn) == 6 and not Counter(drawn) - before  # all from the pre-return bag
    assert len(bag) == sum(before.values()) - 6 + shown_count
    rest = Counter(bag.draw(len(bag)))
    assert rest + Counter(drawn) == before + Counter(shown)  # bag + rack: nothing lost or made
