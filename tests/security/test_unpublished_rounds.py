"""Issue #21: nothing of a round that is not published reaches anyone but its arbiters.

Two cases: round 1 only drafted (its bye must not show in the standings, crosstable, exports
and PDFs), and an event that keeps its pairings to itself (no clock, online game, record or
socket names its players). Every way out asks ``tournament.permissions.visible_rounds``.
"""

import csv
import io
import random
import re

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from bench.events import create_clock_event
from games.engine import format_record, random_game
from games.online import play as online
from games.services import submit_record
from tests.sockets import connect, receive
from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Event


@pytest.fixture
def drafted(event):
    """Round 1 of five players drafted: one of them has the bye, which nobody may learn."""
    services.add_player(event, name="Eve", club="Rome")
    round_ = services.pair_next_round(event)
    assert round_.boards.filter(second__isnull=True).exists()
    return round_


def _csv(client, url, **params) -> list[list[str]]:
    response = client.get(url, {"_export": "csv", **params})
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


@pytest.mark.django_db
def test_a_drafted_bye_is_in_no_standings_table_export_or_pdf(client, event, drafted):
    slug = event.slug
    for url in (reverse("event_standings", args=[slug]), reverse("event_crosstable", args=[slug])):
        page = client.get(url, {"round": 1})
        assert page.status_code == 200
        assert "after round 1" not in page.content.decode()
    rows = _csv(client, reverse("event_standings", args=[slug]), round=1)
    vp_column = rows[0].index("VP")
    assert {row[vp_column] for row in rows[1:]} == {"0.0"}
    pdf = client.get(reverse("print_document", args=[slug, "standings"]), {"round": 1})
    assert pdf.status_code == 200 and "r1" not in pdf["Content-Disposition"]
    table = standings_bridge.standings(event, 1)
    assert table.rounds == 0 and all(row.vp == 0 for row in table)
    assert standings_bridge.complete_rounds(event) == 0
    projector = client.get(reverse("event_projector", args=[slug])).content.decode()
    # the standings list Eve, with 0 VP like all (the form tokens are random letters: a
    # token once held "bye")
    projector = re.sub(r'value="[^"]*"', "", projector)
    assert not re.search(r"\bbye\b", projector.lower())


@pytest.mark.django_db
def test_the_drafted_pairings_reach_no_public_page(client, event, drafted):
    slug = event.slug
    for name in ("event_pairings", "event_pairings_by_name", "event_results"):
        page = client.get(reverse(name, args=[slug])).content.decode()
        assert "Eve" not in page
    assert client.get(reverse("print_document", args=[slug, "pairings"]),
                      {"round": 1}).status_code == 404
    assert client.get(reverse("clock_spectate", args=[slug, 1, 1])).status_code == 404
    eve = event.players.get(name="Eve")
    player_page = client.get(reverse("player_detail", args=[slug, eve.pk])).content.decode()
    assert "bye" not in player_page.lower()
    found = client.get(reverse("event_home", args=[slug]), {"q": "Eve"}).context["found"]
    assert found == [(eve, None)]  # the player, no board


@pytest.mark.django_db
def test_the_arbiter_still_sees_the_draft(client, arbiter, event, drafted):
    client.force_login(arbiter)
    page = client.get(reverse("event_pairings", args=[event.slug])).content.decode()
    assert all(name in page for name in ("Ada", "Ben", "Cy", "Di", "Eve"))
    assert client.get(reverse("print_document", args=[event.slug, "pairings"]),
                      {"round": 1}).status_code == 200


def _private_round(slug: str):
    """A published round of two boards of an event that does not publish its pairings."""
    arbiter = get_user_model().objects.create_user(f"{slug}-arbiter", password="pw-private-1")
    round_ = create_clock_event(2, arbiter=arbiter, slug=slug)
    Event.objects.filter(pk=round_.event_id).update(publish_pairings=False)
    return round_


@pytest.fixture
def private(db):
    """A private round (``_private_round``) with a record on board 1."""
    round_ = _private_round("private-open")
    board = round_.boards.get(number=1)
    tags = {"Event": round_.event.name, "Round": "1", "Board": "1",
            "First": board.first.name, "Second": board.second.name}
    record = submit_record(board, format_record(random_game(random.Random(3), tags=tags).record))
    return round_, record.record


@pytest.mark.django_db
def test_a_private_event_names_no_player_on_a_public_page(client, private):
    round_, record = private
    slug = round_.event.slug
    refused = [
        reverse("clock_spectate", args=[slug, 1, 1]),
        reverse("game_viewer", args=[record.pk]),
        reverse("game_download", args=[record.pk, "json"]),
        reverse("game_download", args=[record.pk, "txt"]),
        reverse("print_document", args=[slug, "pairings"]) + "?round=1",
    ]
    assert [client.get(url).status_code for url in refused] == [404] * len(refused)
    for name in ("event_pairings", "event_pairings_by_name", "event_results"):
        assert "Player 0001" not in client.get(reverse(name, args=[slug])).content.decode()
    assert client.get(reverse("event_projector", args=[slug])).context["boards"] == []
    client.force_login(round_.event.arbiters.get())
    assert [client.get(url).status_code for url in refused] == [200] * len(refused)


@pytest.mark.django_db
def test_a_private_online_game_has_no_public_page(client):
    round_ = _private_round("private-online")
    online.mark_online(round_)
    assert client.get(f"/e/{round_.event.slug}/online/1/2/").status_code == 404
    client.force_login(round_.event.arbiters.get())
    assert client.get(f"/e/{round_.event.slug}/online/1/2/").status_code == 200


# --- the sockets ----------------------------------------------------------------------------


@pytest_asyncio.fixture
async def close_worker_connections():
    yield
    await database_sync_to_async(connections.close_all)()


def _private_online_round():
    round_ = _private_round("private-sockets")
    arbiter = round_.event.arbiters.get()
    online.mark_online(round_, user=arbiter)
    client = Client()
    client.force_login(arbiter)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return {board.number: board.pk for board in round_.boards.all()}, cookie


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("close_worker_connections")
async def test_a_private_round_sends_no_snapshot_to_spectators():
    boards, cookie = await database_sync_to_async(_private_online_round)()
    for path in (f"/ws/spectate/{boards[1]}/", f"/ws/watch/{boards[2]}/"):
        stranger = await connect(path)
        message = await receive(stranger)
        assert message["type"] == "error", message
        assert "Player" not in str(message)
        await stranger.disconnect()
        arbiter = await connect(path, cookie=cookie)
        assert (await receive(arbiter))["type"] != "error"
        await arbiter.disconnect()
