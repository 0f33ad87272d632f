"""A story per test: an arbiter with an account, the checks of every step switched on."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tests.scenarios import checks
from tests.scenarios.story import EventStory


@pytest.fixture
def arbiter_user(db):
    """An organiser: may create events (``tournament.add_event``), arbitrates their own."""
    user = get_user_model().objects.create_user("storyarbiter", password="pw-story-1")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    return user


@pytest.fixture
def story(arbiter_user):
    return EventStory(arbiter_user, checks=checks.ALWAYS)
