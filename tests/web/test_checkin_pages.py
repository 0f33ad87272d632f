"""Check-in pages: the dashboard's panel and its buttons, the players page's ticks, the
personal page, the kiosk, the cards PDF, card reissue and revoke; as arbiter, player,
anonymous and another event's arbiter."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.printing.printing_helpers import decode_qr, pdf_pages
from tournament import services
from tournament.boards import player_codes
from tournament.models import Absence, CheckIn, Event, PlayerCard
from tournament.services import checkin
from tournament.site import throttle
from tournament.views.kiosk import COOKIE


@pytest.fixture
def other_arbiter_client(client, db):
    user = get_user_model().objects.create_user("other-arb", password="pw-other-arb-1")
    services.create_event(name="Other Open", arbiter=user)
    client.force_login(user)
    return client


def _code(event, name):
    return player_codes.code_for(player_codes.live_card(event.players.get(name=name)))


def _kiosk(client, event, arbiter):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter_kiosk_unlock", args=[event.slug]))
    assert response.status_code == 302 and COOKIE in response.cookies
    client.logout()  # the test client's logout forgets every cookie; a browser's keeps this one
    client.cookies[COOKIE] = response.cookies[COOKIE].value
    return client


# --- settings and dashboard -------------------------------------------------------------------

def test_settings_take_the_checkin_fields(arbiter_client, event):
    page = arbiter_client.get(reverse("arbiter_settings", args=[event.slug]))
    assert b'name="checkin"' in page.content and b'name="player_results"' in page.content
    assert b'name="checkin_closes_at"' in page.content


def test_dashboard_panel_counts_and_names(arbiter_client, on):
    checkin.check_in(on.players.get(name="Ada"), "arbiter")
    page = arbiter_client.get(reverse("arbiter_dashboard", args=[on.slug])).content.decode()
    assert "1 of 12 checked in" in page
    assert "Ben" in page and "Mark the 11 missing players absent for round 1" in page
    assert "still open" in page and "Unlock the kiosk on this device" in page


def _main_button(page: str) -> tuple[str, list[str]]:
    """The dashboard's Next section: its action code and the text of its big buttons."""
    section = re.search(r'<section class="card" id="next" data-next="([a-z_]*)">(.*?)</section>',
                        page, re.S)
    big = re.findall(r'<button type="submit" class="big-action">([^<]*)</button>', page)
    return section.group(1), big


def test_the_main_button_follows_the_checkin(arbiter_client, on):
    """#36, item 13: at 0 of 12 checked in the main button closes the check-in, not "Pair
    round 1"; once closed it marks the missing absent; then it pairs. Pairing anyway stays one
    step away, and the panel's own buttons are secondary: one primary action at a time."""
    url = reverse("arbiter_dashboard", args=[on.slug])
    page = arbiter_client.get(url).content.decode()
    assert _main_button(page) == ("checkin_close", [
        "Close the check-in for round 1 (0 of 12 checked in)"])
    assert "Pair round 1 now anyway" in page
    assert "Pair round 1, the 12 players not checked in as if present" in page
    for p in on.players.exclude(name__in=["Kim", "Lu"]):
        checkin.check_in(p, "arbiter")
    arbiter_client.post(reverse("arbiter_checkin_open_close", args=[on.slug, "close"]))
    page = arbiter_client.get(url).content.decode()
    assert _main_button(page) == ("checkin_absent", [
        "Mark the 2 missing players absent for round 1"])
    ids = [p.pk for p in checkin.summary(on).missing]
    arbiter_client.post(reverse("arbiter_checkin_mark_absent", args=[on.slug]),
                        {"confirm": "1", "expected": ids})
    assert _main_button(arbiter_client.get(url).content.decode()) == ("pair", ["Pair round 1"])


def test_dashboard_without_checkin_has_no_panel(arbiter_client, event):
    page = arbiter_client.get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert 'id="checkin"' not in page


def test_open_and_close(arbiter_client, on):
    arbiter_client.post(reverse("arbiter_checkin_open_close", args=[on.slug, "close"]))
    on.refresh_from_db()
    assert not on.checkin_open
    arbiter_client.post(reverse("arbiter_checkin_open_close", args=[on.slug, "open"]))
    on.refresh_from_db()
    assert on.checkin_open
    assert arbiter_client.post(
        reverse("arbiter_checkin_open_close", args=[on.slug, "explode"])).status_code == 404


def test_mark_absent_asks_first_then_marks(arbiter_client, on):
    for p in on.players.exclude(name__in=["Kim", "Lu"]):
        checkin.check_in(p, "arbiter")
    url = reverse("arbiter_checkin_mark_absent", args=[on.slug])
    ask = arbiter_client.post(url)
    assert ask.status_code == 409 and "Kim" in ask.content.decode()
    assert not Absence.objects.exists()
    ids = [p.pk for p in checkin.summary(on).missing]
    done = arbiter_client.post(url, {"confirm": "1", "expected": ids})
    assert done.status_code == 302
    assert Absence.objects.filter(reason="did not check in").count() == 2
    page = arbiter_client.get(reverse("arbiter_dashboard", args=[on.slug])).content.decode()
    assert "Un-mark Kim and check them in" in page
    kim = Absence.objects.get(player__name="Kim")
    arbiter_client.post(reverse("arbiter_checkin_unmark", args=[on.slug, kim.pk]))
    assert not Absence.objects.filter(pk=kim.pk).exists()
    assert CheckIn.objects.filter(player__name="Kim").exists()


def test_mark_absent_bad_expected_is_400_and_stores_nothing(arbiter_client, on):
    url = reverse("arbiter_checkin_mark_absent", args=[on.slug])
    response = arbiter_client.post(url, {"confirm": "1", "expected": ["x" * 50]})
    assert response.status_code == 400
    assert not Absence.objects.exists()


# --- ticks ------------------------------------------------------------------------------------

def test_players_page_has_a_tick_per_player_with_a_name(arbiter_client, on):
    page = arbiter_client.get(reverse("arbiter_players", args=[on.slug])).content.decode()
    assert page.count("data-checkin-tick") == 12
    assert 'aria-label="Check in Ada"' in page and "Space or Enter" in page


def test_tick_plain_and_json(arbiter_client, on):
    ada = on.players.get(name="Ada")
    url = reverse("arbiter_checkin_tick", args=[on.slug, ada.pk])
    assert arbiter_client.post(url, {"state": "in"}).status_code == 302
    assert CheckIn.objects.filter(player=ada, via="arbiter").exists()
    data = arbiter_client.post(url, {"state": "out"}, HTTP_ACCEPT="application/json").json()
    assert data == {"ok": True, "error": None, "checked_in": False,
                    "summary": "0 of 12 checked in"}
    bad = arbiter_client.post(url, {"state": "maybe"}, HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and "Say whether" in bad.json()["error"]
    assert not CheckIn.objects.exists()


def test_tick_withdrawn_player_says_why(arbiter_client, on):
    ben = on.players.get(name="Ben")
    services.withdraw_player(ben, reason="ill")
    data = arbiter_client.post(reverse("arbiter_checkin_tick", args=[on.slug, ben.pk]),
                               {"state": "in"}, HTTP_ACCEPT="application/json")
    assert data.status_code == 400 and "withdrawn" in data.json()["error"]


@pytest.mark.parametrize("name,args,method", [
    ("arbiter_checkin_open_close", ["close"], "post"),
    ("arbiter_checkin_mark_absent", [], "post"),
    ("arbiter_kiosk_unlock", [], "post"),
    ("arbiter_kiosk_lock_all", [], "post"),
    ("arbiter_print_cards", [], "get"),
])
def test_arbiter_only(client, other_arbiter_client, on, name, args, method):
    url = reverse(name, args=[on.slug, *args])
    anonymous = getattr(client.__class__(), method)(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert getattr(other_arbiter_client, method)(url).status_code == 403


def test_tick_and_card_actions_refuse_another_events_arbiter(other_arbiter_client, on):
    ada = on.players.get(name="Ada")
    assert other_arbiter_client.post(reverse("arbiter_checkin_tick", args=[on.slug, ada.pk]),
                                     {"state": "in"}).status_code == 403
    assert other_arbiter_client.post(
        reverse("arbiter_player_card", args=[on.slug, ada.pk, "revoke"])).status_code == 403
    assert not CheckIn.objects.exists()


# --- personal page ----------------------------------------------------------------------------

def test_personal_page_shows_the_player_and_checks_in(client, on):
    code = _code(on, "Ada")
    url = reverse("player_card", args=[code])
    page = client.get(url)
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "same-origin"
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    text = page.content.decode()
    assert "Ada" in text and "Test Open" in text and ">Check in<" in text
    assert "Ben" not in text
    done = client.post(url, {"action": "checkin"}, follow=True)
    assert "You are checked in for round 1." in done.content.decode()
    assert CheckIn.objects.get().via == "card"


def test_personal_page_shows_the_board(client, played_event):
    player = played_event.players.order_by("seed").first()
    code = player_codes.code_for(player_codes.live_card(player))
    text = client.get(reverse("player_card", args=[code])).content.decode()
    assert "Round 3:" in text


def test_personal_page_closed_checkin(client, on):
    checkin.set_open(on, False)
    url = reverse("player_card", args=[_code(on, "Ada")])
    assert "closed the check-in" in client.get(url).content.decode()
    client.post(url, {"action": "checkin"})
    assert not CheckIn.objects.exists()


@pytest.mark.parametrize("code,status", [
    ("0000-0000-0000-0000", 404), ("not a code", 404), ("x" * 300, 404)])
def test_refused_codes(client, on, code, status):
    response = client.get(reverse("player_card", args=[code]))
    assert response.status_code == status
    assert response["Referrer-Policy"] == "same-origin"


def test_revoked_card_is_403_with_the_reason(client, on):
    ada = on.players.get(name="Ada")
    old = player_codes.code_for(player_codes.live_card(ada))
    checkin.reissue_card(ada)
    response = client.get(reverse("player_card", args=[old]))
    assert response.status_code == 403 and "replaced by a new one" in response.content.decode()


def test_wrong_codes_are_rate_limited(client, on):
    url = reverse("player_card", args=["0000-0000-0000-0000"])
    statuses = [client.get(url).status_code for _ in range(11)]
    assert statuses[:10] == [404] * 10 and statuses[10] == 429
    good = client.get(reverse("player_card", args=[_code(on, "Ada")]))
    assert good.status_code == 429 and "Too many wrong player codes" in good.content.decode()


def test_my_games_link(client, on):
    from django.utils import timezone

    from tournament.models import PlayerLogin

    user = get_user_model().objects.create_user("ada-player", password="pw-ada-1")
    ada = on.players.get(name="Ada")
    PlayerLogin.objects.create(player=ada, event=on, user=user, attached_at=timezone.now())
    client.force_login(user)
    assert "player_card" not in client.get(reverse("my_games")).content.decode()
    code = _code(on, "Ada")
    page = client.get(reverse("my_games")).content.decode()
    assert reverse("player_card", args=[code]) in page


# --- kiosk ------------------------------------------------------------------------------------

def test_kiosk_locked_until_unlocked(client, on, arbiter):
    url = reverse("event_kiosk", args=[on.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"q": "Ada"}).status_code == 403
    _kiosk(client, on, arbiter)
    assert client.get(url).status_code == 200


def test_kiosk_name_pick_confirm(client, on, arbiter):
    services.update_player(on.players.get(name="Ada"), name="Adélaïde")
    _kiosk(client, on, arbiter)
    url = reverse("event_kiosk", args=[on.slug])
    found = client.post(url, {"q": "ADELA"}).content.decode()
    ada = on.players.get(name="Adélaïde")
    assert f'name="pick" value="{ada.pk}"' in found
    ask = client.post(url, {"pick": ada.pk}).content.decode()
    assert "Are you" in ask and "Adélaïde" in ask
    done = client.post(url, {"player": ada.pk}).content.decode()
    assert "Checked in:" in done and "Adélaïde" in done
    assert "/card/" not in done
    assert CheckIn.objects.get().via == "kiosk"


def test_kiosk_filters_names_as_one_types_and_never_checks_in(client, on, arbiter):
    """#36, item 14: the kiosk's box sends what is typed so far and gets the matching names
    back (the list alone); a code, whole or resembling one, lists nothing and is never looked
    up, so typing checks nobody in and counts no wrong code; a locked kiosk refuses."""
    url = reverse("event_kiosk", args=[on.slug])
    assert client.post(url, {"q": "Ad", "filter": "1"}).status_code == 403
    _kiosk(client, on, arbiter)
    ada = on.players.get(name="Ada")
    part = client.post(url, {"q": "ad", "filter": "1"})
    text = part.content.decode()
    assert part.status_code == 200 and f'name="pick" value="{ada.pk}"' in text
    assert "<html" not in text and "kiosk-search" not in text
    assert "No player's name contains “zzz” yet." in client.post(
        url, {"q": "zzz", "filter": "1"}).content.decode()
    assert client.post(url, {"q": "a", "filter": "1"}).content.decode().strip() == ""
    code = _code(on, "Ben")
    for typed in (code, player_codes.grouped(code), " ".join(player_codes.grouped(code))):
        listed = client.post(url, {"q": typed, "filter": "1"})
        assert listed.status_code == 200 and "pick" not in listed.content.decode()
    assert client.post(url, {"q": "x" * 500, "filter": "1"}).status_code == 400
    assert not CheckIn.objects.exists()
    # Typing does not use up the check-ins a kiosk may make in a minute.
    for _ in range(throttle.KIOSK_ACTIONS + 5):
        client.post(url, {"q": "ad", "filter": "1"})
    assert "Checked in:" in client.post(url, {"player": ada.pk}).content.decode()


def test_kiosk_scanned_code(client, on, arbiter):
    code = _code(on, "Ben")
    _kiosk(client, on, arbiter)
    done = client.post(reverse("event_kiosk", args=[on.slug]), {"q": code})
    text = done.content.decode()
    assert done.status_code == 200 and "Checked in:" in text and "Ben" in text
    assert code not in text and player_codes.grouped(code) not in text


def test_kiosk_refuses_another_events_card(client, on, arbiter):
    other = services.create_event(name="Winter Cup")
    zed = services.add_player(other, name="Zed")
    code = player_codes.code_for(player_codes.live_card(zed))
    _kiosk(client, on, arbiter)
    response = client.post(reverse("event_kiosk", args=[on.slug]), {"q": code})
    assert response.status_code == 403 and "another event (Winter Cup)" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_lock_all_kiosks(client, on, arbiter):
    _kiosk(client, on, arbiter)
    url = reverse("event_kiosk", args=[on.slug])
    assert client.get(url).status_code == 200
    checkin.lock_kiosks(on)
    assert client.get(url).status_code == 403


def test_kiosk_closed_checkin(client, on, arbiter):
    _kiosk(client, on, arbiter)
    checkin.set_open(on, False)
    response = client.post(reverse("event_kiosk", args=[on.slug]),
                           {"player": on.players.get(name="Ada").pk})
    assert response.status_code == 409 and "see the arbiter" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_kiosk_bad_input(client, on, arbiter):
    _kiosk(client, on, arbiter)
    url = reverse("event_kiosk", args=[on.slug])
    assert client.post(url, {"player": "abc"}).status_code == 400
    assert client.post(url, {"pick": "9" * 30}).status_code == 400
    assert client.post(url, {"player": "999999"}).status_code == 404
    assert client.post(url, {"q": "x" * 500}).status_code == 400
    assert client.post(url, {"q": "zzzz"}).status_code == 200
    assert not CheckIn.objects.exists()


# --- cards ------------------------------------------------------------------------------------

def test_cards_pdf_names_codes_and_qr(arbiter_client, on, tmp_path):
    response = arbiter_client.get(reverse("arbiter_print_cards", args=[on.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    pages = pdf_pages(response.content)
    assert len(pages) == 2  # 12 players, 8 to a page
    text = " ".join(pages)
    codes = {p.name: player_codes.code_for(p.cards.get()) for p in on.players.all()}
    for name, code in codes.items():
        assert name in text and player_codes.grouped(code) in text
    found = decode_qr(response.content, 1, tmp_path, expect=8)
    expected = {"http://testserver" + reverse("player_card", args=[c]) for c in codes.values()}
    assert len(found) == 8 and set(found) <= expected
    again = arbiter_client.get(reverse("arbiter_print_cards", args=[on.slug]))
    assert pdf_pages(again.content) == pages  # printing again prints the same cards
    assert PlayerCard.objects.count() == 12  # one each, given when the player was entered


def test_one_players_card_and_reissue(arbiter_client, on):
    ada = on.players.get(name="Ada")
    url = reverse("arbiter_print_cards", args=[on.slug]) + f"?player={ada.pk}"
    text = " ".join(pdf_pages(arbiter_client.get(url).content))
    assert "Ada" in text and "Ben" not in text
    first = ada.cards.get()
    edit = arbiter_client.get(reverse("arbiter_player_edit", args=[on.slug, ada.pk]))
    assert "Reissue card" in edit.content.decode() and "Revoke card" in edit.content.decode()
    arbiter_client.post(reverse("arbiter_player_card", args=[on.slug, ada.pk, "reissue"]))
    first.refresh_from_db()
    assert first.revoked_at is not None and ada.cards.filter(revoked_at__isnull=True).count() == 1
    arbiter_client.post(reverse("arbiter_player_card", args=[on.slug, ada.pk, "revoke"]))
    assert not ada.cards.filter(revoked_at__isnull=True).exists()
    refused = arbiter_client.get(url)
    assert refused.status_code == 404 and "revoked" in refused.content.decode()
    assert arbiter_client.post(
        reverse("arbiter_player_card", args=[on.slug, ada.pk, "burn"])).status_code == 404
    assert arbiter_client.get(reverse("arbiter_print_cards", args=[on.slug])
                              + "?player=abc").status_code == 400


def test_cards_pdf_in_print_language(arbiter_client, on):
    Event.objects.filter(pk=on.pk).update(print_language="de")
    text = " ".join(pdf_pages(arbiter_client.get(
        reverse("arbiter_print_cards", args=[on.slug])).content))
    assert "Ada" in text


def test_history_sentences_on_the_settings_page(arbiter_client, on, arbiter):
    ada = on.players.get(name="Ada")
    checkin.reissue_card(ada, user=arbiter)
    checkin.revoke_card(ada, user=arbiter)
    checkin.check_in(ada, "arbiter")
    checkin.mark_missing_absent(on, user=arbiter)
    page = arbiter_client.get(reverse("arbiter_settings", args=[on.slug])).content.decode()
    assert "Ada&#x27;s player card reissued (the old one no longer works)." in page
    assert "Ada&#x27;s player card revoked." in page
    assert "Round 1: marked absent for not checking in: Ben, Cy," in page


def test_settings_save_checkin(arbiter_client, event):
    from tests.web.languages.test_translated_refusals import _settings_data

    url, data = _settings_data(arbiter_client, event, checkin="every_round",
                               checkin_closes_at="2026-12-05T09:30", player_results="always")
    arbiter_client.post(url, data)
    event.refresh_from_db()
    assert event.checkin == "every_round" and event.player_results == "always"
    assert event.checkin_closes_at is not None
    url, data = _settings_data(arbiter_client, event, checkin="sometimes")
    page = arbiter_client.post(url, data)
    assert page.status_code == 200 and "sometimes" in page.content.decode()
    event.refresh_from_db()
    assert event.checkin == "every_round"


def test_pairing_from_the_dashboard_with_checkin_open_warns(arbiter_client, on):
    checkin.check_in(on.players.get(name="Ada"), "arbiter")
    page = arbiter_client.post(reverse("arbiter_round_pair", args=[on.slug]), follow=True)
    text = page.content.decode()
    assert "Paired with the check-in open: 11 players had not checked in" in text
    assert on.rounds.count() == 1


def test_personal_page_says_absent(client, on):
    from tournament.models import Round

    checkin.check_in(on.players.get(name="Ada"), "arbiter")
    checkin.mark_missing_absent(on)
    services.pair_next_round(on)
    services.publish_round(Round.objects.get(event=on, number=1))
    text = client.get(reverse("player_card", args=[_code(on, "Ben")])).content.decode()
    assert "Round 1: absent" in text


def test_cards_through_the_print_registry_and_the_command(client, other_arbiter_client, on,
                                                          tmp_path):
    from django.core.management import call_command

    url = reverse("print_document", args=[on.slug, "cards"])
    assert client.__class__().get(url).status_code == 302  # anonymous: log in first
    assert other_arbiter_client.get(url).status_code == 403
    out = tmp_path / "cards.pdf"
    call_command("export_pdf", on.slug, "cards", "-o", str(out))
    text = " ".join(pdf_pages(out.read_bytes()))
    ada = on.players.get(name="Ada")
    assert "Ada" in text and player_codes.grouped(player_codes.code_for(ada.cards.get())) in text
