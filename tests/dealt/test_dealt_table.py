"""The online game's state machine: worked examples and properties."""

import copy
import json
import random

import pytest
from dealt_helpers import game_where, greedy_move, play_out, play_until
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dealt import DealMismatch, MoveRefused, Table, check_deal
from games.engine import format_record, verify

SEED = bytes(range(32))


def _refused(table, move, match):
    before = json.dumps([table.view("A"), table.view("B"), table.view()], sort_keys=True)
    with pytest.raises(MoveRefused, match=match):
        table.play(move)
    after = json.dumps([table.view("A"), table.view("B"), table.view()], sort_keys=True)
    assert after == before, "a refused move changed the game"


def test_the_deal_gives_a_then_b_six_tiles_and_a_begins():
    table = Table(SEED)
    order = [str(t) for t in table.deal.order]
    assert table.rack("A") == order[:6] and table.rack("B") == order[6:12]
    assert table.to_act == "A" and len(table.deal) == 108
    # a draw line lists the tiles in the order they were drawn
    assert [str(a) for a in table.actions] == [f"A draw {' '.join(order[:6])}",
                                               f"B draw {' '.join(order[6:12])}"]


def test_illegal_moves_are_refused_with_the_engines_reason_and_change_nothing():
    table = Table(SEED)
    rack = table.rack("A")
    missing = next(t for t in ("PP", "YY", "OO", "BB", "GG", "RR") if t not in rack)
    _refused(table, {"seat": "B", "move": "place", "placement": "e1R-f2R"},
             "wrong seat to act: B cannot place a tile; seat A is to act")
    _refused(table, {"seat": "A", "move": "place", "placement": f"e1{missing[0]}-f2{missing[1]}"},
             f"tile '{missing}' is not in seat A's rack")
    tile = rack[0]
    _refused(table, {"seat": "A", "move": "place", "placement": f"e2{tile[0]}-f4{tile[1]}"},
             "cells 'e2' and 'f4' are not adjacent")
    _refused(table, {"seat": "A", "move": "place", "placement": f"f6{tile[0]}-f7{tile[1]}"},
             "placement rule broken")
    _refused(table, {"seat": "A", "move": "place", "placement": "f6X-f7R"}, "not a placement")
    _refused(table, {"seat": "A", "move": "refill"}, "refill not allowed now")
    _refused(table, {"seat": "A", "move": "swap"}, "swap not allowed now")
    _refused(table, {"seat": "C", "move": "resign"}, "seat must be A or B")
    _refused(table, {"seat": "A", "move": "pass"}, "unknown move 'pass'")
    _refused(table, ["A", "place"], "a move must be an object")
    _refused(table, {"seat": "A", "move": "place", "placement": "e1R-f2R", "number": 3},
             "this move answers move 3, but the game is at move 0: the client is ahead")


def test_a_placement_ends_the_turn_and_refills_from_the_front_of_the_bag():
    table = Table(SEED)
    tile = table.rack("A")[0]
    front = str(table.deal.order[12])
    step = table.play({"seat": "A", "move": "place", "placement": f"e1{tile[0]}-f2{tile[1]}",
                       "number": 0})
    if table.choice:  # this deal offers a swap at once: refill it
        assert not step.ends_turn
        step = table.play({"seat": "A", "move": "refill"})
    assert step.ends_turn and table.to_act == "B"
    assert len(table.rack("A")) == 6 and table.rack("A")[-1] == front
    _refused(table, {"seat": "A", "move": "place", "placement": "a2R-a3R", "number": 0},
             "stale move")


def test_a_swap_is_offered_only_when_allowed_and_closes_the_turn():
    rng = random.Random(5)
    table = game_where(rng, lambda t: t.choice is not None, tries=40)
    seat = table.choice
    other = "B" if seat == "A" else "A"
    low = table.game.lowest_colours(seat)
    assert not any(c in low for tile in table.rack(seat) for c in tile)
    assert table.to_act == seat  # its clock still runs: the turn is open
    _refused(table, {"seat": other, "move": "place", "placement": "a2R-a3R"},
             f"seat {seat} must first choose: swap or refill")
    _refused(table, {"seat": other, "move": "swap"}, f"seat {seat} must choose swap or refill")
    shown = table.rack(seat)
    bag = len(table.deal)
    step = table.play({"seat": seat, "move": "swap"})
    assert step.ends_turn and table.to_act == other
    assert len(table.rack(seat)) == 6 and len(table.deal) == bag - 6 + len(shown)
    swap = [a for a in table.actions if a.kind == "swap"][-1]
    assert sorted(map(str, swap.tiles)) == sorted(shown)
    play_out(table, rng)
    check_deal(format_record(table.record()), table.deal.seed.hex(), table.commitment)


def test_a_bonus_play_keeps_the_turn_with_the_unrefilled_rack():
    rng = random.Random(11)
    table = game_where(rng, lambda t: t.game.in_bonus_play, tries=60)
    seat = table.to_act
    last = table.actions[-1]
    assert last.kind == "place" and last.seat == seat
    assert len(table.rack(seat)) == 5 and table.view()["bonus"] is True
    other = "B" if seat == "A" else "A"
    _refused(table, {"seat": other, "move": "place", "placement": "a2R-a3R"},
             f"seat {seat} is to act \\(bonus play\\)")
    _refused(table, {"seat": seat, "move": "swap"}, "swap not allowed now")
    play_out(table, rng)
    assert verify(table.record()).game.bonus_plays >= 1


def test_the_flagged_seat_stops_and_the_opponent_plays_on_alone():
    rng = random.Random(2)
    table = Table(SEED)
    play_until(table, rng, lambda t: len(t.moves) >= 10 and t.to_act == "A" and not t.choice)
    table.play({"seat": "A", "move": "flag"})
    assert table.to_act == "B"
    _refused(table, {"seat": "A", "move": "place", "placement": "a2R-a3R"},
             "seat A has flagged and takes no further turns")
    while not table.over:
        assert table.to_act == "B"
        table.play(greedy_move(table, rng))
    verdict = verify(table.record())
    assert verdict.ok and verdict.game.result in ("1-0", "0-1", "½-½")
    check_deal(table.record(), table.deal.seed.hex(), table.commitment)


def test_a_flag_while_deciding_a_swap_means_no_refill():
    rng = random.Random(5)
    table = game_where(rng, lambda t: t.choice is not None, tries=40)
    seat = table.choice
    size = len(table.rack(seat))
    table.play({"seat": seat, "move": "flag"})
    assert table.choice is None and len(table.rack(seat)) == size
    play_out(table, rng)
    check_deal(table.record(), table.deal.seed.hex(), table.commitment)


def test_a_resignation_ends_the_game_at_any_time():
    table = Table(SEED)
    table.play({"seat": "B", "move": "resign"})
    assert table.over and table.view()["result"] == "1-0"
    view = table.view()
    assert view["seed"] == SEED.hex() and view["record"]["tags"]["Result"] == "1-0"
    _refused(table, {"seat": "A", "move": "resign"}, "the game is over")


def test_the_deal_check_catches_a_wrong_seed_a_wrong_commitment_and_a_forged_draw():
    table = play_out(Table(SEED), random.Random(1))
    text = format_record(table.record())
    check_deal(text, SEED.hex(), table.commitment)
    with pytest.raises(DealMismatch, match="does not give the committed bag order"):
        check_deal(text, bytes(32).hex(), table.commitment)
    with pytest.raises(DealMismatch, match="64 hex digits"):
        check_deal(text, "abc", table.commitment)
    other = play_out(Table(bytes(32)), random.Random(1))
    with pytest.raises(DealMismatch, match="action 1: seat A drew"):
        check_deal(format_record(other.record()), SEED.hex(), table.commitment)
    with pytest.raises(DealMismatch, match="does not verify"):
        check_deal(text.replace('[Result "', '[Result "x'), SEED.hex(), table.commitment)


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 2**32),
       st.sampled_from([0.0, 0.01, 0.05]), st.sampled_from([0.0, 0.005]))
def test_random_legal_games_always_reach_a_verified_record_of_the_committed_deal(
        seed, game_seed, flag_rate, resign_rate):
    rng = random.Random(game_seed)
    table = play_out(Table(seed), rng, flag_rate=flag_rate, resign_rate=resign_rate)
    text = format_record(table.record())
    verdict = verify(text)
    assert verdict.ok, verdict.error
    assert verdict.game.result == table.view()["result"]
    check_deal(text, seed.hex(), table.commitment)
    again = Table.restore(seed, table.moves)
    assert again.view("A") == table.view("A")


def test_a_replay_that_breaks_names_the_move_it_stopped_at():
    table = Table(SEED)
    assert play_until(table, random.Random(3), lambda t: len(t.moves) >= 4)
    moves = [dict(m) for m in table.moves]
    moves[3] = {**moves[3], "seat": "B" if moves[3]["seat"] == "A" else "A"}
    with pytest.raises(MoveRefused) as refused:
        Table.restore(SEED, moves)
    assert refused.value.index == 3 and refused.value.reason.startswith("wrong seat to act")
    assert Table.restore(SEED, table.moves).view("A") == table.view("A")


def _without_secrets_of(table, seat):
    """A copy whose other rack and bag are different tiles (same counts)."""
    twin = copy.deepcopy(table)
    other = "B" if seat == "A" else "A"
    pool = twin.racks[other] + twin.deal._bag
    random.Random(0).shuffle(pool)
    n = len(twin.racks[other])
    twin.racks[other], twin.deal._bag = pool[:n], pool[n:]
    return twin


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 2**32), st.integers(0, 60))
def test_a_seats_view_never_shows_the_other_rack_or_the_bag(seed, game_seed, moves):
    rng = random.Random(game_seed)
    table = Table(seed)
    for _ in range(moves):
        if table.over:
            break
        table.play(greedy_move(table, rng))
    if table.over:
        return
    views = table.views()
    for seat in ("A", "B", None):
        view = table.view(seat)
        assert views[seat] == view  # all three at once: the same views
        assert "seed" not in view and "record" not in view
        assert ("rack" in view) == (seat is not None)
        if seat is not None:
            assert view["rack"] == table.rack(seat)
            # the view is the same whatever the other rack and the bag hold
            assert _without_secrets_of(table, seat).view(seat) == view
        else:
            assert _without_secrets_of(table, "A").view() == view
            assert _without_secrets_of(table, "B").view() == view
        json.dumps(view)


def _rack_that_could_not_swap(table, seat):
    """A copy where ``seat``'s rack (same size) holds a tile of one of its lowest colours, the
    other tiles coming from the rest of its rack and the bag: a rack that allows no swap."""
    twin = copy.deepcopy(table)
    low = twin.game.lowest_colours(seat)
    pool = twin.racks[seat] + twin.deal._bag
    index = next((i for i, t in enumerate(pool) if t.first in low or t.second in low), None)
    if index is None:
        return None
    pool.insert(0, pool.pop(index))
    n = len(twin.racks[seat])
    twin.racks[seat], twin.deal._bag = pool[:n], pool[n:]
    return twin


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 2**32))
def test_a_seats_view_never_shows_that_the_other_seat_may_swap(seed, game_seed):
    """The swap is offered only to a rack without the seat's lowest colours, so "choosing"
    would tell the opponent something about that rack. While a seat chooses, the opponent and
    the spectators see only that it is still to act: their views are the same as if its rack
    held a lowest colour, and as whatever the chooser's rack and the bag hold."""
    rng = random.Random(game_seed)
    table = Table(seed)
    while not table.over:
        seat = table.choice
        if seat is not None:
            other = "B" if seat == "A" else "A"
            assert table.view(seat)["awaiting"] == "choice"
            for observer in (other, None):
                view = table.view(observer)
                assert view["awaiting"] == "place" and view["to_act"] == seat
                twin = _rack_that_could_not_swap(table, seat)
                if twin is not None:
                    assert twin.view(observer) == view
                assert _without_secrets_of(table, other).view(observer) == view
        table.play(greedy_move(table, rng, swap_rate=0.3))
