"""Probing the player codes: guessed codes (random, one character off, a real key with a wrong
mac), another event's card at the kiosk, a revoked card, a withdrawn player, the rate limit,
and huge or odd input. Never a 500, never a check-in that should not be, never a code shown."""

import random

import pytest
from django.urls import reverse

from tournament import services
from tournament.boards import player_codes
from tournament.models import CheckIn, Event
from tournament.views.kiosk import COOKIE

ODD = ["x" * 100_000, "\x00" * 16, "ABCD\x00EFGH1234JKMN", "Ада Лавлейс", "ÀÉÎÕÜ" * 4,
       "😀" * 16, "<script>alert(1)</script>", "%00%2e%2e%2f", "  ", "-" * 40]


@pytest.fixture
def on(event):
    event.checkin = Event.CheckIn.ONCE  # check-in before round 1
    event.save(update_fields=["checkin"])
    return event


@pytest.fixture
def code(on):
    return player_codes.code_for(player_codes.live_card(on.players.get(name="Ada")))


@pytest.fixture
def kiosk(client, on, arbiter):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter_kiosk_unlock", args=[on.slug]))
    client.logout()
    client.cookies[COOKIE] = response.cookies[COOKIE].value
    return client


def _card(client, text):
    return client.get(reverse("player_card", args=[text]))


def _one_off(code: str) -> list[str]:
    out = []
    for i in (0, 5, 6, 15):
        swapped = "1" if code[i] != "1" else "2"
        out.append(code[:i] + swapped + code[i + 1:])
    return out


def test_random_codes_are_not_found(client, code):
    rng = random.Random(24)
    for _ in range(9):
        guess = "".join(rng.choice(player_codes.ALPHABET) for _ in range(16))
        response = _card(client, guess)
        assert response.status_code == 404
        assert "not valid" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_one_character_off_and_wrong_mac(client, code):
    for guess in _one_off(code):
        assert _card(client, guess).status_code == 404
    wrong_mac = code[:6] + ("0" * 10 if code[6:] != "0" * 10 else "1" * 10)
    response = _card(client, wrong_mac)
    assert response.status_code == 404 and "not valid" in response.content.decode()
    assert _card(client, code.lower()).status_code == 200  # typed in lower case: the same code


def test_rate_limit_after_ten_wrong_codes(client, code):
    for guess in ["0" * 16] * 10:
        assert _card(client, guess).status_code == 404
    blocked = _card(client, code)
    assert blocked.status_code == 429 and blocked["Retry-After"] == "600"
    other_address = client.get(reverse("player_card", args=[code]), REMOTE_ADDR="10.9.8.7")
    assert other_address.status_code == 200


def test_result_posts_count_against_the_limit(client, code):
    """The personal page's result panel posts by the code too: guessing there is no way round
    the limit, and a refused guess stores nothing."""
    url = reverse("card_confirm", args=["0" * 16])
    for _ in range(10):
        assert client.post(url, {"board_id": "1"}).status_code == 404
    assert client.post(reverse("card_confirm", args=[code]), {"board_id": "1"}).status_code == 429
    assert client.get(reverse("player_card", args=[code])).status_code == 429


def test_kiosk_codes_count_against_the_limit(kiosk, on, code):
    url = reverse("event_kiosk", args=[on.slug])
    for _ in range(10):
        assert kiosk.post(url, {"q": "0" * 16}).status_code == 404
    assert kiosk.post(url, {"q": code}).status_code == 429
    assert not CheckIn.objects.exists()


def test_kiosk_rate_limit_on_actions(kiosk, on):
    url = reverse("event_kiosk", args=[on.slug])
    statuses = [kiosk.post(url, {"q": "Ad"}).status_code for _ in range(61)]
    assert statuses[:60] == [200] * 60 and statuses[60] == 429


def test_another_events_card_at_the_kiosk(kiosk, on, arbiter):
    other = services.create_event(name="Other Cup", arbiter=arbiter)
    zed = services.add_player(other, name="Zed")
    Event.objects.filter(pk=other.pk).update(checkin=Event.CheckIn.ONCE)
    foreign = player_codes.code_for(player_codes.live_card(zed))
    response = kiosk.post(reverse("event_kiosk", args=[on.slug]), {"q": foreign})
    assert response.status_code == 403 and "another event" in response.content.decode()
    # and the kiosk of one event is no kiosk of another
    assert kiosk.get(reverse("event_kiosk", args=[other.slug])).status_code == 403
    assert not CheckIn.objects.exists()


def test_revoked_card(client, kiosk, on, code):
    ada = on.players.get(name="Ada")
    player_codes.issue_card(ada)
    assert _card(client, code).status_code == 403
    response = kiosk.post(reverse("event_kiosk", args=[on.slug]), {"q": code})
    assert response.status_code == 403 and "replaced" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_withdrawn_player(client, kiosk, on, code):
    services.withdraw_player(on.players.get(name="Ada"), reason="went home")
    page = _card(client, code)
    assert page.status_code == 200 and "withdrawn" in page.content.decode()
    assert b">Check in<" not in page.content
    assert client.post(reverse("player_card", args=[code]), {"action": "checkin"}
                       ).status_code == 302
    response = kiosk.post(reverse("event_kiosk", args=[on.slug]), {"q": code})
    assert response.status_code == 409 and "withdrawn" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_forged_kiosk_cookie(client, on):
    client.cookies[COOKIE] = f"{on.pk}:0"
    assert client.get(reverse("event_kiosk", args=[on.slug])).status_code == 403


@pytest.mark.parametrize("text", ODD)
def test_odd_input_never_a_server_error(client, kiosk, on, code, text):
    url = reverse("event_kiosk", args=[on.slug])
    for data in ({"q": text}, {"pick": text}, {"player": text}):
        assert kiosk.post(url, data).status_code < 500
    safe = text.replace("/", "").replace("\x00", "") or "x"
    assert client.get(f"/card/{safe[:5000]}/").status_code in (404, 429)
    response = client.post(reverse("player_card", args=[code]), {"action": text})
    assert response.status_code == 302
    assert not CheckIn.objects.exists()
