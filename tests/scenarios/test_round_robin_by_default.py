"""Scenario 1: an event created with the default settings follows its field.

Ten or fewer players entered when round 1 is paired make a round robin with the Berger table's
number of rounds (tournament-rules.md §1): 10 → 9 rounds, 9 → 9 rounds with a bye each round,
6 → 5 rounds. The arbiter does nothing but pair, publish, enter results and close.
"""

import random

import pytest

from tests.scenarios import checks
from tests.scenarios.story import Refused

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo", "Iris", "Jon"]


@pytest.mark.parametrize(("field", "rounds"), [
    # the largest field on SQLite only: on PostgreSQL the smallest takes the same paths
    pytest.param(10, 9, marks=pytest.mark.long_story),
    pytest.param(9, 9, marks=pytest.mark.long_story),
    (6, 5),
])
def test_a_small_field_with_default_settings_plays_everyone_once_and_the_event_closes(
    story, field, rounds
):
    names = NAMES[:field]
    story.arbiter.creates_event(f"Club Night {field}")
    story.arbiter.enters_players(*names)

    played = story.plays_to_the_end(random.Random(field))

    assert played == list(range(1, rounds + 1)), f"{len(played)} rounds, not {rounds}"
    checks.everyone_met_everyone_once(story, names, played)
    checks.every_round_closed(story)
    assert story.arbiter.next_action() is None
    with pytest.raises(Refused):
        story.arbiter.pairs_next_round()
