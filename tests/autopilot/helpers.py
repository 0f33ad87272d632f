"""Self-running events for the tests: made through the services, moved by a fake clock."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model

from autopilot import runner
from autopilot import services as autopilot
from games.models import OnlineGame
from games.online import play as online
from tournament import services
from tournament.models import Event

MINUTE = 60_000


def at(ms: int) -> datetime.datetime:
    return runner.moment(ms)


def make_event(clock_time, *, players: int, rounds: int = 3, slug: str = "auto-open",
               system: str = Event.PairingSystem.SWISS, **settings) -> Event:
    """A Swiss event with ``players`` entered, set to run itself: round 1 ten minutes from
    now, registration closing a minute before, each round five minutes after the last."""
    arbiter = get_user_model().objects.create_user(f"{slug}-arbiter", password="pw-auto-1")
    event = services.create_event(name=slug.title(), slug=slug, arbiter=arbiter,
                                  pairing_system=system, rounds_planned=rounds)
    for n in range(1, players + 1):
        services.add_player(event, name=f"Player {n:02d}", rating=2000 - n)
    now = clock_time.now
    values = {"first_round_at": at(now + 10 * MINUTE),
              "registration_closes_at": at(now + 9 * MINUTE), "schedule": "after",
              "minutes": 5, **settings}
    autopilot.configure(event, values, user=arbiter)
    return event


def tick(clock_time, ms: int = 0):
    """The flag timer's tick ``ms`` later (its once-a-second throttle forgotten)."""
    clock_time.advance(ms)
    runner._last_tick["ms"] = None
    runner.tick()


def resign_all(event: Event, number: int, *, seat: str = "B", skip=()) -> int:
    """Every game of round ``number`` still going ends with ``seat``'s resignation (the game
    appears for both: ``seat`` moves, the other opened it), but those of boards in ``skip``."""
    done = 0
    for game in OnlineGame.objects.filter(board__round__event=event, board__round__number=number,
                                          record__isnull=True, no_show=""):
        if game.board.number in skip:
            continue
        online.note_seen(game, "A" if seat == "B" else "B")
        assert online.play(game, seat, {"move": "resign"}).error is None
        done += 1
    return done
