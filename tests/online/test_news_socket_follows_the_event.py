"""The news socket (``ws/news/``, docs/online-protocol.md "Following the event"), through the
real ASGI application: a logged-in player's page gets the player's news as it stands and
then as the event moves on, never another player's seat; and a page open as the player's game
is dealt makes the player present at it, so the opponent is told and no no-show is possible.
"""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import OnlineGame
from games.online import no_show
from games.online import play as online
from tests.sockets import close_worker_connections, connect, receive  # noqa: F401
from tournament import services
from tournament.models import Event, PlayerLogin

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def cookie_of(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.fixture
def event(transactional_db):
    arbiter = get_user_model().objects.create_user("newsarbiter", password="pw-news-1")
    event = services.create_event(name="News Cup", slug="news-cup", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                  rounds_planned=1)
    for name in ("Ada First", "Ben Second"):
        player = services.add_player(event, name=name)
        user = get_user_model().objects.create_user(name.split()[0].lower(), password="pw-2")
        PlayerLogin.objects.create(player=player, event=event, user=user,
                                   attached_at=timezone.now())
    return event


def _publish_and_deal(event):
    round_ = services.publish_round(services.pair_next_round(event))
    online.mark_online(round_, user=event.arbiters.get())
    online.start_round(round_, who="arbiter")
    return OnlineGame.objects.select_related("board__first", "board__second").get(
        board__round=round_)


async def test_a_page_open_when_the_game_is_dealt_makes_its_player_present_follows_the_event(
        event):
    ada = await database_sync_to_async(get_user_model().objects.get)(username="ada")
    page = await connect("/ws/news/", await database_sync_to_async(cookie_of)(ada))
    first = await receive(page, "news")
    assert first["news"]["event"] == "news-cup" and first["news"]["round"] is None
    assert isinstance(first["server_time_ms"], int)
    game = await database_sync_to_async(_publish_and_deal)(event)
    ada_seat = "A" if game.board.first.name == "Ada First" else "B"
    mine = f"/p/{game.token_a if ada_seat == 'A' else game.token_b}/"
    other = f"/p/{game.token_b if ada_seat == 'A' else game.token_a}/"
    news = (await receive(page, "news"))["news"]
    while news["seat"] is None:  # the publication, then the deal (one news or two)
        news = (await receive(page, "news"))["news"]
    assert news["seat"] == mine and news["opponent"] == "Ben Second" and news["round"] == 1
    while not await page.receive_nothing(timeout=0.2):  # the start of the clocks: the same
        assert (await receive(page, "news"))["news"] == news
    # Ada is present: her page was open as the game was dealt (Ben has opened nothing yet),
    # and the opponent's seat, once open, is told so: no claim box, no no-show
    ben_seat = "B" if ada_seat == "A" else "A"
    stored = await database_sync_to_async(OnlineGame.objects.get)(pk=game.pk)
    assert no_show.absent(stored, []) == [ben_seat]
    ben = await connect(f"/ws/play/{(game.token_b if ben_seat == 'B' else game.token_a)}/")
    assert (await receive(ben, "state"))["view"]["appeared"] == {"A": True, "B": True}
    # asked again (sync), the news is the same; it never names the other seat's link
    await page.send_json_to({"type": "sync"})
    assert (await receive(page, "news"))["news"] == news
    await page.send_json_to({"type": "ping"})
    assert (await receive(page, "pong"))["type"] == "pong"
    assert other not in str(news)
    for socket in (page, ben):
        await socket.disconnect()


async def test_the_news_socket_is_for_a_logged_in_player_follows_the_event(event):
    anonymous = await connect("/ws/news/")
    refused = await receive(anonymous, "error")
    assert refused == {"type": "error", "message": "Log in to follow your games.",
                       "fatal": True}
    assert (await anonymous.receive_output(timeout=3))["code"] == 4403
    ben = await database_sync_to_async(get_user_model().objects.get)(username="ben")
    elsewhere = await connect("/ws/news/?event=another-event",
                              await database_sync_to_async(cookie_of)(ben))
    assert await elsewhere.receive_nothing(timeout=0.3)  # no player of that event: no news
    await elsewhere.disconnect()
