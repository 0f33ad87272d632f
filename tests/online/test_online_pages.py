"""The pages of online play: the arbiter's switch, links and slips; a seat's and a spectator's
game page (reading them writes nothing)."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.events import create_clock_event
from clocks import services as clock_services
from games.models import LiveGame, OnlineGame
from games.online import play as online
from tournament.models import Result, Round


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


def test_the_players_news_follows_the_event_round_after_round(client, db):
    """What a player's open pages follow (``tournament.boards.seats.news``, which the seat's
    socket and the news socket send): the current round, the board, the opponent and the seat
    of the player's online game once its round is published and dealt (a draft is nobody's
    business yet), the round's time, the bye, and the final standings after the last round."""
    from datetime import UTC, datetime

    from tournament import services as event_services
    from tournament.boards import seats
    from tournament.models import Event

    arbiter = get_user_model().objects.create_user("nextarbiter", password="pw-next-1")
    event = event_services.create_event(name="Next Up", slug="next-up", arbiter=arbiter,
                                        pairing_system=Event.PairingSystem.ROUND_ROBIN)
    for name in ("Ann", "Bob", "Cid", "Dee", "Eva"):  # five: a bye every round
        event_services.add_player(event, name=name)
    first = event_services.publish_round(event_services.pair_next_round(event))
    online.mark_event_online(event, user=arbiter)
    online.start_round(first, who="arbiter")
    games = list(OnlineGame.objects.filter(board__round=first).select_related("board__first"))
    game = games[0]
    player = game.board.first
    news = seats.news(event, [player.pk])[player.pk]
    assert (news["round"], news["board"], news["seat"]) == (
        1, game.board.number, f"/p/{game.token_a}/")
    for each in games:
        assert online.play(each, "A", {"move": "resign"}).error is None
    event_services.close_round(first)
    second = event_services.pair_next_round(event)
    assert seats.news(event, [player.pk])[player.pk]["round"] == 1  # a draft: not yet
    event_services.schedule_round(second, datetime(2026, 12, 6, 14, 0, tzinfo=UTC))
    second = event_services.publish_round(second)
    news = seats.news(event)
    mine = second.boards.get(Q(first=player) | Q(second=player))
    item = news[player.pk]
    assert item["round"] == 2 and item["round_starts_ms"] == int(
        datetime(2026, 12, 6, 14, 0, tzinfo=UTC).timestamp() * 1000)
    if mine.second is None:
        assert item["bye"] and item["opponent"] is None and item["seat"] is None
    else:
        plays_first = mine.first == player
        assert (item["board"], item["first"]) == (mine.number, plays_first)
        assert item["opponent"] == (mine.second if plays_first else mine.first).name
        next_game, seat = online.seat_for_token(item["seat"].split("/")[2])
        assert next_game.board == mine and (next_game.board.first if seat == "A"
                                            else next_game.board.second) == player
    bye = second.boards.get(second__isnull=True)
    assert news[bye.first_id]["bye"] and news[bye.first_id]["board"] is None
    assert all(item["final"] is None for item in news.values())
    Event.objects.filter(pk=event.pk).update(rounds_planned=2, publish_standings=True)
    online.start_round(second, who="arbiter")
    for each in OnlineGame.objects.filter(board__round=second):
        assert online.play(each, "A", {"move": "resign"}).error is None
    event_services.close_round(second)
    final = seats.news(Event.objects.get(pk=event.pk), [player.pk])[player.pk]["final"]
    assert final == reverse("event_standings", args=[event.slug])


def test_a_program_finds_a_rounds_online_games_without_scraping_pages(client, round_):
    """``e/<event>/online/<round>/games.json``: each board's number, id, socket, players, page
    and state, once the round is published (never a personal link); a draft is not found."""
    online.mark_online(round_)
    url = f"/e/{round_.event.slug}/online/{round_.number}/games.json"
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFTED)
    assert client.get(url).status_code == 404
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    listing = client.get(url).json()
    games = list(OnlineGame.objects.filter(board__round=round_).order_by("board__number"))
    assert listing["round"] == round_.number and len(listing["games"]) == len(games) == 2
    for entry, game in zip(listing["games"], games, strict=True):
        assert entry["board_id"] == game.board_id and entry["board"] == game.board.number
        assert entry["socket"] == f"/ws/watch/{game.board_id}/"
        assert entry["players"] == {"A": game.board.first.name, "B": game.board.second.name}
        assert client.get(entry["page"]).status_code == 200
        assert entry["moves"] == 0 and entry["over"] is False and entry["result"] is None
    online.start_round(round_, who="arbiter")
    assert online.play(games[0], "A", {"move": "resign"}).error is None
    first = client.get(url).json()["games"][0]
    assert first["over"] is True and first["result"] == "0-1" and first["moves"] == 1
    text = client.get(url).content.decode()
    assert all(game.token_a not in text and game.token_b not in text for game in games)


def test_the_online_round_page_publishes_and_records_a_no_show(arbiter_client, round_,
                                                               clock_time):
    """The arbiter's online page on a draft publishes it (and comes back); per board it says
    who has opened the game; after the waiting time it records a player who never came."""
    online.mark_online(round_)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFTED)
    page = arbiter_client.get(_url(round_)).content.decode()
    assert "Publish the round first" in page and "nothing to hand out again" in page
    answer = arbiter_client.post(
        f"/e/{round_.event.slug}/arbiter/rounds/{round_.number}/publish/",
        {"next": _url(round_)}, follow=True)
    assert answer.redirect_chain[-1][0] == _url(round_)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
    games = list(OnlineGame.objects.filter(board__round=round_).order_by("board__number"))
    online.start_round(round_, who="arbiter")
    online.note_seen(games[0], "A")
    for game in games[1:]:
        online.note_seen(game, "A")
        online.note_seen(game, "B")
    page = arbiter_client.get(_url(round_)).content.decode()
    absent = games[0].board.second.name
    assert f"Not appeared yet: {absent}." in page and "5:00 to go" in page
    assert "opened the game at" in page and "has not opened the game" in page
    assert "not connected" in page and "lowest colour 0" in page  # no socket in this test
    assert "Record the no-show" not in page
    early = arbiter_client.post(_url(round_, "no_show/"), {"board": 1}, follow=True)
    assert "is not over" in early.content.decode()
    clock_time.advance(5 * 60_000)
    page = arbiter_client.get(_url(round_)).content.decode()
    assert "Record the no-show" in page and f"Record that {absent} did not appear?" in page
    done = arbiter_client.post(_url(round_, "no_show/"), {"board": 1}, follow=True)
    assert "Board 1: the forfeit for not appearing is recorded." in done.content.decode()
    assert "a forfeit for not appearing is recorded" in done.content.decode()
    result = Result.objects.get(board=games[0].board, status=Result.Status.ACCEPTED)
    assert result.kind == Result.Kind.FORFEIT and result.loser_seat == "second"
    assert result.entered_by == round_.event.arbiters.get()


def test_a_link_opened_before_publication_says_the_same_link_will_work(client, round_):
    """Not "ask for a new link": the link is right, its round is not out yet."""
    game = online.mark_online(round_)[0]
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFTED)
    early = client.get(f"/p/{game.token_a}/")
    text = early.content.decode()
    assert early.status_code == 403 and "Round 1 is not published yet." in text
    assert "This same link works as soon as the arbiter publishes the round" in text
    assert "new link" not in text
    wrong = client.get("/p/no-such-seat-link-here/").content.decode()
    assert "Ask the arbiter for a new link to your game." in wrong
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    assert client.get(f"/p/{game.token_a}/").status_code == 200  # the same link, now


def test_the_hall_reads_an_online_rounds_seats_from_its_feed(arbiter_client, round_):
    """The hall of clocks names the feed only for an online round; the feed is the arbiters'
    (per board: seats connected or not, appeared, lowest colour; moves; a no-show due)."""
    hall = f"/e/{round_.event.slug}/clocks/{round_.number}/"
    assert 'data-feed=""' in arbiter_client.get(hall).content.decode()
    online.mark_online(round_)
    feed = _url(round_, "feed.json")
    assert f'data-feed="{feed}"' in arbiter_client.get(hall).content.decode()
    games = list(OnlineGame.objects.filter(board__round=round_))
    online.note_seen(games[0], "A")
    boards = arbiter_client.get(feed).json()["boards"]
    assert set(boards) == {str(g.board_id) for g in games}
    entry = boards[str(games[0].board_id)]
    assert entry["moves"] == 0 and entry["over"] is False and entry["no_show_due"] is False
    assert entry["seats"]["A"] == {"live": False, "appeared": True, "heard": None, "lowest": 0}
    assert entry["seats"]["B"]["appeared"] is False
    assert Client().get(feed).status_code == 302  # to the login: the arbiters' only
