"""The game state machine: placement rules, swaps, racks, flags, resignations, modes, the end."""

import random
from collections import Counter

import pytest
from engine_helpers import ReferenceBoard, play, preset
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    Game,
    IllegalActionError,
    NotationError,
    Record,
    Tile,
    random_game,
    replay,
)


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


# -- where a tile may go ------------------------------------------------------------------------
def test_mso_every_tile_touches_a_tile_or_a_start_symbol() -> None:
    game = Game(profile="mso")
    with pytest.raises(IllegalActionError, match="placement rule broken: the tile must touch"):
        game.place("A", "f6R-f7G")  # the centre touches nothing
    game.place("A", "e1R-f2O")  # touches the orange symbol
    game.place("B", "e2B-e3B")  # touches A's tile
    with pytest.raises(IllegalActionError, match="must touch"):
        game.place("A", "c6Y-c7Y")


def test_kosmos_first_round_needs_a_fresh_start_symbol_then_anywhere() -> None:
    game = Game(profile="kosmos")
    with pytest.raises(IllegalActionError, match="first-round tile must touch a start symbol"):
        game.place("A", "f6R-f7G")
    game.place("A", "f10R-f9R")  # touches red
    with pytest.raises(IllegalActionError, match=r"no earlier first-round tile touches \(G a6"):
        game.place("B", "g11P-h11P")  # touches red only: already taken
    game.place("B", "a5G-b5G")  # touches green
    game.place("A", "c3B-c4B")  # second round: anywhere
    game.place("B", "h5Y-h6Y")


def test_three_and_four_players_each_take_a_fresh_symbol() -> None:
    game = Game(players=4, profile="kosmos")
    assert game.board.radius == 7
    b = game.board
    # on the big board the symbols are inside: R is at (5,0), its east neighbour (6,0) is free
    play(
        game,
        f"A {b.name_of(6, 0)}R-{b.name_of(7, 0)}R",
        f"B {b.name_of(0, 6)}G-{b.name_of(0, 7)}G",
        f"C {b.name_of(-5, 6)}B-{b.name_of(-5, 7)}B",
    )
    with pytest.raises(IllegalActionError, match="no earlier first-round tile"):
        game.place("D", f"{b.name_of(4, 0)}R-{b.name_of(3, 0)}R")
    game.place("D", f"{b.name_of(-6, 0)}O-{b.name_of(-7, 0)}O")
    assert game.to_move == "A"


@pytest.mark.parametrize(
    ("placement", "reason"),
    [
        ("f11R-f10G", "cell 'f11' is a start symbol"),
        ("f3R-f5G", "cells 'f3' and 'f5' are not adjacent"),
        ("f3R-f3G", "both halves are on cell 'f3'"),
    ],
)
def test_cells_must_be_free_and_adjacent(placement: str, reason: str) -> None:
    game = Game(profile="kosmos")
    with pytest.raises(IllegalActionError, match=reason):
        game.place("A", placement)


def test_occupied_and_unknown_cells() -> None:
    game = Game()
    game.place("A", "f2O-f3O")
    with pytest.raises(IllegalActionError, match=r"cell 'f3' is occupied \(O\)"):
        game.place("B", "f3R-f4R")
    with pytest.raises(IllegalActionError, match="unknown cell 'f12'"):
        game.place("B", "f11R-f12R")
    with pytest.raises(IllegalActionError, match="seat 'C' does not play"):
        game.place("C", "f4R-f5R")


def test_a_refused_action_changes_nothing() -> None:
    game = Game()
    play(game, "A f2O-f3O")
    before = (game.scores, game.to_move, game.history, game.bag_size, game.position.pairs)
    for bad in ("B f3R-f4R", "A f4R-f5R", "B f6R-f7R"):
        with pytest.raises(IllegalActionError):
            play(game, bad)
    with pytest.raises(IllegalActionError):
        game.swap("A", tiles("RR RR"))
    assert (game.scores, game.to_move, game.history, game.bag_size, game.position.pairs) == before


def test_a_placement_the_board_refuses_leaves_the_rack_as_it_was() -> None:
    game = Game()
    play(game, "A draw RR GG BB OO YY PP")
    with pytest.raises(IllegalActionError, match="must touch"):
        play(game, "A f6R-f7R")  # A holds one RR: taken, then put back
    play(game, "A e1R-f2R", "A draw GG")  # so it is still there; the refill is known too
    with pytest.raises(IllegalActionError, match="must touch"):
        play(game, "B f6R-f7R")  # from one of B's six unknown tiles, put back
    play(game, "B draw RR RR GG GG BB BB")  # B's dealt tiles can still be revealed
    play(game, "B e2B-e3B")
    assert game.rack_size("B") == 6
    with pytest.raises(IllegalActionError, match="'RR' is not in seat A's rack"):
        game.place("A", game.legal_placements("RR")[0])  # the one RR is on the board now


def test_the_read_interface_hands_out_copies() -> None:
    game = Game(players=4, partnership=True)
    assert (game.sides, game.first_round, game.seat_index("C")) == (2, True, 2)
    b = game.board
    assert play(game, f"A {b.name_of(6, 0)}R-{b.name_of(7, 0)}R") == [{"R": 1}]  # red symbol
    state = game.snapshot()
    assert state.side == (0, 1, 0, 1)
    assert state.tracks[0] == game.track("C") == (1, 0, 0, 0, 0, 0)  # partners share tracks
    assert game.first_round  # B has not placed yet
    play(game, "B flag")
    assert game.has_stopped("B") and not game.has_stopped("C")
    assert (state.flagged, game.snapshot().flagged) == ((False,) * 4, (False, True, False, False))
    assert len(state.history) == 1 and len(game.snapshot().history) == 2
    with pytest.raises(IllegalActionError, match="seat 'E' does not play"):
        game.seat_index("E")


def test_legal_placements_are_exactly_the_allowed_ones() -> None:
    game = Game(profile="mso")
    first = game.legal_placements("RG")
    # around the six corner symbols: 3 free neighbours each, 2 + 3 pairs touching per corner
    cells = {(p.first, p.second) for p in first}
    assert len(first) == 2 * len(cells)
    for p in first:
        Game(profile="mso").place("A", p)  # each one is accepted
    assert len(game.legal_placements("GG")) == len(cells)  # a double: one way round
    assert len(Game(profile="kosmos").legal_placements("RR")) == len(cells)


# -- swaps ----------------------------------------------------------------------------------------
def test_swap_allowed_when_no_tile_shows_a_lowest_colour() -> None:
    game = Game()
    play(game, "A f10R-f9G")  # A: R 1, the five others tied lowest at 0
    assert game.lowest_colours("A") == "GBOYP"
    assert game.swap_window == "A"
    game.swap("A", tiles("RR RR RR RR RR"))  # five tiles: six minus the placement
    assert game.swaps == 1 and game.rack_size("A") == 6 and game.to_move == "B"
    with pytest.raises(IllegalActionError, match="already swapped this turn"):
        game.swap("A", tiles("RR RR RR RR RR RR"))


def test_swap_refused_with_a_tied_lowest_colour_in_the_rack() -> None:
    game = Game()
    play(game, "A f10R-f9G")
    preset(game, "A", R=3, G=5, B=2, O=2, Y=7, P=4)  # B and O tied lowest
    for shown in ("RG RY GP YY BP", "RG RY GP YY OP"):
        with pytest.raises(IllegalActionError, match="shows one of seat A's lowest colours"):
            game.swap("A", tiles(shown))
    with pytest.raises(IllegalActionError, match=r"shows 4 tiles .* but seat A holds 5"):
        game.swap("A", tiles("RG RY GP YY"))
    game.swap("A", tiles("RG RY GP YY PP"))


def test_swap_timing() -> None:
    game = Game()
    play(game, "A f10R-f9R")
    with pytest.raises(IllegalActionError, match="swap not allowed now"):
        game.swap("B", tiles("RR RR RR RR RR RR"))
    with pytest.raises(IllegalActionError, match="more tiles 'RR' than the standard set holds"):
        game.swap("A", tiles("RR RR RR RR RR"))  # one RR is on the board: 4 left
    play(game, "B k10P-j10P")
    with pytest.raises(IllegalActionError, match="swap not allowed now"):
        game.swap("A", tiles("RR RR RR RR"))  # B has acted since
    preset(game, "A", R=15)
    play(game, "A f8R-f7Y")
    with pytest.raises(IllegalActionError, match="must make its bonus play first"):
        game.swap("A", tiles("RR RR RR RR"))


def test_swap_draws_six_new_tiles_before_the_shown_ones_go_back() -> None:
    """game-rules.md section 3 step 5: the six new tiles come from the bag as it was before
    the shown tiles return, so a shown tile cannot come straight back."""
    game = Game(tile_set="travel")  # two RR, two GG, two BB in the set
    play(game, "A draw RR RR GG BB OO RG", "A e1O-f2O")
    preset(game, "A", R=3, G=3, B=3, O=1, Y=1, P=1)  # lowest O, Y, P: none of them shown
    bag_before_refill = game.bag_size + 1
    play(game, "A swap RR RR GG BB RG")
    assert game.bag_size == bag_before_refill - 6 + 5 and game.rack_size("A") == 6
    with pytest.raises(
        IllegalActionError,
        match=r"more tiles 'RR' than the bag held when seat A drew its six new tiles \(the 2 "
        r"shown go back only after the draw\)",
    ):
        play(game, "A draw RR GG BB OY OP YP")
    play(game, "A draw GG BB OY OP YP PP")  # one GG and one BB were still in the bag
    play(game, "B k10P-j10P", "B draw RR")  # the shown tiles are back in the bag now


def test_swap_needs_six_tiles_in_the_bag() -> None:
    for left, allowed in ((5, False), (6, True)):
        game = Game()
        play(game, "A f10R-f9G")  # the refill took one tile
        game._racks.bag = left - 1  # set-up: the bag held ``left`` tiles before the refill
        if allowed:
            play(game, "A swap RR RR RR RR RR")
            assert game.bag_size == left - 6 + 5 and game.rack_size("A") == 6
            continue
        with pytest.raises(
            IllegalActionError,
            match=r"swap not allowed now: the bag holds only 5 tiles, and a swap draws six new "
            r"tiles before the shown ones go back",
        ):
            play(game, "A swap RR RR RR RR RR")
        assert game.bag_size == left - 1 and game.swap_window == "A"  # nothing changed


def _pre_return_bag(game: Game, record, upto: int, shown: tuple[Tile, ...]) -> Counter:
    """The bag's tiles right after the swap at ``record.actions[upto]``, before the shown tiles
    return: the set minus every tile on the board and in every rack (all draws recorded)."""
    racks: dict[str, Counter] = {seat: Counter() for seat in game.seats}
    board: Counter = Counter()
    for action in record.actions[:upto]:
        if action.kind == "draw":
            racks[action.seat].update(action.tiles)
        elif action.kind == "place":
            racks[action.seat][action.placement.tile] -= 1
            board[action.placement.tile] += 1
        elif action.kind == "swap":
            racks[action.seat] = Counter()
    racks[record.actions[upto].seat] = Counter(shown)
    bag = Counter(game.tile_set.tiles())
    bag.subtract(board)
    for rack in racks.values():
        bag.subtract(rack)
    assert min(bag.values()) >= 0
    return bag


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([("standard", 2), ("travel", 2), ("standard", 3), ("standard", 4)]),
    st.data(),
)
def test_swap_property_new_tiles_come_from_the_bag_before_the_return(
    seed: int, setup: tuple[str, int], data: st.DataObject
) -> None:
    """For any swap of a game whose draws are all recorded: the bag then loses six tiles and
    gains the shown ones; the engine accepts a draw of any six tiles of the bag as it was before
    the shown tiles returned, and refuses one with a tile of a shown kind beyond that bag."""
    tile_set, players = setup
    record = random_game(
        random.Random(seed), players=players, tile_set=tile_set, draws=True, swap_rate=1.0
    ).record
    swaps = [i for i, a in enumerate(record.actions) if a.kind == "swap"]
    assume(swaps)
    i = data.draw(st.sampled_from(swaps))
    swap, drawn = record.actions[i], record.actions[i + 1]
    assert drawn.kind == "draw" and drawn.seat == swap.seat and len(drawn.tiles) == 6
    before = replay(Record(record.tags, record.actions[:i]))
    game = replay(Record(record.tags, record.actions[: i + 1]))
    # bag + rack is preserved: six out, the shown ones in (the refill of that turn undone)
    refill = before.rack_size(swap.seat) - len(swap.tiles)
    assert game.bag_size == before.bag_size + refill - 6 + len(swap.tiles)
    bag = _pre_return_bag(game, record, i, swap.tiles)
    assert not Counter(drawn.tiles) - bag  # the generator drew from the pre-return bag
    kind = data.draw(st.sampled_from(sorted(set(swap.tiles), key=str)))
    assume(bag[kind] < 6)
    others = [t for t in drawn.tiles if t != kind]
    too_many = [kind] * (bag[kind] + 1) + others[: 5 - bag[kind]]
    assume(len(too_many) == 6)
    with pytest.raises(IllegalActionError, match=f"more tiles '{kind}' than the bag held"):
        game.draw(swap.seat, too_many)
    game.draw(swap.seat, drawn.tiles)  # the refusal changed nothing


# -- racks and draws ------------------------------------------------------------------------------
def test_draws_reveal_racks_and_placements_must_come_from_them() -> None:
    game = Game()
    game.draw("A", tiles("RG RG OO BY YP PP"))
    with pytest.raises(IllegalActionError, match="draw lists 2 tiles but seat B drew 6"):
        game.draw("B", tiles("RR GG"))
    with pytest.raises(IllegalActionError, match="tile 'RR' is not in seat A's rack"):
        game.place("A", "f10R-f9R")
    game.place("A", "f10R-f9G")
    with pytest.raises(IllegalActionError, match="draw lists 2 tiles but seat A drew 1"):
        game.draw("A", tiles("RR RR"))  # the refill after one placement is one tile
    game.draw("A", tiles("RR"))
    with pytest.raises(IllegalActionError, match="nothing to draw now"):
        game.draw("A", tiles("RR"))
    game2 = Game()
    game2.draw("A", tiles("RG RG OO BY YP PP"))
    game2.place("A", "f10R-f9G")
    game2.draw("A", tiles("RR"))  # the refill
    game2.place("B", "k10P-j10P")  # B's rack was never shown: any tile goes
    game2.place("A", "f8R-f7R")  # the RR just drawn
    game2.place("B", "j6Y-k7Y")
    game2.draw("A", tiles("GG"))  # late, but still A's latest draw: RG OO BY YP PP GG
    with pytest.raises(IllegalActionError, match="tile 'RR' is not in seat A's rack"):
        game2.place("A", "e8R-e7R")
    game2.place("A", "e8G-e7R")


def test_more_tiles_of_a_kind_than_the_set_holds() -> None:
    game = Game(tile_set="travel")  # two RR in the travel set
    play(game, "A f10R-f9R", "B k10P-j10P", "A f8R-f7R", "B j6Y-k7Y")
    with pytest.raises(
        IllegalActionError, match="more tiles 'RR' than the travel set holds \\(2\\)"
    ):
        game.place("A", "g10R-h10R")
    with pytest.raises(IllegalActionError, match="more tiles 'PP'"):
        Game(tile_set="travel").draw("A", tiles("PP PP PP RG RG RG"))


def test_travel_set_is_for_two_players() -> None:
    with pytest.raises(NotationError, match="travel tile set is for at most 2 players, not 3"):
        Game(players=3, tile_set="travel")
    assert Game(players=2, tile_set="travel").bag_size == 57 - 12


def test_empty_bag_and_empty_racks_end_the_travel_game() -> None:
    for seed in range(6):
        record = random_game(random.Random(seed), tile_set="travel", swap_rate=0).record
        game = Game(tile_set="travel")
        for action in record.actions:
            game.place(action.seat, action.placement)
        assert game.is_over and game.bag_size >= 0


# -- flags and resignations -----------------------------------------------------------------------
def test_flag_then_the_opponent_plays_on_alone() -> None:
    game = Game()
    play(game, "A f10R-f9R", "B k10P-j10P", "A flag")
    assert game.to_move == "B"
    play(game, "B j6Y-k7Y")
    assert game.to_move == "B"  # A is skipped from now on
    with pytest.raises(IllegalActionError, match="seat A has flagged"):
        play(game, "A f8R-f7Y")
    kinds = [Tile.parse(a + b) for a in "RGBOYP" for b in "RGBOYP" if a <= b]
    while not game.is_over:
        game.place("B", game.legal_placements(kinds[game.placements % 21])[0])
    summary = game.summary()
    assert summary.flagged == ("A",) and summary.end == "no legal placement left"
    assert summary.result == ("0-1" if summary.levels["B"] > summary.levels["A"] else "1-0")


def test_flag_right_after_the_last_placement_undoes_the_refill() -> None:
    game = Game()
    bag = game.bag_size
    play(game, "A f10R-f9R")
    assert game.bag_size == bag - 1
    play(game, "A flag")
    assert game.bag_size == bag and game.rack_size("A") == 5
    with pytest.raises(IllegalActionError, match="clock is not running"):
        Game().flag("B")


def test_every_seat_flagged_ends_the_game() -> None:
    game = Game()
    play(game, "A f10R-f9R", "B k10P-j10P", "A flag", "B flag")
    assert game.is_over and game.end == "every seat has stopped"
    assert game.summary().result == "0-1"  # levels 0 0 0 0 0 1 against 0 0 0 0 0 2


def test_resignation_two_and_three_players() -> None:
    game = Game()
    play(game, "A f10R-f9R", "A resign")
    summary = game.summary()
    assert summary.result == "0-1" and summary.resigned == ("A",) and summary.end == "resignation"
    three = Game(players=3)
    play(three, "B resign")  # any seat, any time; A is still to move
    assert three.to_move == "A" and not three.is_over
    b = three.board
    play(three, f"A {b.name_of(6, 0)}R-{b.name_of(6, -1)}R")
    assert three.to_move == "C"
    kinds = [Tile.parse(x + y) for x in "RGBOYP" for y in "RGBOYP" if x <= y]
    result = None
    while not three.is_over:
        three.place(three.to_move, three.legal_placements(kinds[three.placements % 21])[0])
        result = three.summary().result
    assert result is not None and result.split("-")[1] == "3"  # the resigned seat is last


# -- modes ----------------------------------------------------------------------------------------
def test_partnership_shares_tracks_to_36_with_bonuses_at_18_and_36() -> None:
    game = Game(players=4, partnership=True)
    b = game.board
    play(game, f"A {b.name_of(6, 0)}R-{b.name_of(7, 0)}R")  # R+1 for A and C
    assert game.scores["A"] == game.scores["C"] and game.scores["A"]["R"] == 1
    preset(game, "C", R=35)
    play(game, f"B {b.name_of(0, 6)}G-{b.name_of(0, 7)}G")
    play(game, f"C {b.name_of(6, -1)}R-{b.name_of(7, -1)}R")  # touches R symbol and A's tile
    assert game.scores["A"]["R"] == 36 and game.to_move == "C" and game.in_bonus_play
    with pytest.raises(NotationError, match="partnership game needs 4 players"):
        Game(players=2, partnership=True)


def test_solo_final_score_is_the_lowest_colour() -> None:
    game = Game(players=1)
    play(game, "A f10R-f9R", "A f8R-f7Y")
    assert game.to_move == "A"
    play(game, "A resign")
    assert game.summary().result == "0" and game.summary().differences == {}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_draw_only_when_all_six_levels_are_equal(players: int) -> None:
    game = Game(players=players)
    play(game, *[f"{seat} flag" for seat in game.seats])
    summary = game.summary()
    if players == 2:
        assert summary.result == "½-½" and summary.winners == ()
    elif players > 2:
        assert summary.result == "-".join(["1"] * players)
    preset(game, "B" if players > 1 else "A", P=1)
    assert game.summary().result in ("0-1", "1", "2-1-2", "2-1-2-2", "0")


# -- the end --------------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1, 2, 3, 4]), st.sampled_from(["mso", "kosmos"]))
def test_incremental_counters_match_a_full_scan(seed: int, players: int, profile: str) -> None:
    """The end-of-game count and every score agree with the naive reference after each move."""
    record = random_game(random.Random(seed), players=players, profile=profile, swap_rate=0).record
    game, reference = Game(players=players, profile=profile), ReferenceBoard(players)
    for action in record.actions:
        if action.kind != "place":
            play(game, f"{action.seat} {action.kind}")
            continue
        p = action.placement
        raw = reference.score(p.first, p.first_colour, p.second, p.second_colour)
        before = game.scores[action.seat]
        gains = game.place(action.seat, p)
        reference.put(p.first, p.first_colour, p.second, p.second_colour)
        cap = 18
        assert gains == {c: min(n, cap - before[c]) for c, n in raw.items() if before[c] < cap}
        assert game.position.pairs == reference.empty_pairs()
    if game.end == "no legal placement left":
        assert reference.empty_pairs() == 0
