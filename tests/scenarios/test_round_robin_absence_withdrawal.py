"""Scenario 2: a round robin where a player asks for a round off and another withdraws.

tournament-rules.md §2: in a round robin there is no one else to pair, so the absent player's
game is a forfeit (the opponent 1 VP, the absent player 0 VP) and ½ is not offered; a
withdrawn player's remaining games become forfeit wins for the opponents.
"""

import random
from decimal import Decimal

import pytest

from tests.scenarios import checks
from tests.scenarios.story import Refused

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"]

pytestmark = pytest.mark.long_story


@pytest.fixture
def round_robin(story):
    story.arbiter.creates_event("Spring Round Robin", format="round robin")
    story.arbiter.enters_players(*NAMES)
    return story


def forfeit_lost_by(story, name, number):
    """``name``'s only result of round ``number`` is a forfeit they lost; the opponent won."""
    results = checks.results_of(story, name, number)
    assert len(results) == 1, f"{name} has {len(results)} results in round {number}"
    result = results[0]
    assert result.kind == "forfeit", (name, number, result.kind)
    assert checks.vp_of(result, name) == Decimal(0)
    opponent = result.board.second if result.board.first.name == name else result.board.first
    assert checks.vp_of(result, opponent.name) == Decimal(1)


def test_a_round_robin_absence_is_never_granted_half_a_point(round_robin):
    with pytest.raises(Refused):
        round_robin.arbiter.grants_absence("Cleo", 1, vp="0.5")
    round_robin.arbiter.grants_absence("Cleo", 1)  # the event's default, 0 VP, is accepted


def test_an_absence_and_a_withdrawal_in_a_round_robin_become_forfeits(round_robin):
    story = round_robin
    rng = random.Random(2)
    story.arbiter.grants_absence("Cleo", 1, reason="a wedding")

    first = story.arbiter.pairs_next_round()
    forfeit_lost_by(story, "Cleo", first)
    story.arbiter.publishes_round(first)
    story.arbiter.enters_round_results(first, rng)

    for _ in range(2):
        number = story.arbiter.pairs_next_round()
        story.arbiter.publishes_round(number)
        story.arbiter.enters_round_results(number, rng)
    story.arbiter.withdraws("Finn", "called home half-way")

    played = [1, 2, 3, *story.plays_to_the_end(rng)]

    assert played == [1, 2, 3, 4, 5]
    for number in (4, 5):
        forfeit_lost_by(story, "Finn", number)
    checks.everyone_met_everyone_once(story, NAMES, played)
    checks.every_round_closed(story)
