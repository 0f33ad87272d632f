"""The board clock in a real Chromium: press, see the other side run, see the hall follow.

A daphne subprocess serves the test database (a file for SQLite, see tests/settings.py), so the
pages, the sockets and the services run exactly as at a venue. Works on both CI passes: with
the in-memory channel layer the single server process is the whole deployment.
"""

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from bench.events import create_clock_event
from bench.servers import AsgiServer
from clocks import services
from tests.clocks.servers import wait_for_other_sessions_to_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 30_000  # generous: CI shares two cores with the whole suite


@pytest.fixture
def server():
    server = AsgiServer()
    try:
        yield server.wait_listening()
    finally:
        print(f"server log:\n{server.log_tail()}")  # captured: shown when the test failed
        server.stop()
        wait_for_other_sessions_to_end()


@pytest.fixture
def browser(monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code (Django documents this switch for such cases).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
            # ORM calls made while Playwright runs get their own connection (its greenlets
            # carry their own context); close it, or PostgreSQL cannot drop the test database.
            connections.close_all()


@pytest.fixture
def arbiter(transactional_db):
    return get_user_model().objects.create_user("browserarbiter", password="pw-browser-1")


def act_until(page, action, expected: str, attempts: int = 3) -> int:
    """Do ``action`` on a connected page until ``expected`` shows; returns the attempts used.

    A socket that drops under a click loses the click (the page sends nothing while it
    reconnects), so the action is repeated once the page is connected again. Repeating is
    harmless: a press carries the press number the page saw, so a second copy is ignored.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(1, attempts + 1):
        page.wait_for_selector('[data-state="connected"]')
        action()
        try:
            page.wait_for_selector(expected, timeout=TIMEOUT_MS // attempts)
            return attempt
        except PlaywrightTimeout:
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")


def session_cookie(user, server) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value,
            "url": server.url}


def open_hall(browser, server, arbiter, round_):
    """The round's hall of clocks in the arbiter's own browser context, connected."""
    context = browser.new_context()
    context.add_cookies([session_cookie(arbiter, server)])
    hall = context.new_page()
    hall.set_default_timeout(TIMEOUT_MS)
    hall.goto(f"{server.url}/e/{round_.event.slug}/clocks/{round_.number}/")
    hall.wait_for_selector('#hall-connection[data-state="connected"]')
    return context, hall


def test_press_on_the_board_page_shows_everywhere(server, browser, arbiter):
    round_ = create_clock_event(2, arbiter=arbiter, slug="browser-open")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    board = round_.boards.get(number=1)

    players = browser.new_page(viewport={"width": 420, "height": 800})
    players.set_default_timeout(TIMEOUT_MS)
    players.goto(f"{server.url}/b/{board.token}/")
    players.wait_for_selector('#clock-connection[data-state="connected"]')
    assert "Player 0001" in players.inner_text(".side-A .name")
    players.wait_for_selector(".side-A.running")

    _context, hall = open_hall(browser, server, arbiter, round_)
    row = f'tr[data-board="{board.pk}"]'
    hall.wait_for_selector(f'{row} [data-time="A"].running')

    spectator = browser.new_page()
    spectator.set_default_timeout(TIMEOUT_MS)
    spectator.goto(f"{server.url}/e/{round_.event.slug}/clocks/1/1/")
    spectator.wait_for_selector('#clock-connection[data-state="connected"]')
    assert spectator.is_disabled(".side-A")

    if act_until(players, lambda: players.click(".side-A"), ".side-B.running") == 1:
        assert not players.is_visible("#clock-message")  # no "ignored" note for a good press
    spectator.wait_for_selector(".side-B.running")  # the server's snapshot, not a guess
    hall.wait_for_selector(f'{row} [data-time="B"].running')

    # the running side's press from the keyboard
    act_until(players, lambda: players.keyboard.press("Space"), ".side-A.running")
    spectator.wait_for_selector(".side-A.running")
    hall.wait_for_selector(f'{row} [data-time="A"].running')
    assert [(p.number, p.side.value) for p in services.presses(board)] == [(1, "A"), (2, "B")]

    act_until(hall, lambda: hall.click(f'{row} [data-command="pause"]'),
              f'{row} [data-time="A"]:not(.running)')
    players.wait_for_selector('#clock[data-status="paused"]')
    assert "Paused" in players.inner_text("#clock-status")


def test_an_invalid_board_link_shows_the_reason(server, browser):
    page = browser.new_page()
    response = page.goto(f"{server.url}/b/this-token-does-not-exist/")
    assert response.status == 403
    assert "not valid" in page.inner_text("main")
