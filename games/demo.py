"""The demo event that ``make run`` loads, so every page shows real data on a fresh machine.

Fourteen players, a Swiss over seven rounds: four rounds played with the engine's random legal
games (results entered as verified game records), round five paired and published, its
results still to come, so the dashboard, the result entry and the clocks have work to show.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from games import simulation
from tournament import services
from tournament.models import Event

DEMO_SLUG = "demo-open"
DEMO_SEED = 2026
DEMO_PLAYERS = [
    ("Ada Lovelace", "London"), ("Blaise Pascal", "Paris"), ("Carl Gauss", "Göttingen"),
    ("Dorothy Vaughan", "Hampton"), ("Emmy Noether", "Erlangen"),
    ("Florence Nightingale", "London"),
    ("Grace Hopper", "New York"), ("Henri Poincaré", "Nancy"), ("Ida Rhodes", "Kiev"),
    ("John Conway", "Liverpool"), ("Katherine Johnson", "Hampton"), ("Leonhard Euler", "Basel"),
    ("Mary Somerville", "Jedburgh"), ("Niels Abel", "Oslo"),
]
ROUNDS_PLAYED = 4


@transaction.atomic
def build_demo_event(arbiter) -> tuple[Event, bool]:
    """Create the demo event unless it exists; returns it and whether it was made now."""
    existing = Event.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        existing.arbiters.add(arbiter)
        return existing, False
    rng = random.Random(DEMO_SEED)
    event = services.create_event(
        name="Demo Open", slug=DEMO_SLUG, arbiter=arbiter, venue="Mind Sports Hall",
        start_date=datetime.date.today(), rounds_planned=7,
        pairing_system=Event.PairingSystem.SWISS,
    )
    for index, (name, club) in enumerate(DEMO_PLAYERS):
        services.add_player(event, name=name, club=club, rating=2100 - 37 * index)
    simulation.run(event, rng, rounds=ROUNDS_PLAYED, user=arbiter)
    current = services.pair_next_round(event)
    services.publish_round(current)
    return event, True
