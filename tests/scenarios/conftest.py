"""A story per test: an arbiter with an account, the checks of every step switched on."""

import pytest
from django.contrib.auth import get_user_model

from tests.accounts import make_organiser
from tests.browser.live import browser, server  # noqa: F401  (fixtures)
from tests.scenarios import checks
from tests.scenarios.story import EventStory


@pytest.fixture
def arbiter_user(db):
    """An organiser: may create events (``tournament.add_event``), arbitrates their own."""
    return make_organiser(
        get_user_model().objects.create_user("storyarbiter", password="pw-story-1"))


@pytest.fixture
def story(arbiter_user):
    return EventStory(arbiter_user, checks=checks.ALWAYS)
