"""The format follows the field, and pairing numbers by rating, lot or entry (rules section 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.pairing import (
    Entrant,
    InvalidEvent,
    Order,
    System,
    berger_schedule,
    pairing_order,
    round_robin_rounds,
    settle_format,
)


@pytest.mark.parametrize(
    ("entrants", "system", "rounds"),
    [
        (2, System.ROUND_ROBIN, 1),
        (3, System.ROUND_ROBIN, 3),
        (6, System.ROUND_ROBIN, 5),
        (8, System.ROUND_ROBIN, 7),
        (9, System.ROUND_ROBIN, 9),
        (10, System.ROUND_ROBIN, 9),
        (11, System.SWISS, 7),
        (300, System.SWISS, 7),
    ],
)
def test_the_format_follows_the_field_by_default(entrants, system, rounds):
    fmt = settle_format("auto", entrants, 7)
    assert (fmt.system, fmt.rounds, fmt.small_swiss) == (system, rounds, False)


def test_the_planned_rounds_are_the_swiss_rounds_only():
    assert settle_format("auto", 40, 9).rounds == 9
    assert settle_format("auto", 10, 9).rounds == 9
    assert settle_format("auto", 8, 9).rounds == 7


def test_forcing_swiss_on_a_small_field_is_flagged_and_forcing_round_robin_uses_the_table():
    assert settle_format("swiss", 8, 7) == settle_format("swiss", 8, 7)
    assert settle_format("swiss", 8, 7).small_swiss
    assert not settle_format("swiss", 11, 7).small_swiss
    forced = settle_format("round_robin", 12, 7)
    assert (forced.system, forced.rounds) == (System.ROUND_ROBIN, 11)


def test_unknown_choices_and_tiny_fields_are_refused():
    with pytest.raises(ValueError):
        settle_format("knockout", 8, 7)
    with pytest.raises(InvalidEvent, match="at least 2 players, got 1"):
        settle_format("auto", 1, 7)


@given(st.integers(min_value=2, max_value=40))
def test_a_round_robin_has_as_many_rounds_as_its_berger_table(players):
    assert round_robin_rounds(players) == len(berger_schedule(players))


def test_rating_order_puts_the_highest_first_then_names_then_the_unrated_as_entered():
    entrants = [
        Entrant(1, "Cleo", None), Entrant(2, "bea", 1800), Entrant(3, "Abe", 1800),
        Entrant(4, "Dan", 2100), Entrant(5, "Eve", None),
    ]
    assert pairing_order(entrants, Order.RATING) == [4, 3, 2, 1, 5]
    assert pairing_order(entrants, "entry") == [1, 2, 3, 4, 5]


def test_a_lot_is_reproducible_from_its_seed():
    entrants = [Entrant(k, f"P{k}") for k in range(1, 11)]
    drawn = pairing_order(entrants, Order.LOT, seed=20261201)
    assert drawn == pairing_order(entrants, Order.LOT, seed=20261201)
    assert sorted(drawn) == list(range(1, 11))
    assert drawn != pairing_order(entrants, Order.LOT, seed=20261202)


@given(
    st.lists(st.one_of(st.none(), st.integers(0, 3000)), max_size=30),
    st.sampled_from(list(Order)),
    st.integers(0, 2**48),
)
def test_every_order_is_a_permutation_of_the_entrants(ratings, order, seed):
    entrants = [Entrant(k, f"P{k}", r) for k, r in enumerate(ratings)]
    keys = pairing_order(entrants, order, seed)
    assert sorted(keys) == list(range(len(ratings)))
    rated = [next(e.rating for e in entrants if e.key == k) for k in keys]
    if order is Order.RATING:
        numbers = [r for r in rated if r is not None]
        assert numbers == sorted(numbers, reverse=True)
        assert rated[len(numbers):] == [None] * (len(rated) - len(numbers))


def test_the_examples_in_the_module_run():
    import doctest

    import tournament.pairing.format

    result = doctest.testmod(tournament.pairing.format)
    assert result.attempted >= 3 and result.failed == 0
