"""Results the players confirm (issue #24): the panel's pages, the posts, the round page."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.web.test_checkin_confirmations_service import A, B, C
from tournament import services
from tournament.boards.player_codes import code_for, live_card
from tournament.models import Confirmation, Event, PlayerLogin, Result
from tournament.services import confirmations as conf

pytestmark = pytest.mark.django_db





def _login(player, username):
    user = get_user_model().objects.create_user(username, password="pw-" + username + "-1")
    PlayerLogin.objects.create(player=player, event=player.event, user=user,
                               attached_at=timezone.now())
    return user


@pytest.fixture
def board(board_players_confirm):
    return board_players_confirm


def _form(board, first, second, **extra):
    data = {"board_id": board.pk}
    for seat, scores in (("first", first), ("second", second)):
        for colour, value in scores.items():
            data[f"{seat}_{colour}"] = value
    data.update(extra)
    return data


def _url(board):
    return reverse("my_games_confirm", args=[board.pk])


def test_the_player_confirms_on_my_games_and_the_other_accepts(client, board):
    first, second = _login(board.first, "first1"), _login(board.second, "second1")
    client.force_login(first)
    page = client.get(_url(board))
    assert page.status_code == 200
    assert "Waiting for your confirmation" in page.content.decode()
    assert 'name="first_R"' in page.content.decode() and "slip.js" in page.content.decode()
    response = client.post(_url(board), _form(board, A, B))
    assert response.status_code == 302 and response.url == _url(board)
    page = client.get(_url(board)).content.decode()
    assert "You confirmed at" in page and f"waiting for {board.second.name}" in page
    client.force_login(second)
    page = client.get(_url(board)).content.decode()
    assert f"{board.first.name} entered these scores: accept or change" in page
    assert 'name="second_R" type="number" min="0" max="18" inputmode="numeric" required ' \
           'class="score" aria-label' in page and 'value="8"' in page
    response = client.post(_url(board), _form(board, A, B, next=reverse("my_games")))
    assert response.status_code == 302 and response.url == reverse("my_games")
    assert services.current_result(board).source == Result.Source.PLAYERS
    page = client.get(_url(board)).content.decode()
    assert "Confirmed by both: stored." in page


def test_my_games_shows_the_panel_for_the_current_board(client, board):
    client.force_login(_login(board.first, "first1"))
    page = client.get(reverse("my_games")).content.decode()
    assert "confirm-panel" in page and _url(board) in page
    assert "Waiting for your confirmation" in page


def test_my_games_has_no_panel_when_the_arbiter_enters_every_result(client, board, event):
    event.player_results = Event.PlayerResults.NEVER
    event.save()
    client.force_login(_login(board.first, "first1"))
    assert "confirm-panel" not in client.get(reverse("my_games")).content.decode()


def test_another_player_anonymous_and_an_arbiter_of_another_event(client, board, event,
                                                                  other_user):
    stranger = event.players.exclude(pk__in=[board.first_id, board.second_id]).first()
    client.force_login(_login(stranger, "stranger1"))
    assert client.get(_url(board)).status_code == 403
    assert client.post(_url(board), _form(board, A, B)).status_code == 403
    client.logout()
    response = client.post(_url(board), _form(board, A, B))
    assert response.status_code == 302 and "login" in response.url
    other = services.create_event(name="Other Open", arbiter=other_user)
    assert other.pk
    client.force_login(other_user)
    assert client.get(_url(board)).status_code == 403
    assert client.post(_url(board), _form(board, A, B)).status_code == 403
    assert not Confirmation.objects.exists()


@pytest.mark.parametrize("change", [
    {"first_R": "19"}, {"second_P": "-1"}, {"first_G": "many"}, {"second_B": ""},
    {"first_O": "9" * 5000},
])
def test_bad_scores_are_a_400_with_the_message_and_nothing_stored(client, board, change):
    client.force_login(_login(board.first, "first1"))
    data = _form(board, A, B)
    data.update(change)
    response = client.post(_url(board), data)
    assert response.status_code == 400
    assert 'class="errorlist"' in response.content.decode()
    assert not Confirmation.objects.exists() and not board.results.exists()


def test_a_missing_colour_and_a_bad_board_id(client, board):
    client.force_login(_login(board.first, "first1"))
    data = _form(board, A, B)
    del data["second_Y"]
    assert client.post(_url(board), data).status_code == 400
    card = code_for(live_card(board.first))
    url = reverse("card_confirm", args=[card])
    assert client.post(url, _form(board, A, B, board_id="x" * 50)).status_code == 400
    assert not Confirmation.objects.exists()


def test_a_huge_body_is_a_400(client, board):
    client.force_login(_login(board.first, "first1"))
    data = _form(board, A, B, filler="x" * (3 * 1024 * 1024))
    assert client.post(_url(board), data).status_code == 400
    assert not Confirmation.objects.exists()


def test_the_card_page_and_post(client, board):
    code = code_for(live_card(board.first))
    url = reverse("card_confirm", args=[code])
    page = client.get(url)
    assert page.status_code == 200 and "Waiting for your confirmation" in page.content.decode()
    response = client.post(url, _form(board, A, B))
    assert response.status_code == 302 and response.url == url
    assert Confirmation.objects.get(board=board, seat="first").via == "card"
    # an outside "next" is not followed
    response = client.post(url, _form(board, A, B, next="https://evil.example/"))
    assert response.url == url


def test_a_refused_code_is_a_404_with_the_reason(client, board):
    response = client.get(reverse("card_confirm", args=["nonsense"]))
    assert response.status_code == 404 and "not a player code" in response.content.decode()
    response = client.post(reverse("card_confirm", args=["0" * 16]), _form(board, A, B))
    assert response.status_code == 404
    assert not Confirmation.objects.exists()


def test_the_card_of_another_player_cannot_confirm_this_board(client, board, event):
    stranger = event.players.exclude(pk__in=[board.first_id, board.second_id]).first()
    url = reverse("card_confirm", args=[code_for(live_card(stranger))])
    response = client.post(url, _form(board, A, B))
    assert response.status_code == 403 and "do not play on this board" in response.content.decode()
    assert not Confirmation.objects.exists()


def test_a_closed_round_is_a_409_with_the_reason(client, board, event):
    event.token_grace_minutes = 0
    event.save()
    round_ = board.round
    round_.status, round_.closed_at = "closed", timezone.now() - datetime.timedelta(hours=1)
    round_.save()
    client.force_login(_login(board.first, "first1"))
    page = client.get(_url(board)).content.decode()
    assert "closed" in page and 'name="first_R"' not in page
    response = client.post(_url(board), _form(board, A, B))
    assert response.status_code == 409
    assert not Confirmation.objects.exists()


def test_a_record_result_shows_nothing_to_confirm(client, board):
    services.record_result(board, "played", source="record", first_scores=A, second_scores=B)
    client.force_login(_login(board.first, "first1"))
    page = client.get(_url(board)).content.decode()
    assert "From the game record: nothing to confirm." in page and 'name="first_R"' not in page
    assert client.post(_url(board), _form(board, A, B)).status_code == 409


def test_disagreement_shows_on_the_panel_the_round_page_and_the_board_page(
        client, board, arbiter):
    conf.confirm(board, board.first, A, B, "card")
    conf.confirm(board, board.second, A, C, "login")
    client.force_login(_login(board.first, "first1"))
    page = client.get(_url(board)).content.decode()
    assert f"You and {board.second.name} disagree: the arbiter decides." in page
    client.force_login(arbiter)
    page = client.get(reverse("arbiter_round", args=[board.round.event.slug, 1])).content.decode()
    assert "conflict: the arbiter decides" in page
    assert reverse("arbiter_board", args=[board.round.event.slug, board.pk]) in page
    assert "1 conflict" in page and "0 of 6 confirmed by players" in page
    page = client.get(reverse("arbiter_board", args=[board.round.event.slug, board.pk]))
    text = page.content.decode()
    assert "What the players confirmed" in text
    assert board.first.name in text and board.second.name in text
    # the source of both conflicts, in the history and in the versions side by side
    assert text.count("one player&#x27;s confirmation") == 4
    page = client.get(reverse("arbiter_dashboard", args=[board.round.event.slug]))
    assert f"one player&#x27;s confirmation: {board.first.name}" in page.content.decode()


def test_the_round_page_names_each_state(client, board, arbiter):
    boards = list(board.round.boards.filter(second__isnull=False)
                  .select_related("first", "second"))
    conf.confirm(boards[0], boards[0].first, A, B, "card")
    conf.confirm(boards[1], boards[1].first, A, B, "card")
    conf.confirm(boards[1], boards[1].second, A, B, "card")
    services.enter_slip(boards[2], user=arbiter, first_scores=A, second_scores=B)
    services.record_result(boards[3], "played", source="record", first_scores=A,
                           second_scores=B)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter_round", args=[board.round.event.slug, 1])).content.decode()
    for words in ("one player confirmed", "confirmed by both players", "entered by the arbiter",
                  "from the game record", "waiting for the players"):
        assert words in page
    summary = page[page.index('id="confirm-summary"'):][:400]
    assert "1 of 6 confirmed by players" in summary, summary
    assert "1 waiting for the second player" in summary


def test_the_results_page_says_confirmed_by_both_players(client, board):
    conf.confirm(board, board.first, A, B, "card")
    conf.confirm(board, board.second, A, B, "card")
    page = client.get(reverse("event_results", args=[board.round.event.slug]) + "?round=1")
    assert "confirmed by both players" in page.content.decode()


def test_the_card_is_the_authority_not_a_csrf_cookie(board):
    """The code in the address is the authority, not a CSRF cookie (a forged post from
    another site needs the code, and with it could open the page anyway): a post without the
    cookie, or with ``Origin: null`` (as under the page's former ``no-referrer``), is taken."""
    from django.test import Client
    client = Client(enforce_csrf_checks=True)
    url = reverse("card_confirm", args=[code_for(live_card(board.first))])
    response = client.post(url, _form(board, A, B), HTTP_ORIGIN="null")
    assert response.status_code == 302
    assert Confirmation.objects.get().seat == "first"
    assert response["Referrer-Policy"] == "same-origin" and "no-store" in response["Cache-Control"]
    wrong = client.post(reverse("card_confirm", args=["0" * 16]), _form(board, A, B))
    assert wrong.status_code == 404 and Confirmation.objects.count() == 1


def test_the_arbiter_sets_the_option_in_the_event_settings(client, event, arbiter):
    client.force_login(arbiter)
    url = reverse("arbiter_settings", args=[event.slug])
    form = client.get(url).context["form"]
    assert "player_results" in form.fields
    data = {name: value for name, value in form.initial.items()
            if name in form.fields and value is not None}
    data.update(player_results="never", name=event.name)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert event.player_results == "never"


def test_the_panel_after_the_arbiter_typed_the_slip(client, board, arbiter):
    services.enter_slip(board, user=arbiter, first_scores=A, second_scores=B)
    client.force_login(_login(board.first, "first1"))
    page = client.get(_url(board)).content.decode()
    assert "Entered by the arbiter." in page and 'value="8"' in page  # the slip, pre-filled
    response = client.post(_url(board), _form(board, A, C))
    assert response.status_code == 302
    client.force_login(_login(board.second, "second1"))
    client.post(_url(board), _form(board, A, C))
    assert services.current_result(board).source == "slip"
    page = client.get(_url(board)).content.decode()
    assert "confirmed the same scores, but they differ from the result already stored" in page


def test_a_round_confirmed_by_players_with_one_dispute_settled_pairs_the_next(client, board,
                                                                             arbiter):
    round_ = board.round
    boards = list(round_.boards.filter(second__isnull=False).select_related("first", "second"))
    for b in boards:
        conf.confirm(b, b.first, A, B, "card")
        conf.confirm(b, b.second, A, C if b.pk == board.pk else B, "login")
    with pytest.raises(services.ServiceError):
        services.close_round(round_)                     # the dispute is still open
    adopted = board.results.get(status="conflict", second_scores=B)
    client.force_login(arbiter)
    response = client.post(reverse("arbiter_conflict", args=[round_.event.slug, adopted.pk]),
                           {"accept": "1", "reason": "the scoresheet says 8"})
    assert response.status_code == 302
    assert services.current_result(board).second_scores == B
    assert not services.open_conflicts(round_)
    assert board.results.filter(status="dismissed", source="players").count() == 1
    services.close_round(round_)
    assert services.pair_next_round(round_.event).number == 2


def test_record_explains_to_the_players_a_slip_typed_over_their_confirmations(client, board,
                                                                              arbiter):
    """One player confirms, the arbiter types another slip, the other player accepts the
    first's scores: the phones say that the players agree and the arbiter's slip differs, and
    show every version side by side with the differing cells marked, as the arbiter sees them."""
    client.force_login(_login(board.first, "first1"))
    assert client.post(_url(board), _form(board, A, C)).status_code == 302
    services.enter_slip(board, user=arbiter, first_scores=A, second_scores=B)
    client.force_login(_login(board.second, "second1"))
    assert client.post(_url(board), _form(board, A, C)).status_code == 302
    stored = services.current_result(board)  # both players agree: their version is stored
    assert (stored.source, stored.first_scores, stored.second_scores) == ("players", A, C)
    page = client.get(_url(board)).content.decode()
    assert "confirmed the same scores; the arbiter entered others" in page
    assert "differ from the result already stored" not in page
    assert page.count('class="version"') >= 2 and '<mark class="differs"' in page
    differing = {c for c in "RGBOYP" if B[c] != C[c]}
    assert page.count('<mark class="differs"') == 2 * len(differing)  # in each of two versions
