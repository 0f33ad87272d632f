"""A live server and a real Chromium for the browser tests: their fixtures (``server``,
``browser``, ``arbiter``, made available by ``tests/browser/conftest.py``) and the calls most of
them make (an arbiter's session cookie, the round's hall opened).

A daphne subprocess serves the test database (a file for SQLite, see tests/settings.py), so the
pages, the sockets and the services run exactly as at a venue. Works on both CI passes: with
the in-memory channel layer the single server process is the whole deployment.
"""

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from bench.servers import AsgiServer
from tests.clocks.servers import wait_for_other_sessions_to_end

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


def session_cookie(user, server) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value,
            "url": server.url}


def open_hall(browser, server, arbiter, round_, **options):
    """The round's hall of clocks in the arbiter's own browser context (``options``: the
    context's, its viewport say), connected."""
    context = browser.new_context(**options)
    context.add_cookies([session_cookie(arbiter, server)])
    hall = context.new_page()
    hall.set_default_timeout(TIMEOUT_MS)
    hall.goto(f"{server.url}/e/{round_.event.slug}/clocks/{round_.number}/")
    hall.wait_for_selector('#hall-connection[data-state="connected"]')
    return context, hall
