"""Automatic backups: written as the event goes, listed on the export page, restored whole."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from backups import automatic, document
from games import simulation
from tournament import services
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def backups(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path
    settings.AUTO_BACKUP_EVERY = 20
    settings.AUTO_BACKUP_KEEP = 50
    return tmp_path


@pytest.fixture
def played(arbiter, backups, django_capture_on_commit_callbacks):
    """A 10-player round robin played to the end, each write committed as in production."""
    rng = random.Random(11)
    with django_capture_on_commit_callbacks(execute=True):
        event = simulation.create_event("Backed Up", 10, rng, arbiter=arbiter)
        simulation.run(event, rng)
    return event


def _without_tokens(document):
    document = json.loads(json.dumps(document))
    document["event"]["slug"] = ""
    for round_ in document["rounds"]:
        for board in round_["boards"]:
            board.pop("token")
    for player in document["players"]:  # a copy beside the original: new card keys too
        for card in player["cards"]:
            card.pop("key")
    return document


def test_every_closed_round_and_every_twenty_results_write_a_backup(played, backups):
    names = [b.name for b in automatic.stored(played)]
    whys = {b.why for b in automatic.stored(played)}
    # 9 rounds of 5 boards = 45 results: versions 20 and 40 trigger; round 9 closes (the
    # simulation closes earlier rounds by pairing the next, which closes them too).
    assert {"result-20", "result-40"} <= whys
    assert {f"round-{n}-closed" for n in range(1, 10)} <= whys
    assert names == sorted(names, reverse=True)
    newest = automatic.load(played, names[0])
    assert newest["event"]["name"] == "Backed Up"


def test_only_the_newest_are_kept(played, settings):
    settings.AUTO_BACKUP_KEEP = 3
    automatic.write_now(played, "manual")
    assert len(automatic.stored(played)) == 3
    assert automatic.stored(played)[0].why == "manual"


def test_restoring_any_automatic_backup_gives_an_identical_event(played, arbiter_client):
    page = arbiter_client.get(reverse("arbiter_export", args=[played.slug])).content.decode()
    stored = automatic.stored(played)
    assert stored[0].name in page and "Restore as a new event" in page

    for chosen in (stored[0], stored[-1], stored[len(stored) // 2]):
        url = reverse("arbiter_restore_backup", args=[played.slug, chosen.name])
        response = arbiter_client.post(url)
        assert response.status_code == 302
        copy = Event.objects.get(slug=response["Location"].split("/")[2])
        assert copy.arbiters.filter(username="arbiter1").exists()
        original = automatic.load(played, chosen.name)
        assert _without_tokens(document.export_event(copy)) == _without_tokens(original)


def test_only_listed_names_restore(played, arbiter_client):
    for name in ("..", "20260101T000000-000000-x.json", "nope", "%2e%2e%2fsettings.py"):
        url = reverse("arbiter_restore_backup", args=[played.slug, "x"]).replace(
            "/x/", f"/{name}/")
        assert arbiter_client.post(url).status_code == 404


def test_a_rolled_back_result_writes_no_backup(arbiter, backups, settings,
                                               django_capture_on_commit_callbacks):
    settings.AUTO_BACKUP_EVERY = 1
    event = services.create_event(name="Rollback", arbiter=arbiter)
    for name in ("A", "B"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    board = round_.boards.get()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.InvalidResult):
        services.record_result(board, "played", first_scores=[1] * 6, second_scores="junk")
    assert automatic.stored(event) == []
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(board, "forfeit", loser_seat="second", source="arbiter")
    assert [b.why for b in automatic.stored(event)] == ["result-1"]
