"""The board clock in a real Chromium: press, see the other side run, see the hall follow."""

import pytest

from bench.events import create_clock_event
from clocks import services
from tests.browser.live import TIMEOUT_MS, open_hall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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

    _context, hall = open_hall(browser, server, arbiter, round_,
                               viewport={"width": 820, "height": 1180})
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

    # the arbiter scrolls the hall's table sideways to its controls, wider than a tablet held
    # upright: the table stays where it is under the pointer (a hint that left its line made it
    # jump up, and a Pause clicked just then landed on the button below)
    wrap = hall.locator(".table-wrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth + 2"), "the hall's table fits 820 px"
    before = wrap.bounding_box()
    hall.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
    hall.mouse.wheel(before["width"], 0)
    hall.wait_for_function("w => w.scrollLeft + w.clientWidth >= w.scrollWidth - 2",
                           arg=wrap.element_handle())
    hall.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert not hall.is_visible(".scroll-hint")
    assert wrap.bounding_box()["y"] == before["y"]
    act_until(hall, lambda: hall.click(f'{row} [data-command="pause"]'),
              f'{row} [data-time="A"]:not(.running)')
    players.wait_for_selector('#clock[data-status="paused"]')
    assert "Paused" in players.inner_text("#clock-status")


def test_an_invalid_board_link_shows_the_reason(server, browser):
    page = browser.new_page()
    response = page.goto(f"{server.url}/b/this-token-does-not-exist/")
    assert response.status == 403
    assert "not valid" in page.inner_text("main")
