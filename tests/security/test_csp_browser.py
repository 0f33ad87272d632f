"""Issue #21: Chromium reports no Content-Security-Policy violation on the site's pages.

The same pages as the layout test (every public page, every arbiter page, My games, an
invitation) plus an online game's seat and spectator pages, the guide and the admin's login:
each is opened with the policy enforced, its scripts run (the clock pages wait for their
socket, which ``connect-src 'self'`` must let through), and every console message the browser
gives for a refused script, style or connection is collected.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from bench.events import create_clock_event
from games.online import play as online
from tests.accounts import make_organiser
from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    server,
    session_cookie,
)
from tests.browser.test_layout import CLOCK_CONNECTED, arbiter_paths, build_event, public_paths
from tournament.services import logins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(arbiter):  # noqa: F811
    """Everything made before the browser starts (see ``test_layout.event``)."""
    make_organiser(arbiter)
    event = build_event(arbiter)
    first, second = event.players.order_by("pk")[:2]
    player = get_user_model().objects.create_user("csp-player", password="pw-csp-player-1")
    logins.accept_invitation(logins.invite(first).secret, player)
    round_ = create_clock_event(1, arbiter=arbiter, slug="csp-online")
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who=arbiter.username, user=arbiter)
    public = {**public_paths(event), "invitation": f"/invitations/{logins.invite(second).secret}/",
              "seat": f"/p/{game.token_a}/", "online spectator": "/e/csp-online/online/1/1/",
              "guide": "/guide/", "admin login": "/admin/login/"}
    return event, player, public


def _violations(page, url: str) -> list[str]:
    """What the browser said it refused while ``page`` (fresh, closed after) opened ``url``."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text)
            if "Content Security Policy" in message.text else None)
    response = page.goto(url)
    assert response.status == 200, url
    assert "script-src 'self'" in response.headers["content-security-policy"]
    if page.locator(".connection").count():
        page.wait_for_selector(CLOCK_CONNECTED)
    page.wait_for_load_state("networkidle")
    return messages


@pytest.mark.long_story  # the same templates on either database; the CSP header is the same
def test_no_page_breaks_the_policy(site, arbiter, server, browser):  # noqa: F811
    event, player, public = site
    failures = []
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    heard = context.new_page()  # the listener hears a refusal: an inline script, added late
    _violations(heard, server.url + "/")
    with heard.expect_console_message(lambda m: "Content Security Policy" in m.text):
        heard.evaluate("document.body.appendChild(document.createElement('script'))"
                       ".textContent = 'document.title = 1'")
    assert heard.title() != "1"
    heard.close()
    for label, path in public.items():
        page = context.new_page()
        failures += [f"{label} ({path}): {text}" for text in _violations(page, server.url + path)]
        page.close()
    context.add_cookies([session_cookie(arbiter, server)])
    for label, path in arbiter_paths(event).items():
        page = context.new_page()
        failures += [f"{label} ({path}): {text}" for text in _violations(page, server.url + path)]
        page.close()
    # the handlers moved out of the markup still work: the result entry's choice of board
    page = context.new_page()
    page.goto(server.url + arbiter_paths(event)["result entry"])
    other = page.locator("#board-select option:not([selected])").first.get_attribute("value")
    page.select_option("#board-select", other)
    page.wait_for_url(f"**?board={other}")
    page.close()
    context.clear_cookies()
    context.add_cookies([session_cookie(player, server)])
    page = context.new_page()
    failures += [f"my games: {text}" for text in _violations(page, server.url + "/my-games/")]
    context.close()
    assert not failures, "\n".join(failures)
