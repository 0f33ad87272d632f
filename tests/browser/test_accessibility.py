"""axe's WCAG 2.1 AA rules on what a page load does not show: an online seat in each of its
states, and the pages of a self-running event before its first round, at five sizes.

Every page as it loads is audited at phone and laptop width by ``test_every_page``.
"""

from __future__ import annotations

import datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from tests.browser.demo_site import online_game
from tests.browser.live import TIMEOUT_MS, session_cookie
from tests.browser.page_checks import axe_problems, check, pages_at
from tournament import services
from tournament.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.long_story  # the same pages on either database
def test_the_seat_page_passes_wcag_21_aa_in_every_state(arbiter, server, browser):
    """The states a page load does not show, at 360x740: the options open, a tile previewed
    with Confirm and Cancel, feedback over the board, the opponent not yet there, the end
    screen."""
    _cup, game = online_game(arbiter, "Seat States", "seat-states")
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/p/{game.token_a}/")
    page.wait_for_selector('#online-connection[data-state="connected"]')
    page.wait_for_selector("#claim:not([hidden])")  # Ben has not opened the game
    page.click("#options-btn")
    page.click('#rack .tile[data-index="0"]')
    for _cell in range(2):  # two cells the page marks as where the tile can go
        page.click("#online-board g.reach >> nth=0")
    page.wait_for_selector('#online[data-preview="1"]')
    page.click('#online-board g[data-cell="f1"]')  # a start symbol: the feedback shows
    page.wait_for_selector("#online-message:not([hidden])")
    axe, failures = Axe(), []
    for state in ("options, preview, feedback, claim", "end screen"):
        failures += [f"{state}: {problem}" for problem in axe_problems(axe, page)]
        if state != "end screen":
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#resign-btn")
            page.wait_for_selector("#online-end")
    context.close()
    assert not failures, "\n".join(failures)


#: The sizes a self-running event's pages are read at: a phone upright and sideways, a small
#: phone (also in Russian, whose words run longest), and a laptop.
RUNS_ITSELF_SIZES = {"phone": ((390, 844), "en"), "phone in landscape": ((844, 390), "en"),
                     "small phone": ((360, 740), "en"), "small phone, Russian": ((360, 740), "ru"),
                     "desktop": ((1366, 768), "en")}


@pytest.mark.long_story  # the same templates on either database
def test_runs_itself_pages_pass_wcag_21_aa_and_fit_a_phone_either_way(
    arbiter, server, browser
):
    """The pages of issue #39 before round 1: the event's page with its Register link and the
    registration form (a stranger), the Runs itself page with a registration waiting (the
    arbiter), My games counting down with its absence button (a registered player). At each
    size: no sideways scroll, nothing cut off; at phone and desktop width, axe's WCAG 2.1 AA."""
    from autopilot import services as autopilot

    cup = services.create_event(name="Weekend Online Open of the Northern Clubs", slug="auto-a11y",
                                arbiter=arbiter, pairing_system=Event.PairingSystem.SWISS,
                                rounds_planned=7)
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=2)
    autopilot.configure(cup, {"first_round_at": start, "approval": True,
                              "registration_closes_at": start - datetime.timedelta(minutes=5),
                              "late_until_round": 3}, user=arbiter)
    users = get_user_model().objects
    waiting = autopilot.register(cup, users.create_user("waits", password="pw-wait-39"),
                                 name="Maximiliane Hohenzollern-Sigmaringen",
                                 club="Schachfreunde Rheinhausen-Oberhausen 1921")
    autopilot.decide(autopilot.register(cup, users.create_user("ada", password="pw-ada-39"),
                                        name="Ada Lovelace"), accept=True, user=arbiter)
    assert waiting.status == waiting.Status.WAITING
    public = {"event page": f"/e/{cup.slug}/", "register": f"/e/{cup.slug}/register/"}
    desk = {"runs itself": f"/e/{cup.slug}/arbiter/runs-itself/",
            "dashboard": f"/e/{cup.slug}/arbiter/"}
    mine = {"my games": "/my-games/"}
    visits = [(None, public), (session_cookie(arbiter, server), desk),
              (session_cookie(users.get(username="ada"), server), mine)]
    axe, failures = Axe(), []
    for where, label, url, page in pages_at(browser, server, visits, RUNS_ITSELF_SIZES):
        failures += [f"{where}: {problem}" for problem in check(page, url)]
        if where.startswith(("phone 390", "desktop")):
            failures += [f"{where}: {problem}" for problem in axe_problems(axe, page)]
        if label == "my games":
            assert page.locator(".next-round .countdown").inner_text()
            assert page.locator(".ask-absence").count() == 1
        if "Russian" in where and label == "register":
            assert "Записаться" in page.inner_text("main")
    assert not failures, "\n".join(failures)
