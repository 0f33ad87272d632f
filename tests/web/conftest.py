"""Fixtures for the event app: arbiters, events made through the services."""

import random

import pytest
from django.contrib.auth import get_user_model

from games import simulation
from tests.accounts import make_organiser
from tournament import services
from tournament.models import Event


@pytest.fixture
def arbiter(db):
    """An arbiter who may also create and import events (the organiser permission)."""
    return make_organiser(
        get_user_model().objects.create_user("arbiter1", password="pw-arbiter-1"))


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


@pytest.fixture
def event(arbiter):
    event = services.create_event(name="Test Open", arbiter=arbiter, rounds_planned=7)
    for name in ["Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]:
        services.add_player(event, name=name)
    return event


@pytest.fixture
def played_event(arbiter):
    """12 players, Swiss, two rounds played by the engine, round 3 paired and published."""
    rng = random.Random(5)
    event = simulation.create_event("Played Open", 12, rng, rounds=7, arbiter=arbiter)
    simulation.run(event, rng, rounds=2)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return event


@pytest.fixture
def board_players_confirm(event):
    """A published board of round 1 in an event whose players confirm their results."""
    event.player_results = Event.PlayerResults.ALWAYS
    event.save()
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_.boards.filter(second__isnull=False).select_related("first", "second").first()


@pytest.fixture
def on(event):
    """The event with check-in before round 1."""
    Event.objects.filter(pk=event.pk).update(checkin=Event.CheckIn.ONCE)
    event.refresh_from_db()
    return event
