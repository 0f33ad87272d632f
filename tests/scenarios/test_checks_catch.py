"""The checks of every step do find what they look for (a check that never fails checks nothing)."""

import random
from decimal import Decimal

import pytest

from tests.scenarios import checks
from tests.scenarios.story import EventStory
from tournament.models import Result
from tournament.views import public as views_public


@pytest.fixture
def played(arbiter_user):
    story = EventStory(arbiter_user)
    story.arbiter.creates_event("Check Cup", format="round robin")
    story.arbiter.enters_players("Ada", "Ben", "Cleo", "Dan")
    number = story.arbiter.pairs_next_round()
    story.arbiter.publishes_round(number)
    story.arbiter.enters_round_results(number, random.Random(1))
    return story


def test_a_crashing_page_is_reported_with_the_step(played, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("standings broke")

    monkeypatch.setattr(views_public.standings_bridge, "standings", broken)
    with pytest.raises(AssertionError, match=r"(?s)enters_round_results.*standings broke"):
        checks.every_page_answers(played)


def test_standings_that_disagree_with_the_stored_results_are_reported(played):
    checks.standings_vp_match(played)
    result = Result.objects.filter(board__round__event__slug=played.slug,
                                   status="accepted").first()
    expected = checks.expected_vp(played.model(), 1)
    Result.objects.filter(pk=result.pk).update(first_vp=Decimal(1) - result.first_vp)
    assert checks.expected_vp(played.model(), 1) != expected
    with pytest.raises(AssertionError):
        checks.standings_vp_match(played)
