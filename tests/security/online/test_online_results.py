"""Issue #21: on a board of an online round only the game decides the result.

A made-up record (the board's shared token by the API or the record form, an arbiter's paste,
the live scoresheet's confirmation) and a typed slip are refused with 409 and the code
``online_game``; nothing is stored. An arbiter's decision with a reason still stands, and the
game's own record at its end still becomes the result. "My games" shows the seat link only.
"""

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.engine import format_record, random_game
from games.models import GameRecord, OnlineGame
from games.online import play as online
from games.services import RecordRejected, submit_record
from tournament import services
from tournament.models import PlayerLogin, Result, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_board(board, arbiter, clock_time):
    round_ = Round.objects.get(pk=board.round_id)
    online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter", user=arbiter)
    return board


def _made_up_record(board) -> str:
    tags = {"Event": board.round.event.name, "Round": str(board.round.number),
            "Board": str(board.number), "First": board.first.name, "Second": board.second.name}
    return format_record(random_game(random.Random(7), tags=tags).record)


def _nothing_stored(board) -> None:
    assert not GameRecord.objects.filter(board=board).exists()
    assert not Result.objects.filter(board=board).exists()


def test_the_boards_token_cannot_post_a_record_for_an_online_game(client, online_board):
    response = client.post(reverse("api_submit"), _made_up_record(online_board),
                           content_type="text/plain",
                           HTTP_AUTHORIZATION=f"Board {online_board.token}")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "online_game"
    assert error["message"].startswith(f"Board {online_board.number} is played online")
    _nothing_stored(online_board)


def test_the_boards_record_form_refuses_a_record_for_an_online_game(client, online_board):
    response = client.post(reverse("player_submit", args=[online_board.token]),
                           {"record": _made_up_record(online_board)})
    assert response.status_code == 409
    assert "is played online" in response.content.decode()
    _nothing_stored(online_board)


def test_an_arbiter_cannot_paste_a_record_or_type_a_slip_for_an_online_game(
        client, arbiter, online_board):
    client.force_login(arbiter)
    event = online_board.round.event
    text = _made_up_record(online_board)
    for url in (reverse("arbiter_submit", args=[event.slug, online_board.pk]),
                reverse("arbiter_records", args=[event.slug])):
        assert client.post(url, {"record": text}).status_code == 409, url
    api = client.post(f"{reverse('api_submit')}?board={online_board.pk}", text,
                      content_type="text/plain")
    assert api.status_code == 409 and api.json()["error"]["code"] == "online_game"
    slip = {f"{seat}_{c}": "5" for seat in ("first", "second") for c in "RGBOYP"}
    response = client.post(reverse("arbiter_results", args=[event.slug, 1]),
                           {"board_id": str(online_board.pk), **slip})
    assert response.status_code == 409 and "is played online" in response.content.decode()
    no_reason = client.post(reverse("arbiter_board", args=[event.slug, online_board.pk]), {
        "kind": "played", "first_scores": "1 2 3 4 5 6", "second_scores": "6 5 4 3 2 1"})
    assert no_reason.status_code == 409
    _nothing_stored(online_board)


def test_the_services_refuse_every_other_way_in(online_board):
    with pytest.raises(RecordRejected) as refused:
        submit_record(online_board, _made_up_record(online_board), via="api")
    assert (refused.value.code, refused.value.status) == ("online_game", 409)
    with pytest.raises(services.ResultRefused) as slip:
        services.record_result(online_board, Result.Kind.PLAYED,
                               first_scores=dict.fromkeys("RGBOYP", 3),
                               second_scores=dict.fromkeys("RGBOYP", 2))
    assert slip.value.code == "online_game"
    _nothing_stored(online_board)


def test_an_arbiters_decision_with_a_reason_stands(online_board, arbiter):
    recorded = services.record_result(
        online_board, Result.Kind.FORFEIT, user=arbiter, source=Result.Source.ARBITER,
        loser_seat="second", reason="B never connected")
    assert recorded.created and recorded.result.status == Result.Status.ACCEPTED


def test_the_games_own_record_is_still_its_result(online_board, clock_time):
    game = OnlineGame.objects.get(board=online_board)
    clock_time.now += 1000
    assert online.play(game, "B", {"move": "resign"}).error is None
    result = Result.objects.get(board=online_board)
    assert result.source == Result.Source.RECORD and result.loser_seat == "second"
    assert GameRecord.objects.get(board=online_board).submitted_via == "online"


def test_my_games_shows_an_online_boards_seat_link_only(client, online_board):
    user = get_user_model().objects.create_user("ada-online", password="pw-ada-online-1")
    PlayerLogin.objects.create(player=online_board.first, event=online_board.round.event,
                               user=user, attached_at=timezone.now())
    client.force_login(user)
    page = client.get(reverse("my_games")).content.decode()
    game = OnlineGame.objects.get(board=online_board)
    assert reverse("online_play", args=[game.token_a]) in page
    assert online_board.token not in page and game.token_b not in page
