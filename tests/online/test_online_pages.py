"""The pages of online play: the arbiter's switch, links and slips; a seat's and a spectator's
game page (reading them writes nothing)."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clocks import services as clock_services
from clocks.benchsupport import create_clock_event
from games.models import LiveGame, OnlineGame
from games.online import play as online
from tournament.models import Round


@pytest.fixture
def round_(db):
    arbiter = get_user_model().objects.create_user("pagearbiter", password="pw-page-1")
    return create_clock_event(2, arbiter=arbiter, slug="online-pages")


@pytest.fixture
def arbiter_client(client, round_):
    client.force_login(round_.event.arbiters.get())
    return client


def _url(round_, tail=""):
    return f"/e/{round_.event.slug}/arbiter/online/{round_.number}/{tail}"


def _initial(response) -> dict:
    text = response.content.decode()
    match = re.search(r'<script id="online-initial" type="application/json">(.*?)</script>', text,
                      re.S)
    return json.loads(match.group(1))


def test_the_switch_is_for_the_events_arbiters(client, round_, db):
    assert client.get(_url(round_)).status_code == 302  # to the login
    client.force_login(get_user_model().objects.create_user("nobody", password="pw-nobody-1"))
    assert client.get(_url(round_)).status_code == 403
    assert client.post(_url(round_, "mark/")).status_code == 403
    assert not online.is_online(round_)


def test_the_round_page_leads_to_the_switch_which_deals_and_lists_every_seats_link(
        arbiter_client, round_):
    page = arbiter_client.get(f"/e/{round_.event.slug}/arbiter/rounds/{round_.number}/")
    assert _url(round_) in page.content.decode()
    before = arbiter_client.get(_url(round_)).content.decode()
    assert "Play this round online" in before and "/p/" not in before
    response = arbiter_client.post(_url(round_, "mark/"), follow=True)
    text = response.content.decode()
    assert "Round 1 is played online: 2 games dealt." in text
    for game in OnlineGame.objects.filter(board__round=round_):
        assert f"http://testserver/p/{game.token_a}/" in text
        assert f"http://testserver/p/{game.token_b}/" in text
    slips = arbiter_client.get(_url(round_, "slips/")).content.decode()
    assert slips.count('class="slip"') == 4 and slips.count('<svg class="qr"') == 4
    assert "Player 0001" in slips and "you play first" in slips and "you play second" in slips


def test_a_round_begun_over_the_board_is_refused_with_the_reason(arbiter_client, round_):
    clock_services.start(round_.boards.get(number=1), who="arbiter")
    text = arbiter_client.post(_url(round_, "mark/"), follow=True).content.decode()
    assert "Board 1 has already begun over the board; the round cannot go online." in text
    assert not online.is_online(round_)


def test_start_and_new_links(arbiter_client, round_):
    arbiter_client.post(_url(round_, "mark/"))
    text = arbiter_client.post(_url(round_, "start/"), follow=True).content.decode()
    assert "2 clocks started." in text
    game = OnlineGame.objects.get(board__round=round_, board__number=2)
    old = game.token_b
    text = arbiter_client.post(_url(round_, "reissue/"), {"board": 2, "seat": "B"},
                               follow=True).content.decode()
    assert "New link for board 2, seat B: the old one no longer works." in text
    assert arbiter_client.get(f"/p/{old}/").status_code == 403
    text = arbiter_client.post(_url(round_, "reissue/"), {"board": 2, "seat": "C"},
                               follow=True).content.decode()
    assert "Seat must be A or B." in text


def test_a_seats_page_shows_its_rack_and_a_spectators_none_and_reading_writes_nothing(
        client, round_):
    game = online.mark_online(round_)[0]
    online.start_round(round_, who="arbiter")
    with CaptureQueriesContext(connection) as queries:
        seat = client.get(f"/p/{game.token_b}/")
        watch = client.get(f"/e/{round_.event.slug}/online/1/1/")
    writes = [q["sql"] for q in queries if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"])]
    assert writes == []
    assert seat.status_code == 200 and watch.status_code == 200
    mine = _initial(seat)
    assert mine["seat"] == "B" and len(mine["rack"]) == 6 and 'id="rack"' in seat.content.decode()
    theirs = _initial(watch)
    assert "rack" not in theirs and 'id="rack"' not in watch.content.decode()
    assert f'data-ws="/ws/play/{game.token_b}/"' in seat.content.decode()
    assert client.get(f"/e/{round_.event.slug}/online/1/7/").status_code == 404
    assert client.get("/p/not-a-seat-link-at-all/").status_code == 403


def test_the_board_page_of_an_online_board_shows_no_scoresheet_and_refuses_entries(
        client, round_):
    game = online.mark_online(round_)[0]
    page = client.get(f"/b/{game.board.token}/").content.decode()
    assert 'id="online-note"' in page and 'id="scoresheet"' not in page
    assert f"/e/{round_.event.slug}/online/1/{game.board.number}/" in page
    response = client.post(f"/b/{game.board.token}/live/enter/",
                           data=json.dumps({"version": 0, "entry": {
                               "seat": "A", "action": "place", "placement": "e1R-f2O"}}),
                           content_type="application/json")
    assert "This board is played online: the server keeps the game." in \
        response.content.decode()
    assert response.status_code == 409 and not LiveGame.objects.filter(board=game.board).exists()


def test_boards_paired_again_get_their_games_dealt_from_the_page(arbiter_client, round_):
    arbiter_client.post(_url(round_, "mark/"))
    online.start_round(round_, who="arbiter")
    game = OnlineGame.objects.get(board__round=round_, board__number=1)
    online.play(game, "A", {"move": "resign"})  # board 1's game is over, its result recorded
    OnlineGame.objects.filter(board__number=2).delete()  # as if board 2 had been paired again
    text = arbiter_client.get(_url(round_)).content.decode()
    assert "1 board of this round has no online game yet (it was paired again)." in text
    text = arbiter_client.post(_url(round_, "mark/"), follow=True).content.decode()
    assert "already begun" not in text
    assert OnlineGame.objects.filter(board__round=round_).count() == 2
    assert "no online game yet" not in arbiter_client.get(_url(round_)).content.decode()


def test_the_clock_spectator_page_of_an_online_board_leads_to_the_game(client, round_):
    game = online.mark_online(round_)[0]
    response = client.get(f"/e/{round_.event.slug}/clocks/1/{game.board.number}/")
    assert response.status_code == 302
    assert response["Location"] == f"/e/{round_.event.slug}/online/1/{game.board.number}/"


def test_the_spectator_pages_of_a_draft_round_do_not_exist(client, round_):
    """One rule for the clock's and the online game's public pages (permissions.visible_round)."""
    online.mark_online(round_)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFTED)
    slug = round_.event.slug
    assert client.get(f"/e/{slug}/online/1/1/").status_code == 404
    assert client.get(reverse("clock_spectate", args=[slug, 1, 1])).status_code == 404


def test_the_public_pairings_link_each_online_game_to_its_spectators_page(client, round_):
    """The event app asks tournament.boards.links.board_pages; games answers for online boards."""
    slug = round_.event.slug
    pairings = reverse("event_pairings", args=[slug])
    assert "/online/1/" not in client.get(pairings).content.decode()  # over the board: none
    online.mark_online(round_)
    page = client.get(pairings).content.decode()
    assert f'href="/e/{slug}/online/1/1/">watch</a>' in page
    assert f'href="/e/{slug}/online/1/2/">watch</a>' in page
    russian = client.get(pairings, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'href="/e/{slug}/online/1/1/">watch</a>' not in russian
    csv = client.get(pairings, {"_export": "csv"}).content.decode()
    assert "online" not in csv and "watch" not in csv


def test_a_whole_event_goes_online_from_the_page_and_each_new_round_as_it_is_published(
        arbiter_client, round_):
    from tournament import services as event_services

    event = round_.event
    page = arbiter_client.get(_url(round_))
    assert "Play every round online" in page.content.decode()
    answer = arbiter_client.post(f"/e/{event.slug}/arbiter/online/event/mark/",
                                 {"round": round_.number}, follow=True)
    text = answer.content.decode()
    assert answer.redirect_chain[-1][0] == _url(round_)
    assert "Online now: round 1." in text and "Play later rounds over the board" in text
    assert online.is_online(round_) and OnlineGame.objects.filter(board__round=round_).count() == 2
    online.start_round(round_, who="arbiter")
    for game in OnlineGame.objects.filter(board__round=round_):
        assert online.play(game, "A", {"move": "resign"}).error is None  # results by the games
    event_services.close_round(round_)
    second = event_services.start_manual_round(event, reason="round 2 by hand")
    players = list(event.players.order_by("pk"))
    event_services.edit_pairing(second, first_id=players[1].pk, second_id=players[0].pk,
                                board_number=1, reason="by hand")
    assert not online.is_online(second)  # a draft is dealt at publication
    event_services.publish_round(second)
    assert online.is_online(second)
    assert OnlineGame.objects.filter(board__round=second).count() == 1
    answer = arbiter_client.post(f"/e/{event.slug}/arbiter/online/event/stop/",
                                 {"round": second.number}, follow=True)
    assert "rounds online already stay online" in answer.content.decode()
    assert online.is_online(second) and not online.is_event_online(event)
    assert arbiter_client.post(f"/e/{event.slug}/arbiter/online/event/mark/").status_code == 302


def test_the_event_switch_is_for_the_events_arbiters(client, round_):
    url = f"/e/{round_.event.slug}/arbiter/online/event/mark/"
    assert client.post(url).status_code in (302, 403)
    assert not online.is_event_online(round_.event)
    outsider = get_user_model().objects.create_user("outsider", password="pw-out-1")
    client.force_login(outsider)
    assert client.post(url).status_code == 403
    assert not online.is_event_online(round_.event)


def test_the_pairings_page_gives_the_arbiters_every_seats_personal_link(
        client, arbiter_client, round_):
    """Issue #15: the personal links on the pairings page for logged-in arbiters only."""
    pairings = reverse("event_pairings", args=[round_.event.slug])
    games = online.mark_online(round_)
    page = arbiter_client.get(pairings).content.decode()
    for game in games:
        for seat in ("A", "B"):
            assert f'class="seat-link" href="/p/{game.token(seat)}/"' in page
    csv = arbiter_client.get(pairings, {"_export": "csv"}).content.decode()
    assert "/p/" not in csv and "Personal link" not in csv
    assert "Player 0001" in csv
    client.logout()
    public = client.get(pairings).content.decode()
    assert "/p/" not in public and "seat-link" not in public
    outsider = get_user_model().objects.create_user("other-arbiter", password="pw-other-1")
    client.force_login(outsider)
    assert "/p/" not in client.get(pairings).content.decode()
