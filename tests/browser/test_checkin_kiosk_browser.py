"""Check-in in a real Chromium at phone width (390 px): the kiosk (names filtered as one types,
pick, confirm; a scanned card; back to the empty search by itself), the personal page (and its
language switch), the arbiter's ticks by keyboard; axe-core's WCAG 2.1 AA rules on each page."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.live import TIMEOUT_MS, session_cookie
from tests.browser.page_checks import OVERFLOW_JS, WCAG_21_AA
from tournament import services
from tournament.boards import player_codes
from tournament.models import CheckIn, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def event(arbiter):
    event = services.create_event(name="Kiosk Open", arbiter=arbiter, slug="kiosk-open")
    for name in ("Adélaïde Roux", "Ben Okafor", "Cy Young", "Dora Lind"):
        services.add_player(event, name=name)
    Event.objects.filter(pk=event.pk).update(checkin=Event.CheckIn.ONCE)
    event.refresh_from_db()
    return event


def _axe(page) -> list[str]:
    results = Axe().run(page, options=WCAG_21_AA)
    return [f"{rule['id']}: {', '.join(' '.join(n['target']) for n in rule['nodes'])}"
            for rule in results.response["violations"]]


def _fits(page) -> None:
    found = page.evaluate(OVERFLOW_JS)
    assert found["page"] <= found["viewport"] + 1, found


def unlocked_kiosk(browser, server, arbiter, slug: str, viewport: dict):
    """A device at the door: the arbiter logs in on it, presses "Unlock the kiosk on this
    device" on the dashboard and leaves (the session goes, the device stays a kiosk)."""
    context = browser.new_context(viewport=viewport)
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/e/{slug}/arbiter/")
    page.get_by_role("button", name="Unlock the kiosk on this device").click()
    page.wait_for_url(f"**/e/{slug}/kiosk/")
    kept = [c for c in context.cookies() if c["name"] != "sessionid"]
    context.clear_cookies()
    context.add_cookies(kept)
    page.goto(f"{server.url}/e/{slug}/kiosk/")
    return page


@pytest.mark.long_story  # the kiosk's layout and keys: the same on either database
def test_kiosk_at_phone_width(server, browser, arbiter, event):
    page = unlocked_kiosk(browser, server, arbiter, event.slug, PHONE)
    problems = _axe(page)
    _fits(page)
    # the names filter as one types (#36, item 14): no Enter needed
    page.get_by_label("Your name, or scan your player card").press_sequentially("ro")
    expect(page.get_by_role("button", name="Adélaïde Roux")).to_be_visible()
    expect(page.locator(".kiosk-name")).to_have_count(1)
    page.get_by_label("Your name, or scan your player card").press_sequentially("x")
    expect(page.locator("#kiosk-results")).to_contain_text("No player's name contains “rox”")
    page.get_by_label("Your name, or scan your player card").press("Backspace")
    page.get_by_role("button", name="Adélaïde Roux").click()
    problems += _axe(page)
    page.get_by_role("button", name="Yes, check me in").click()
    done = page.locator(".kiosk-done")
    assert "Checked in: Adélaïde Roux" in done.inner_text()
    problems += _axe(page)
    _fits(page)
    assert "/card/" not in page.content()
    # back to the empty search by itself
    page.wait_for_selector("#kiosk-q", timeout=15_000)
    assert page.locator("#kiosk-q").input_value() == ""
    # a barcode scanner reads the card's QR code: it types the card's address and Enter
    code = player_codes.code_for(player_codes.live_card(event.players.get(name="Ben Okafor")))
    page.locator("#kiosk-q").type(f"{server.url}/card/{code}/")
    page.keyboard.press("Enter")
    assert "Checked in: Ben Okafor" in page.locator(".kiosk-done").inner_text()
    assert code not in page.content()
    assert sorted(CheckIn.objects.values_list("player__name", "via")) == [
        ("Adélaïde Roux", "kiosk"), ("Ben Okafor", "kiosk")]
    page.context.close()
    assert not problems, problems


@pytest.mark.long_story  # the kiosk's layout and keys: the same on either database
def test_personal_page_at_phone_width(server, browser, event):
    code = player_codes.code_for(player_codes.live_card(event.players.get(name="Cy Young")))
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    response = page.goto(f"{server.url}/card/{code}/")
    assert response.headers["referrer-policy"] == "same-origin"
    assert "no-store" in response.headers["cache-control"]
    problems = _axe(page)
    _fits(page)
    page.get_by_role("button", name="Check in").click()
    page.wait_for_selector(".checked-in")
    assert "You are checked in for round 1." in page.locator(".checked-in").inner_text()
    problems += _axe(page)
    _fits(page)
    # the footer's language switch (issue #35: a bare CSRF 403 under no-referrer)
    page.select_option("#lang-select", "sv")
    page.get_by_role("button", name="Go").click()
    page.wait_for_selector('html[lang="sv"]')
    assert page.url == f"{server.url}/card/{code}/"
    context.close()
    assert CheckIn.objects.get().via == "card"
    assert not problems, problems


@pytest.mark.long_story  # the kiosk's layout and keys: the same on either database
def test_ticks_by_keyboard_in_place(server, browser, arbiter, event):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/e/{event.slug}/arbiter/players/")
    first = page.get_by_role("button", name="Check in Adélaïde Roux")
    first.focus()
    page.keyboard.press("Space")
    page.wait_for_selector('button[aria-pressed="true"]')
    assert page.locator("[data-checkin-summary]").inner_text() == "1 of 4 checked in"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator('button[aria-pressed="true"]')).to_have_count(2)
    assert page.url.endswith("/arbiter/players/")  # toggled in place, no reload
    problems = _axe(page)
    page.goto(f"{server.url}/e/{event.slug}/arbiter/")
    assert "2 of 4 checked in" in page.locator("#checkin").inner_text()
    problems += _axe(page)
    context.close()
    assert sorted(CheckIn.objects.values_list("player__name", flat=True)) == [
        "Adélaïde Roux", "Ben Okafor"]
    assert not problems, problems
