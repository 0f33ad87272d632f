"""A player's login gives no arbiter right (issue #15): every arbiter page, of the player's
own event and of any other, refuses the account; so do creating and importing events, the
admin and the hall of clocks' socket. Arbiters are ``Event.arbiters`` (and superusers); the
organiser permission is ``tournament.add_event``; a login touches neither."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.models import OnlineRound
from tests.sockets import connect, receive
from tests.web.test_permissions import arbiter_urls
from tournament import services
from tournament.models import HistoryEntry, Round
from tournament.services import logins

PASSWORD = "tiles-and-stars-77"


def _player_account(event, name: str | None = None):
    user = get_user_model().objects.create_user("player.one", password=PASSWORD)
    player = event.players.get(name=name) if name else event.players.first()
    logins.accept_invitation(logins.invite(player).secret, user)
    return user


def _pages_beyond_the_event_app(event) -> list[tuple[str, str]]:
    slug, number = event.slug, event.rounds.last().number
    return [
        ("get", reverse("online_round", args=[slug, number])),
        ("get", reverse("online_slips", args=[slug, number])),
        ("post", reverse("online_round_action", args=[slug, number, "mark"])),
        ("post", reverse("online_round_action", args=[slug, number, "start"])),
        ("get", reverse("clock_hall", args=[slug, number])),
        ("get", reverse("event_create")),
        ("post", reverse("event_create")),
        ("get", reverse("event_import")),
        ("post", reverse("event_import")),
    ]


@pytest.mark.django_db
def test_a_player_account_reaches_no_arbiter_page_of_its_own_event(client, played_event):
    user = _player_account(played_event)
    client.force_login(user)
    history = HistoryEntry.objects.count()
    for method, url in arbiter_urls(played_event) + _pages_beyond_the_event_app(played_event):
        response = getattr(client, method)(url)
        assert response.status_code == 403, (method, url, response.status_code)
    assert not OnlineRound.objects.exists() and HistoryEntry.objects.count() == history
    assert played_event.rounds.count() == 3 and not played_event.is_arbiter(user)
    assert not user.has_perm("tournament.add_event")


@pytest.mark.django_db
def test_nor_of_an_event_it_does_not_play(client, played_event, other_user):
    elsewhere = services.create_event(name="Elsewhere Open", arbiter=other_user)
    services.add_player(elsewhere, name="Zed")
    client.force_login(_player_account(elsewhere))
    for method, url in arbiter_urls(played_event):
        assert getattr(client, method)(url).status_code == 403, url


@pytest.mark.django_db
def test_nor_the_admin_and_its_pages_offer_no_arbiter_link(client, played_event):
    client.force_login(_player_account(played_event))
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    for url in (reverse("home"), reverse("event_home", args=[played_event.slug]),
                reverse("my_games")):
        page = client.get(url).content.decode()
        assert reverse("arbiter_dashboard", args=[played_event.slug]) not in page, url


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_nor_the_hall_of_clocks_socket(played_event_async):
    event, cookie = played_event_async
    round_ = await database_sync_to_async(lambda: event.rounds.get(status=Round.Status.PUBLISHED)
                                          )()
    hall = await connect(f"/ws/hall/{round_.pk}/", cookie)
    refusal = await receive(hall, "error")
    assert refusal["fatal"]
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def played_event_async(played_event):
    client = Client()
    client.force_login(_player_account(played_event))
    return played_event, f"sessionid={client.cookies['sessionid'].value}".encode()
