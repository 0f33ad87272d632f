"""Player logins (issue #15): invitations and what they refuse, one account for many events,
the "My games" page and the arbiter's side of it. The story through the pages is
``tests/scenarios/test_player_login.py``; the refusals of arbiter pages are
``test_player_login_security.py``."""

import datetime
import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.online import play as online
from tournament import services
from tournament.models import HistoryEntry, LoginInvitation, PlayerLogin, Round
from tournament.services import logins
from tournament.site import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-stars-77"


@pytest.fixture
def paired(event):
    """Round 1 of the twelve-player event paired and published."""
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_


def _player(event, name="Ada"):
    return event.players.get(name=name)


def _link(secret: str) -> str:
    return reverse("login_invitation", args=[secret])


def _sign_up(client, secret, username="ada.l", password=PASSWORD, **extra):
    return client.post(_link(secret), {"action": "create", "new-username": username,
                                       "new-password1": password, "new-password2": password,
                                       **extra})


def _account(username="ada.l"):
    return get_user_model().objects.create_user(username, password=PASSWORD)


def _board_of(round_, name):
    return round_.boards.get(Q(first__name=name) | Q(second__name=name))


def _my_games(client) -> str:
    return client.get(reverse("my_games")).content.decode()


# -- invitations ------------------------------------------------------------------------------


def test_an_invitation_sets_up_a_login_and_logs_the_player_in(client, event):
    secret = logins.invite(_player(event)).secret
    page = client.get(_link(secret)).content.decode()
    assert "A login for <bdi>Ada</bdi>" in page and 'name="new-username"' in page
    response = _sign_up(client, secret)
    assert response.status_code == 302 and response["Location"] == reverse("my_games")
    login = PlayerLogin.objects.get(player__name="Ada")
    assert login.user.username == "ada.l" and login.user.check_password(PASSWORD)
    assert not login.user.is_staff and not login.user.is_superuser
    assert not login.user.user_permissions.exists() and not login.user.arbitrated_events.exists()
    assert client.session["_auth_user_id"] == str(login.user.pk)
    assert "Test Open is in your games: you log in as ada.l." in _my_games(client)


def test_only_a_digest_of_the_secret_is_stored(event):
    invited = logins.invite(_player(event))
    stored = LoginInvitation.objects.get()
    assert invited.secret not in (stored.digest, str(stored.__dict__))
    assert stored.digest == logins.digest(invited.secret) and len(invited.secret) >= 40


@pytest.mark.parametrize("secret", ["x", "not-an-invitation-at-all-here", "A" * 64, "é" * 40,
                                    "x" * 10_000])
def test_a_forged_link_is_a_clear_404_to_get_and_to_post(client, event, secret):
    for response in (client.get(_link(secret)), _sign_up(client, secret)):
        assert response.status_code == 404
        assert "This invitation link is not valid." in response.content.decode()
    assert not get_user_model().objects.filter(username="ada.l").exists()


def _ended(event, how: str) -> str:
    player = _player(event)
    if how == "expired":
        past = timezone.now() - datetime.timedelta(days=logins.INVITATION_DAYS, seconds=1)
        return logins.invite(player, now=past).secret
    secret = logins.invite(player).secret
    if how == "used":
        logins.accept_invitation(secret, _account("first.taker"))
    elif how == "replaced":
        logins.invite(player)
    elif how == "withdrawn":
        logins.withdraw_login(player)
    return secret


@pytest.mark.parametrize(("how", "says"), [
    ("expired", "This invitation has expired."),
    ("used", "This invitation has been used already"),
    ("replaced", "This invitation was withdrawn by the arbiter or replaced by a newer one."),
    ("withdrawn", "This invitation was withdrawn by the arbiter or replaced by a newer one."),
])
def test_an_ended_invitation_is_a_clear_410_and_takes_nothing(client, event, how, says):
    secret = _ended(event, how)
    for response in (client.get(_link(secret)), _sign_up(client, secret)):
        assert response.status_code == 410
        text = response.content.decode()
        assert says in text and "Ask the arbiter for a new invitation." in text
    assert not get_user_model().objects.filter(username="ada.l").exists()
    assert "_auth_user_id" not in client.session


def test_a_100000_character_username_is_a_field_error(client, event):
    secret = logins.invite(_player(event)).secret
    response = _sign_up(client, secret, username="u" * 100_000)
    assert response.status_code == 200
    errors = re.search(r'id="id_new-username".*?<ul class="errorlist"[^>]*>(.*?)</ul>',
                       response.content.decode(), re.S)
    assert errors and "at most 150 characters" in errors.group(1)
    assert not PlayerLogin.objects.exists() and get_user_model().objects.count() == 1
    response = client.post(_link(secret), {"action": "login", "username": "u" * 100_000,
                                           "password": "whatever"})
    assert response.status_code == 200 and "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()  # refused before any password was tried


def test_new_logins_from_one_address_stop_at_the_hours_limit(event, monkeypatch):
    """The invitation's sign-up counts against the same limit as a registration's: past it,
    a 429 with the reason, no account made, the invitation still open."""
    monkeypatch.setattr(throttle, "SIGNUPS", 2)
    script = Client(REMOTE_ADDR="203.0.113.9")
    for name, username in (("Ada", "ada.l"), ("Ben", "ben.l")):
        assert _sign_up(script, logins.invite(_player(event, name)).secret,
                        username=username).status_code == 302
        script.logout()
    secret = logins.invite(_player(event, "Cy")).secret
    refused = _sign_up(script, secret, username="cleo.l")
    assert refused.status_code == 429
    assert "Too many new logins from this address" in refused.content.decode()
    assert not get_user_model().objects.filter(username="cleo.l").exists()
    assert _sign_up(Client(REMOTE_ADDR="198.51.100.7"), secret,
                    username="cleo.l").status_code == 302


def test_a_weak_password_or_a_taken_username_is_refused_on_its_field(client, event, arbiter):
    secret = logins.invite(_player(event)).secret
    short = _sign_up(client, secret, password="abc").content.decode()
    assert "This password is too short." in short
    taken = _sign_up(client, secret, username=arbiter.username.upper()).content.decode()
    assert "A user with that username already exists." in taken
    assert not PlayerLogin.objects.exists()


def test_posts_need_the_csrf_token(event):
    secret = logins.invite(_player(event)).secret
    strict = Client(enforce_csrf_checks=True)
    assert strict.get(_link(secret)).status_code == 200
    assert _sign_up(strict, secret).status_code == 403
    assert not PlayerLogin.objects.exists()


def test_wrong_passwords_on_the_invitations_login_form_are_throttled(event):
    _account("ada.l")
    secret = logins.invite(_player(event)).secret
    client = Client()

    def attempt(password):
        return client.post(_link(secret), {"action": "login", "username": "ada.l",
                                           "password": password}, REMOTE_ADDR="203.0.113.9")

    codes = [attempt(f"guess-{n}").status_code for n in range(settings.AXES_FAILURE_LIMIT + 2)]
    assert codes[0] == 200 and codes[-1] == 429
    assert attempt(PASSWORD).status_code == 429  # even the right one, while locked
    assert not PlayerLogin.objects.exists() and "_auth_user_id" not in client.session


# -- one account, many events; one player, one account ----------------------------------------


def test_an_account_logs_in_on_the_invitation_of_its_next_event(client, event, arbiter):
    autumn = services.create_event(name="Autumn Open", arbiter=arbiter)
    services.add_player(autumn, name="Ada L.")
    logins.accept_invitation(logins.invite(_player(event)).secret, _account())
    secret = logins.invite(_player(autumn, "Ada L.")).secret
    response = client.post(_link(secret), {"action": "login", "username": "ada.l",
                                           "password": PASSWORD})
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ada.l")
    assert sorted(user.player_logins.values_list("player__name", flat=True)) == ["Ada", "Ada L."]
    page = _my_games(client)
    assert "Test Open" in page and "Autumn Open" in page


def test_a_logged_in_account_adds_the_event_with_one_button(client, event):
    user = _account()
    client.force_login(user)
    secret = logins.invite(_player(event)).secret
    page = client.get(_link(secret)).content.decode()
    assert "You are logged in as ada.l." in page and "Add Test Open to this login" in page
    assert 'name="new-username"' not in page
    assert client.post(_link(secret), {"action": "attach"}).status_code == 302
    assert PlayerLogin.objects.get().user == user


def test_an_account_holds_one_player_per_event(client, event):
    user = _account()
    logins.accept_invitation(logins.invite(_player(event)).secret, user)
    client.force_login(user)
    secret = logins.invite(_player(event, "Ben")).secret
    response = client.post(_link(secret), {"action": "attach"})
    assert response.status_code == 409
    assert "This account already plays in Test Open as Ada." in response.content.decode()
    assert not PlayerLogin.objects.filter(player__name="Ben").exists()


def test_a_player_with_a_login_gets_no_second_invitation(event):
    player = _player(event)
    logins.accept_invitation(logins.invite(player).secret, _account())
    with pytest.raises(services.ServiceError, match=r"already logs in as ada\.l"):
        logins.invite(player)


def test_an_arbiter_who_opens_the_invitation_does_not_take_the_seat(client, event, arbiter):
    client.force_login(arbiter)
    secret = logins.invite(_player(event)).secret
    response = client.post(_link(secret), {"action": "attach"})
    assert response.status_code == 409
    assert "You are logged in as an arbiter of this event" in response.content.decode()
    assert not PlayerLogin.objects.exists()
    assert logins.open_invitation(secret)  # still open for the player


def test_a_withdrawn_login_is_named_on_my_games_and_the_player_may_be_invited_again(
        client, event):
    player = _player(event)
    user = _account()
    logins.accept_invitation(logins.invite(player).secret, user)
    logins.withdraw_login(player)
    client.force_login(user)
    page = _my_games(client)
    assert "Your login for Test Open (Ada) was withdrawn by the arbiter." in page
    assert 'class="card my-seat"' not in page
    logins.accept_invitation(logins.invite(player).secret, _account("ada.new"))
    assert PlayerLogin.objects.get().user.username == "ada.new"
    assert "withdrawn" not in _my_games(client)  # the seat went to another account


def test_the_history_keeps_who_was_given_and_lost_a_login(event, arbiter):
    player = _player(event)
    logins.accept_invitation(logins.invite(player, user=arbiter).secret, _account())
    logins.withdraw_login(player, user=arbiter)
    entries = [(h.action, h.summary, h.user_label) for h in event.history.order_by("pk")]
    assert entries == [
        (HistoryEntry.Action.LOGIN_GIVEN, "Ada logs in as ada.l.", "ada.l"),
        (HistoryEntry.Action.LOGIN_WITHDRAWN, "Ada's login (ada.l) withdrawn.", "arbiter1"),
        (HistoryEntry.Action.CARDS_ISSUED,  # My games showed the card's code
         "Ada's player card reissued (the old one no longer works).", "arbiter1"),
    ]


# -- My games ---------------------------------------------------------------------------------


def test_my_games_asks_anonymous_visitors_to_log_in(client, db):
    response = client.get(reverse("my_games"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def _playing(client, event, name="Ada"):
    user = _account(f"{name.lower()}.l")
    logins.accept_invitation(logins.invite(_player(event, name)).secret, user)
    client.force_login(user)
    return user


def test_my_games_shows_the_board_of_the_latest_published_round_only(client, event, paired):
    _playing(client, event)
    board = _board_of(paired, "Ada")
    page = _my_games(client)
    assert f"board {board.number}</span>, against" in page
    assert reverse("board_page", args=[board.token]) in page
    assert "/p/" not in page  # not an online round
    Round.objects.filter(pk=paired.pk).update(status=Round.Status.DRAFTED)
    assert "no round paired yet" in _my_games(client)


def test_my_games_gives_the_personal_link_of_the_own_seat_while_it_works(
        client, event, paired):
    _playing(client, event)
    games = {g.board_id: g for g in online.mark_online(paired)}
    board = _board_of(paired, "Ada")
    game = games[board.pk]
    mine, theirs = (game.token_a, game.token_b) if board.first.name == "Ada" else (
        game.token_b, game.token_a)
    page = _my_games(client)
    assert reverse("online_play", args=[mine]) in page and theirs not in page
    assert "Play your game" in page
    # the own seat only (the link, and the page's record of the news it was made from)
    assert set(re.findall(r"/p/[^/\"|]+/", page)) == {reverse("online_play", args=[mine])}


def test_the_personal_link_goes_when_the_round_closes_and_its_grace_ends(
        client, event, paired):
    _playing(client, event)
    online.mark_online(paired)
    long_ago = timezone.now() - datetime.timedelta(minutes=event.token_grace_minutes + 1)
    Round.objects.filter(pk=paired.pk).update(status=Round.Status.CLOSED, closed_at=long_ago)
    page = _my_games(client)
    assert "/p/" not in page and "/b/" not in page and "board " in page


def test_a_bye_and_an_absence_read_as_on_the_event_page(client, arbiter):
    event = services.create_event(name="Odd Open", arbiter=arbiter, pairing_system="swiss")
    for name in ["Ada", "Ben", "Cy", "Di", "Ed", "Flo"]:
        services.add_player(event, name=name)
    services.set_absence(event.players.get(name="Flo"), 1)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    bye = round_.boards.get(second__isnull=True).first.name
    _playing(client, event, bye)
    assert "Round 1: bye" in _my_games(client)
    _playing(client, event, "Flo")
    assert "not paired in round 1" in _my_games(client)


def test_the_header_links_my_games_for_player_accounts_only(client, event, arbiter):
    client.force_login(arbiter)
    assert reverse("my_games") not in client.get(reverse("home")).content.decode()
    client.logout()
    _playing(client, event)
    assert reverse("my_games") in client.get(reverse("home")).content.decode()


# -- the arbiter's side -----------------------------------------------------------------------


def test_the_arbiter_invites_from_the_players_page_and_prints_the_slip(arbiter_client, event):
    ada = _player(event)
    page = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert reverse("arbiter_player_invite", args=[event.slug, ada.pk]) in page
    response = arbiter_client.post(reverse("arbiter_player_invite", args=[event.slug, ada.pk]))
    text = response.content.decode()
    assert response.status_code == 200 and text.count('class="slip invitation"') == 1
    assert '<svg class="qr"' in text and "Works once, until" in text
    url = re.search(r'<p class="url"><a href="([^"]+)"', text).group(1)
    assert url.startswith("http://testserver/invitations/")
    assert logins.open_invitation(url.rstrip("/").rsplit("/", 1)[1]).player == ada
    listed = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert "invited to log in (until" in listed


def test_inviting_everyone_skips_players_with_a_login_or_an_open_invitation(
        arbiter_client, event):
    logins.accept_invitation(logins.invite(_player(event)).secret, _account())
    logins.invite(_player(event, "Ben"))
    services.withdraw_player(_player(event, "Cy"), reason="went home")
    response = arbiter_client.post(reverse("arbiter_players_invite", args=[event.slug]))
    assert response.status_code == 200
    assert response.content.decode().count('class="slip invitation"') == 9
    assert LoginInvitation.objects.filter(player__name="Ada").count() == 1  # the used one
    assert LoginInvitation.objects.filter(player__name="Ben").count() == 1  # still open
    assert not LoginInvitation.objects.filter(player__name="Cy").exists()
    again = arbiter_client.post(reverse("arbiter_players_invite", args=[event.slug]),
                                follow=True)
    assert "Every player has a login or an open invitation." in again.content.decode()


def test_the_arbiter_withdraws_a_login_on_the_players_page(arbiter_client, event):
    ada = _player(event)
    logins.accept_invitation(logins.invite(ada).secret, _account())
    page_url = reverse("arbiter_player_edit", args=[event.slug, ada.pk])
    assert "logs in as ada.l" in arbiter_client.get(page_url).content.decode()
    withdraw = reverse("arbiter_player_login_withdraw", args=[event.slug, ada.pk])
    text = arbiter_client.post(withdraw, follow=True).content.decode()
    assert "Ada&#x27;s login is withdrawn and their player card reissued" in text
    assert "Invite to log in" in text
    again = arbiter_client.post(withdraw, follow=True).content.decode()
    assert "Ada has no login or invitation to withdraw." in again


def test_the_pages_speak_the_players_language(client, event):
    _playing(client, event)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    assert "Мои партии" in _my_games(client)
    refused = client.get(_link("not-an-invitation-at-all-here")).content.decode()
    assert "Эта ссылка-приглашение недействительна." in refused
