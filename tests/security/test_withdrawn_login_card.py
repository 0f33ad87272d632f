"""Issue #35, item 1: a withdrawn login leaves no working card code behind.

My games showed the player's card code (the link to the personal page), so whoever held the
account knows it. Withdrawing the login reissues the card in the same transaction: the old code
then opens nothing, checks nobody in and confirms no result (403, with the reason), the new one
does all three, and the arbiter's page says so and prints the new card."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.printing.printing_helpers import pdf_pages
from tournament.boards import player_codes
from tournament.models import CheckIn, Confirmation, Event, HistoryEntry, PlayerLogin
from tournament.services import checkin, logins
from tournament.views.kiosk import COOKIE

pytestmark = pytest.mark.django_db

A = {"R": 9, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14}
B = {"R": 8, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18}


@pytest.fixture
def seated(event, board):
    """Round 1 paired and published, the players confirming results, the check-in for round 2
    open; the first player of ``board`` logs in."""
    Event.objects.filter(pk=event.pk).update(checkin=Event.CheckIn.EVERY_ROUND,
                                             player_results=Event.PlayerResults.ALWAYS)
    player = board.first
    account = get_user_model().objects.create_user("ada.login", password="pw-ada-login-1")
    logins.accept_invitation(logins.invite(player).secret, account)
    return player, account


def _confirmation(board):
    data = {"board_id": board.pk}
    for seat, scores in (("first", A), ("second", B)):
        data.update({f"{seat}_{colour}": value for colour, value in scores.items()})
    return data


def _code(player) -> str:
    return player_codes.code_for(player_codes.live_card(player))


def test_the_withdrawn_logins_card_code_stops_working_and_the_new_one_works(
        client, event, board, seated, arbiter):
    player, account = seated
    old = _code(player)
    client.force_login(account)
    assert reverse("player_card", args=[old]) in client.get(reverse("my_games")).content.decode()
    client.logout()

    desk = Client()
    desk.force_login(arbiter)
    page = desk.post(reverse("arbiter_player_login_withdraw", args=[event.slug, player.pk]),
                     follow=True).content.decode()
    assert "login is withdrawn and their player card reissued" in page
    assert "Print this player&#x27;s card" in page
    new = _code(player)
    assert new != old

    card_page = client.get(reverse("player_card", args=[old]))
    assert card_page.status_code == 403 and "replaced by a new one" in card_page.content.decode()
    checked = client.post(reverse("player_card", args=[old]), {"action": "checkin"})
    assert checked.status_code == 403 and "replaced by a new one" in checked.content.decode()
    confirmed = client.post(reverse("card_confirm", args=[old]), _confirmation(board))
    assert confirmed.status_code == 403 and "replaced by a new one" in confirmed.content.decode()
    kiosk = Client()
    kiosk.force_login(arbiter)
    unlocked = kiosk.post(reverse("arbiter_kiosk_unlock", args=[event.slug]))
    kiosk.logout()
    kiosk.cookies[COOKIE] = unlocked.cookies[COOKIE].value
    at_door = kiosk.post(reverse("event_kiosk", args=[event.slug]), {"q": old})
    assert at_door.status_code == 403 and "replaced by a new one" in at_door.content.decode()
    assert not CheckIn.objects.exists() and not Confirmation.objects.exists()

    assert client.get(reverse("player_card", args=[new])).status_code == 200
    assert client.post(reverse("player_card", args=[new]), {"action": "checkin"}
                       ).status_code == 302
    assert client.post(reverse("card_confirm", args=[new]), _confirmation(board)
                       ).status_code == 302
    assert CheckIn.objects.get().player == player
    assert Confirmation.objects.get().seat == "first"

    printed = desk.get(reverse("arbiter_print_cards", args=[event.slug]),
                       {"player": player.pk})
    assert printed.status_code == 200
    assert player_codes.grouped(new) in " ".join(pdf_pages(printed.content))
    assert list(event.history.order_by("pk").values_list("action", "user_label"))[-2:] == [
        (HistoryEntry.Action.LOGIN_WITHDRAWN, arbiter.username),
        (HistoryEntry.Action.CARDS_ISSUED, arbiter.username)]


def test_a_revoked_card_stays_revoked_and_an_invitation_leaves_the_card(event, seated):
    """The reissue replaces the card My games showed: an arbiter's revocation is not undone,
    and an invitation never taken up showed no code."""
    player, _account = seated
    checkin.revoke_card(player)
    assert logins.withdraw_login(player).card is None
    assert player_codes.live_card(player) is None
    other = event.players.exclude(pk=player.pk).first()
    code = _code(other)
    logins.invite(other)
    withdrawn = logins.withdraw_login(other)
    assert withdrawn.login is None and withdrawn.card is None and _code(other) == code


def test_a_failed_reissue_leaves_the_login_as_it_was(event, seated, monkeypatch):
    """One transaction: no withdrawn login beside a card that still works."""
    player, _account = seated
    code = _code(player)
    before = event.history.count()

    def broken(_player):
        raise RuntimeError("the card could not be issued")

    monkeypatch.setattr(player_codes, "issue_card", broken)
    with pytest.raises(RuntimeError):
        logins.withdraw_login(player)
    assert PlayerLogin.objects.get(player=player).withdrawn_at is None
    assert _code(player) == code and event.history.count() == before
