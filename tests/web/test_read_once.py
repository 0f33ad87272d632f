"""What a page reads of an event, it reads once; what grows with the event costs no more
queries as the event grows.

The pages are what every visitor waits for and what the suite's stories open after every
step: a question asked twice of the database is paid by both.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backups import document
from games import simulation
from tournament import services
from tournament.bridges import pairing_bridge, reading, standings_bridge
from tournament.models import Event, Round
from tournament.printing.drawing import qr_modules

pytestmark = pytest.mark.django_db


def queries(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def counted(monkeypatch, module, name: str) -> list:
    """Each call of ``module.name`` from now on, by its arguments."""
    calls = []
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_a_drafts_round_page_builds_the_event_and_its_standings_once(
        arbiter_client, played_event, monkeypatch):
    """Warnings, the engine's check, the TRF it is given and the VP before the round: one
    build of the pairing core's event and one reading of the results (they were three builds
    and four readings)."""
    import random

    round3 = played_event.rounds.get(number=3)
    simulation.play_round(round3, random.Random(3))
    draft = services.pair_next_round(played_event)
    assert draft.status == Round.Status.DRAFTED
    builds = counted(monkeypatch, pairing_bridge, "_build")
    computed = counted(monkeypatch, standings_bridge, "_read")
    page = arbiter_client.get(reverse("arbiter_round", args=[played_event.slug, 4]))
    assert page.status_code == 200
    assert "pairing-check" in page.content.decode()
    assert len(builds) == 1 and builds[0][1:3] == (3, 4)
    assert len(computed) == 1 and computed[0][1] == 3
    # outside a page's reading, every question is asked again (nothing outlives the page)
    pairing_bridge.build_event(played_event, 3, 4)
    standings_bridge.standings(played_event, 3)
    assert len(builds) == 2 and len(computed) == 3  # the build reads the results too


def test_a_reading_answers_from_memory_only_inside_its_block(played_event):
    first = queries(lambda: standings_bridge.standings(played_event, 2))
    assert first > 0 and queries(lambda: standings_bridge.standings(played_event, 2)) == first
    with reading.one_reading():
        table = standings_bridge.standings(played_event, 2)
        assert queries(lambda: standings_bridge.standings(played_event, 2)) == 1  # _after
        assert standings_bridge.standings(played_event, 2) is table
        assert standings_bridge.standings(played_event, 1) is not table
    assert queries(lambda: standings_bridge.standings(played_event, 2)) == first


def test_a_failure_inside_a_reading_is_not_kept(played_event, monkeypatch):
    calls = []

    def fails():
        calls.append(1)
        raise pairing_bridge.IncompleteRound("round 3, board 1 has no result")

    with reading.one_reading():
        for _attempt in range(2):
            with pytest.raises(pairing_bridge.IncompleteRound):
                reading.remembered("question", fails)
    assert len(calls) == 2


def test_a_backup_costs_the_same_queries_whatever_the_events_size(played_event):
    """One query a table, not one a board or a player (a backup is written every few
    results: at 150 boards a round that was thousands)."""
    import random

    before = queries(lambda: document.export_event(played_event))
    simulation.play_round(played_event.rounds.get(number=3), random.Random(3))
    services.publish_round(services.pair_next_round(played_event))
    player = played_event.players.order_by("seed").first()
    services.set_absence(player, 5, reason="a wedding")
    grown = Event.objects.get(pk=played_event.pk)
    after = queries(lambda: document.export_event(grown))
    assert after == before


def test_the_pairings_show_the_vp_a_late_entry_had_when_paired(arbiter_client, client, event):
    """A player entered after the round was paired is not in its snapshot: the pairing pages
    read the standings for that player alone, and agree with the arbiter's round page."""
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    for board, result in services.boards_with_results(round1):
        if result is None:
            services.record_result(board, "forfeit", loser_seat="second")
    round2 = services.publish_round(services.pair_next_round(event))
    late = services.add_player(event, name="Zed Late")
    paired = standings_bridge.vp_when_paired(round2)
    both = standings_bridge.vp_as_paired(round2)
    assert paired == {pk: first for pk, (first, _now) in both.items()}
    assert paired[late.pk] == 0 and sorted(set(paired.values())) == [0, 1]
    assert queries(lambda: standings_bridge.vp_when_paired(round2)) > queries(
        lambda: standings_bridge.vp_when_paired(round1))  # the late entry asks the standings


def test_a_qr_code_is_encoded_once_per_address():
    qr_modules.cache_clear()
    first = qr_modules("https://td.example.org/b/abc/")
    again = qr_modules("https://td.example.org/b/abc/")
    assert again is first and isinstance(first, tuple) and all(
        isinstance(row, tuple) for row in first)
    assert qr_modules.cache_info().hits == 1
