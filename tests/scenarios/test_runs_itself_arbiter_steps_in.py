"""Scenario (#39): the arbiter steps into an event that runs itself, through the pages.

Six players register on the event's page; round 1 starts and ends by itself, and its closing
writes the automatic backup. The arbiter then pairs round 2 by hand from the dashboard before
its time: the automation does not publish that draft, and its page and the dashboard say it
waits; the arbiter publishes it on the round's page, and the server deals it and starts its
clocks. After round 2 the arbiter restores round 1's automatic backup from the export page:
the copy comes back with its players' logins and its automation paused, while the original
runs on. After every step the story's checks open every page, download and PDF.
"""

import random

import pytest
from django.urls import reverse

from autopilot import runner
from autopilot.models import Autopilot
from backups import automatic
from tests.scenarios.test_online_event_runs_itself import (
    MINUTE,
    plays_round,
    registers,
    server_ticks,
    steps,
)
from tournament.models import Event, PlayerLogin, Round

pytestmark = pytest.mark.long_story

NAMES = ["Ana Ahead", "Bo Brisk", "Cai Calm", "Dov Deep", "Eli Even", "Fay Fast"]


def test_runs_itself_the_arbiter_pairs_a_round_by_hand_and_restores_a_backup(
        story, clock_time, django_capture_on_commit_callbacks):
    arbiter = story.arbiter
    arbiter.creates_event("Evening Online", format="Swiss", rounds_planned="3")
    event = story.model()
    when = runner.moment(clock_time.now + 30 * MINUTE).strftime("%Y-%m-%dT%H:%M")
    arbiter.submit(arbiter.url("autopilot_settings"), {
        "first_round_at": when, "registration_closes_at": when, "schedule": "after",
        "minutes": "5", "missed_games_limit": "2"}, having="first_round_at")
    for name in NAMES:
        registers(story, name)
    rng = random.Random(7)
    server_ticks(clock_time, 30 * MINUTE)
    assert event.rounds.get(number=1).status == Round.Status.PUBLISHED
    plays_round(story, 1, rng, set())
    with django_capture_on_commit_callbacks(execute=True):
        server_ticks(clock_time, 1000)
    assert event.rounds.get(number=1).status == Round.Status.CLOSED
    story.checked("round 1 runs and ends by itself")

    assert arbiter.pairs_next_round() == 2  # before the five minutes are over
    server_ticks(clock_time, 10 * MINUTE)
    assert event.rounds.get(number=2).status == Round.Status.DRAFTED  # not published for him
    said = "Round 2 was paired by hand: publish it on the round&#x27;s page and the event " \
           "goes on by itself."
    assert said in arbiter.get(arbiter.url("autopilot_settings")).content.decode()
    assert said in arbiter.get(arbiter.url("arbiter_dashboard")).content.decode()
    assert steps(event).count("paired") == 1  # the automation paired nothing more
    story.checked("the automation leaves the round paired by hand to the arbiter")
    arbiter.publishes_round(2)
    server_ticks(clock_time, 1000)
    assert steps(event)[-1] == "started"
    plays_round(story, 2, rng, set())
    server_ticks(clock_time, 1000)
    assert event.rounds.get(number=2).status == Round.Status.CLOSED
    story.checked("the round published by the arbiter is dealt, started and closed by itself")

    backup = next(b.name for b in automatic.stored(event) if "round-1-closed" in b.name)
    arbiter.submit(arbiter.url("arbiter_export"),
                   action=reverse("arbiter_restore_backup", args=[story.slug, backup]))
    copy = Event.objects.get(slug=f"{story.slug}-restored")
    restored = Autopilot.objects.get(event=copy)
    assert not restored.running and "Restored from a backup" in restored.paused_reason
    assert Autopilot.objects.get(event=event).running
    assert PlayerLogin.objects.filter(event=copy).count() == len(NAMES)
    mine = story.account(NAMES[0]).get(reverse("my_games")).content.decode()
    assert mine.count(NAMES[0]) == 2  # the original and the copy, in My games
    story.checked("round 1's backup restored beside the original, its automation paused")
