"""Fixtures of the security tests: an arbiter (without the organiser permission) and an event."""

import pytest
from django.contrib.auth import get_user_model

from tests.accounts import make_organiser
from tournament import services


@pytest.fixture
def arbiter(db):
    return get_user_model().objects.create_user("sec-arbiter", password="pw-sec-arbiter-1")


@pytest.fixture
def organiser(db):
    user = make_organiser(
        get_user_model().objects.create_user("sec-organiser", password="pw-sec-organiser-1"))
    return user


@pytest.fixture
def event(arbiter):
    event = services.create_event(name="Secure Open", arbiter=arbiter, rounds_planned=5)
    for name, club in [("Ada", "London"), ("Ben", "Paris"), ("Cy", "Basel"), ("Di", "Oslo")]:
        services.add_player(event, name=name, club=club)
    return event


@pytest.fixture
def board(event):
    """A published board of round 1 with two players."""
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_.boards.filter(second__isnull=False).first()
