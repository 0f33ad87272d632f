"""Every page passes axe-core's WCAG 2.1 A and AA rules at phone and desktop width (#23 item 17).

The pages are those of the layout test's demo-like event (a round of running clocks, four played
rounds with records), visited anonymously, as the arbiter, and as a player (My games) and an
invitee, at 390 px and 1366 px; an online game's seats, spectator and arbiter pages as well.
Every violation is collected and reported with its rule, page and the selector of each
offending node, so that one run shows all that is left to fix.
"""

from __future__ import annotations

import datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from games.online import play as online
from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    server,
    session_cookie,
)
from tests.browser.test_layout import (  # noqa: F401  (fixtures)
    CLOCK_CONNECTED,
    arbiter_paths,
    event,
    player,
    public_paths,
)
from tournament import services
from tournament.models import Board, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desktop": (1366, 768)}
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def violations(axe: Axe, page, url: str) -> list[str]:
    """Open ``url``, let its live parts settle, and list axe's violations on it."""
    response = page.goto(url)
    if response.status != 200:
        return [f"answered {response.status}"]
    if page.locator(".connection").count():
        page.wait_for_selector(CLOCK_CONNECTED)
    return axe_problems(axe, page)


def axe_problems(axe: Axe, page) -> list[str]:
    """axe's WCAG 2.1 AA violations on the page as it stands, with each node's selector."""
    results = axe.run(page, options=WCAG_21_AA)
    return [f"{rule['id']}: {', '.join(' '.join(node['target']) for node in rule['nodes'])}"
            for rule in results.response["violations"]]


def pages_at(browser, server, visits, sizes):  # noqa: F811
    """Each page of ``visits`` (pairs of a session cookie or None and {label: path}) at each
    of ``sizes`` ({name: ((width, height), language)}), in a browser of that size and
    language holding the visit's cookie: (where, label, url, page), for the caller to open."""
    for size_name, ((width, height), language) in sizes.items():
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale=language)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for cookie, paths in visits:
            context.clear_cookies()
            if cookie:
                context.add_cookies([cookie])
            for label, path in paths.items():
                yield f"{size_name} {width}x{height}, {label} ({path})", label, \
                    server.url + path, page
        context.close()


def audit(browser, server, visits) -> list[str]:  # noqa: F811
    """Every page of ``visits`` at both widths: the violations found, each prefixed with its
    width and page."""
    axe = Axe()
    sizes = {name: (size, "en") for name, size in WIDTHS.items()}
    return [f"{where}: {problem}" for where, _label, url, page
            in pages_at(browser, server, visits, sizes)
            for problem in violations(axe, page, url)]


@pytest.mark.long_story  # the same templates on either database (the online pages still run)
def test_every_page_passes_wcag_21_aa_at_phone_and_desktop_width(
    event, arbiter, player, server, browser  # noqa: F811
):
    account, invitation = player
    board = Board.objects.get(round__event=event, round__number=5, number=1)
    public = {**public_paths(event), "invitation": f"/invitations/{invitation}/",
              "record submission": f"/b/{board.token}/record/"}
    desk = {**arbiter_paths(event), "guide": "/guide/",
            "record by the arbiter": f"/e/{event.slug}/arbiter/boards/{board.pk}/record/"}
    visits = [(None, public), (session_cookie(arbiter, server), desk),
              (session_cookie(account, server), {"my games": "/my-games/"})]
    failures = audit(browser, server, visits)
    assert not failures, "\n".join(failures)


def _online_game(arbiter, name: str, slug: str):  # noqa: F811
    """A two-player event whose one round is online, published, its clocks started."""
    cup = services.create_event(name=name, slug=slug, arbiter=arbiter,
                                pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                rounds_planned=1)
    for entrant in ("Ada First", "Ben Second"):
        services.add_player(cup, name=entrant)
    round_ = services.publish_round(services.pair_next_round(cup))
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who=arbiter.username, user=arbiter)
    return cup, game


@pytest.mark.long_story  # the same pages on either database
def test_online_game_pages_pass_wcag_21_aa(arbiter, server, browser):  # noqa: F811
    """The layout event has no online boards: a one-game online round of its own, its two
    seats, its spectator page and the arbiter's online round page."""
    cup, game = _online_game(arbiter, "Online Access", "online-access")
    public = {"seat A": f"/p/{game.token_a}/", "seat B": f"/p/{game.token_b}/",
              "online spectator": f"/e/{cup.slug}/online/1/1/"}
    desk = {"online round": f"/e/{cup.slug}/arbiter/online/1/",
            "online slips": f"/e/{cup.slug}/arbiter/online/1/slips/"}
    failures = audit(browser, server, [(None, public), (session_cookie(arbiter, server), desk)])
    assert not failures, "\n".join(failures)


@pytest.mark.long_story  # the same pages on either database
def test_the_seat_page_passes_wcag_21_aa_in_every_state(arbiter, server, browser):  # noqa: F811
    """The states a page load does not show, at 360x740: the options open, a tile previewed
    with Confirm and Cancel, feedback over the board, the opponent not yet there, the end
    screen."""
    _cup, game = _online_game(arbiter, "Seat States", "seat-states")
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
    arbiter, server, browser  # noqa: F811
):
    """The pages of issue #39 before round 1: the event's page with its Register link and the
    registration form (a stranger), the Runs itself page with a registration waiting (the
    arbiter), My games counting down with its absence button (a registered player). At each
    size: no sideways scroll, nothing cut off; at phone and desktop width, axe's WCAG 2.1 AA."""
    from autopilot import services as autopilot
    from tests.browser.test_layout import check

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
