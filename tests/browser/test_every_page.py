"""Every page in Chromium, once per width, with every check a page owes at that width.

The pages: every public page of a demo-like event (four rounds played with records, round five's
clocks running, a long name and club), an invitation, a board's record submission, an online
game's two seats and its spectator; every arbiter page, the guide, the arbiter's record entry,
the online round and its slips; a player's My games; the admin's login. Each is opened once at
each width and checked there (``page_checks`` says what the layout and axe checks hold):

- phone, 390x844: the layout; axe's WCAG 2.1 A and AA rules; on the standings, a player's page
  and the pairings, the columns a player looks for in view without scrolling the table, and the
  scroll hint shown exactly when the table scrolls (and gone once it is scrolled to its end);
  on the standings, a shared place ("12–13") stays whole in the narrow rank column;
- tablet, 820x1180: the layout;
- laptop, 1366x768: the layout, with nothing cut off; axe; and the Content-Security-Policy,
  enforced: while the page loaded, ran its scripts (a clock page's socket connected, which
  ``connect-src 'self'`` must let through) and was checked, Chromium reported no refused
  script, style or connection (axe's own script is evaluated from outside, not by the page).

The admin's login is Django's own page: only the policy is checked there. Every problem is
collected and reported together, each with its width, page and path, so that one run shows all
that is left to fix.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from tests.accounts import make_organiser
from tests.browser.demo_site import arbiter_paths, build_event, online_game, public_paths
from tests.browser.live import TIMEOUT_MS, session_cookie
from tests.browser.page_checks import (
    LAPTOP_WIDTH,
    axe_problems,
    layout_problems,
    open_settled,
    pages_at,
)
from tournament.models import Board
from tournament.services import logins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": ((390, 844), "en"), "tablet": ((820, 1180), "en"),
         "laptop": ((LAPTOP_WIDTH, 768), "en")}
PHONE_WIDTH = SIZES["phone"][0][0]
AXE_WIDTHS = {PHONE_WIDTH, LAPTOP_WIDTH}
POLICY_ONLY = {"admin login"}
REFUSED = "Content Security Policy"

#: The columns a player looks for on a phone, by page: header texts that must be in view
#: without scrolling the table (the standings' tiebreaks, a player's VP and total).
PHONE_COLUMNS = {
    "standings": ("VP", "H2H", "Diff", "Level"),
    "player": ("Round", "Board", "Opponent", "Plays", "VP", "Total"),
    "pairings": ("Plays first", "VP", "Plays second"),
}

HEADERS_IN_VIEW_JS = """(wanted) => {
  const headers = [...document.querySelectorAll('table.data thead th')];
  const width = window.innerWidth;
  return wanted.map(text => {
    const th = headers.find(h => h.textContent.trim() === text);
    if (!th) return text + ': no such column';
    const box = th.getBoundingClientRect();
    return box.right <= width + 1 && box.width > 0 ? '' : text + ': out of view at ' + box.right;
  }).filter(Boolean);
}"""

#: A shared place as ``StandingsTable.render_place`` writes it, put in every rank cell: the
#: cells where it does not fit whole (it should break after the dash, not show as "1…").
SHARED_PLACES_CUT_JS = """() => [...document.querySelectorAll('table.standings tbody tr')]
    .map(tr => tr.cells[0]).map(td => { td.innerHTML = '112–<wbr>113'; return td; })
    .filter(td => td.scrollWidth > td.clientWidth + 1).length"""


@pytest.fixture
def site(arbiter):
    """The pages by who opens them, all made before the browser starts (see ``demo_site``).
    The arbiter may also create events, so that the new-event and import pages open too."""
    make_organiser(arbiter)
    event = build_event(arbiter)
    first, second = event.players.order_by("pk")[:2]
    account = get_user_model().objects.create_user("sweep-player", password="pw-sweep-player-1")
    logins.accept_invitation(logins.invite(first).secret, account)
    cup, game = online_game(arbiter, "Online Access", "online-access")
    board = Board.objects.get(round__event=event, round__number=5, number=1)
    public = {**public_paths(event), "invitation": f"/invitations/{logins.invite(second).secret}/",
              "record submission": f"/b/{board.token}/record/",
              "seat A": f"/p/{game.token_a}/", "seat B": f"/p/{game.token_b}/",
              "online spectator": f"/e/{cup.slug}/online/1/1/", "admin login": "/admin/login/"}
    desk = {**arbiter_paths(event), "guide": "/guide/",
            "record by the arbiter": f"/e/{event.slug}/arbiter/boards/{board.pk}/record/",
            "online round": f"/e/{cup.slug}/arbiter/online/1/",
            "online slips": f"/e/{cup.slug}/arbiter/online/1/slips/"}
    return event, account, public, desk


def phone_columns(page, wanted) -> list[str]:
    """The columns ``wanted`` in view; the scroll hint shown exactly when the table scrolls,
    and gone once it is scrolled to its end, the table staying where it was (under the
    finger that scrolled it)."""
    problems = page.evaluate(HEADERS_IN_VIEW_JS, list(wanted))
    wrap = page.locator(".table-wrap").first
    overflowing = wrap.evaluate("w => w.scrollWidth > w.clientWidth + 2")
    hint = page.locator(".scroll-hint").first
    if overflowing != hint.is_visible():
        problems.append(f"table scrolls {overflowing}, hint shown {not overflowing}")
    if overflowing:
        top = wrap.bounding_box()["y"]
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
        page.wait_for_selector(".scroll-hint.at-end", state="attached")
        if hint.is_visible():
            problems.append("the hint still shows with the table scrolled to its end")
        if wrap.bounding_box()["y"] != top:
            problems.append(f"the table moved from {top} to {wrap.bounding_box()['y']} px "
                            "when scrolled to its end")
    return problems


def policy_is_heard(browser, server) -> None:
    """What the sweep relies on: the server sends the policy, and Chromium says so on the
    console when it refuses something (here an inline script added late)."""
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    response = page.goto(server.url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    with page.expect_console_message(lambda message: REFUSED in message.text):
        page.evaluate("document.body.appendChild(document.createElement('script'))"
                      ".textContent = 'document.title = 1'")
    assert page.title() != "1"
    page.close()


def problems_on(page, url: str, label: str, axe: Axe, refused: list[str]) -> list[str]:
    """Open ``url`` and check what the page owes at its width (see the module's docstring).
    ``refused`` is filled by the page's console listener."""
    width = page.viewport_size["width"]
    refused.clear()
    problems = open_settled(page, url)
    if problems:
        return problems
    if label not in POLICY_ONLY:
        if width in AXE_WIDTHS:
            problems += axe_problems(axe, page)
        if width == PHONE_WIDTH and label in PHONE_COLUMNS:  # before the layout scrolls tables
            problems += phone_columns(page, PHONE_COLUMNS[label])
        problems += layout_problems(page)
        if width == PHONE_WIDTH and label == "standings" and page.evaluate(SHARED_PLACES_CUT_JS):
            problems.append("shared places cut in the rank column")
    if width == LAPTOP_WIDTH:  # what the page's scripts did meanwhile (axe runs outside it)
        page.wait_for_load_state("load")
        problems += [f"refused by the policy: {text}" for text in refused]
    return problems


@pytest.mark.long_story  # the same templates on either database; the policy is the same
def test_every_page_fits_passes_wcag_21_aa_and_keeps_the_policy_at_each_width(
    site, arbiter, server, browser
):
    event, account, public, desk = site
    policy_is_heard(browser, server)
    visits = [(None, public), (session_cookie(arbiter, server), desk),
              (session_cookie(account, server), {"my games": "/my-games/"})]
    axe, refused, failures, listening = Axe(), [], [], None
    for where, label, url, page in pages_at(browser, server, visits, SIZES):
        if page is not listening:  # each width's page
            page.on("console", lambda message: refused.append(message.text)
                    if REFUSED in message.text else None)
            listening = page
        failures += [f"{where}: {problem}"
                     for problem in problems_on(page, url, label, axe, refused)]
        if label == "my games":
            assert page.locator(".my-seat").count() == 1  # the player's page, not the login
    # the handlers moved out of the markup still work: the result entry's choice of board
    context = browser.new_context()
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + arbiter_paths(event)["result entry"])
    other = page.locator("#board-select option:not([selected])").first.get_attribute("value")
    page.select_option("#board-select", other)
    page.wait_for_url(f"**?board={other}")
    context.close()
    assert not failures, "\n".join(failures)
