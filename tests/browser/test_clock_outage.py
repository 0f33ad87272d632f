"""The board page through the venue's Wi-Fi failing (issue #22), in a real Chromium.

The page is served through ``tests.browser.outage.Outage`` (a relay the test cuts, since
Playwright's offline emulation leaves open WebSockets working) with the browser context set
offline at the same time (HTTP fails, ``navigator.onLine`` is false). The test's clicks are the
device's timeline: the browser and the server share this machine's clock, so every press the
server stores must sit where the click was, within 0.3 s, however late it arrived.
"""

import time

import pytest

from clocks import services
from clocks.benchsupport import AsgiServer, create_clock_event
from tests.browser.outage import Outage
from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    open_hall,
)
from tests.clocks.servers import wait_for_other_sessions_to_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOLERANCE_MS = 300
CONNECTED = '#clock-connection[data-state="connected"]'
OFFLINE = '#clock-connection[data-state="offline"]'
DRAINED = '#clock[data-queued="0"]'


@pytest.fixture
def venue():
    """The server (with its flag timer, which stores flags nobody presses against) behind the
    Wi-Fi."""
    yield from _venue({})


def _venue(extra_env: dict):
    server = AsgiServer(flag_timer=True, extra_env=extra_env)
    outage = None
    try:
        server.wait_listening()
        outage = Outage(server.port)
        yield server, outage
    finally:
        if outage is not None:
            outage.stop()
        print(f"server log:\n{server.log_tail()}")
        server.stop()
        wait_for_other_sessions_to_end()


def open_board(browser, outage, board):  # noqa: F811
    context = browser.new_context(viewport={"width": 420, "height": 800})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("console", lambda m: print(f"{time.strftime('%X')} console: {m.text}"))  # on failure
    page.goto(f"{outage.url}/b/{board.token}/")
    page.wait_for_selector(CONNECTED)
    return context, page


def started_board(browser, outage, arbiter, slug: str, opened_lag_s: float = 0.0):  # noqa: F811
    """A one-board event with its clock started, and the board page open and running for a
    couple of seconds (two pongs), as a board is when the Wi-Fi drops; ``opened_lag_s`` holds
    back what the server sends while the page opens."""
    round_ = create_clock_event(1, arbiter=arbiter, slug=slug)
    services.start_round(round_, who=arbiter.username, user=arbiter)
    board = round_.boards.get()
    outage.lag_s = opened_lag_s
    context, page = open_board(browser, outage, board)
    page.wait_for_selector(".side-A.running")
    outage.lag_s = 0.0
    time.sleep(3.0)
    return board, context, page


def cut(context, outage) -> float:
    outage.cut()
    context.set_offline(True)
    return time.time()


def restore(context, outage) -> None:
    outage.restore()
    context.set_offline(False)


def click(page, side: str) -> int:
    """Press ``side`` on the page; the device's time of the press, in ms."""
    at = time.time()
    page.click(f".side-{side}")
    return round((at + time.time()) * 500)


def connection_text(page) -> str:
    return page.inner_text("#clock-connection")


def assert_presses_where_clicked(board, clicks: list[int]) -> None:
    stored = [p.at_ms for p in services.presses(board)]
    assert len(stored) == len(clicks)
    for at, clicked in zip(stored, clicks, strict=True):
        assert abs(at - clicked) <= TOLERANCE_MS, (stored, clicks)


def outage_with_presses_both_ways(browser, outage, arbiter, slug: str,  # noqa: F811
                                  seconds: float, opened_lag_s: float = 0.0):
    board, context, page = started_board(browser, outage, arbiter, slug, opened_lag_s)
    began = cut(context, outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)  # noticed within 3 s (+ the test's slack)
    assert "Offline since" in connection_text(page)
    assert "this board keeps time" in connection_text(page)
    clicks = [click(page, "A")]
    page.wait_for_selector(".side-B.running")
    time.sleep(min(3, seconds / 4))
    clicks.append(click(page, "B"))
    page.wait_for_selector(".side-A.running")
    assert "2 presses will be sent" in connection_text(page)
    time.sleep(max(0.0, began + seconds - time.time()))
    restore(context, outage)
    page.wait_for_selector(CONNECTED, timeout=2 * TIMEOUT_MS)  # a backoff step, a busy CI
    page.wait_for_selector(DRAINED)
    assert connection_text(page) == "Connected"
    assert "2 presses accepted" in page.inner_text("#clock-message")
    assert_presses_where_clicked(board, clicks)
    snap = services.snapshot(board)
    assert snap["running"] == "A" and snap["flags"] == {"A": None, "B": None}
    context.close()
    return board


def test_a_ten_second_outage_with_presses_both_ways_loses_nothing(venue, browser, arbiter):  # noqa: F811
    """The page opened while the Wi-Fi held everything back 0.6 s: its first snapshot came
    late, and the pongs since then set its clock right before the presses it measures."""
    _server, outage = venue
    outage_with_presses_both_ways(browser, outage, arbiter, "wifi-ten", 10, opened_lag_s=0.6)


def test_a_two_minute_outage_with_presses_both_ways_loses_nothing(venue, browser, arbiter):  # noqa: F811
    _server, outage = venue
    outage_with_presses_both_ways(browser, outage, arbiter, "wifi-two-minutes", 120)


def test_presses_survive_a_reload_during_the_outage(venue, browser, arbiter):  # noqa: F811
    _server, outage = venue
    board, context, page = started_board(browser, outage, arbiter, "wifi-reload")
    cut(context, outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    clicks = [click(page, "A")]
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()  # the reload fails: the browser is offline
    time.sleep(2)
    restore(context, outage)
    page.goto(f"{outage.url}/b/{board.token}/")  # the players open the page again
    page.wait_for_selector(DRAINED)
    page.wait_for_selector(CONNECTED)
    page.wait_for_selector(".side-B.running")
    assert_presses_where_clicked(board, clicks)
    context.close()


def test_flags_during_the_outage_both_ways(venue, browser, arbiter):  # noqa: F811
    _server, outage = venue
    round_ = create_clock_event(2, arbiter=arbiter, slug="wifi-flags", time_control="12")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    in_time, too_late = round_.boards.order_by("number")
    pressing, pressing_page = open_board(browser, outage, in_time)
    idle, idle_page = open_board(browser, outage, too_late)
    pressing_page.wait_for_selector(".side-A.running")
    idle_page.wait_for_selector(".side-A.running")
    cut(pressing, outage)  # the relay carries both boards' pages
    idle.set_offline(True)
    pressing_page.wait_for_selector(OFFLINE, timeout=4_000)
    idle_page.wait_for_selector(OFFLINE, timeout=4_000)
    # board 1: A presses in time on the device; the server's timer flags A at 12 s meanwhile
    started_ms = services.clock_for(in_time).core.started_at_ms
    time.sleep(max(0.0, (started_ms + 8_000) / 1000 - time.time()))
    clicks = [click(pressing_page, "A")]
    # board 2: nobody presses; the device shows the flag from its own timeline, offline
    idle_page.wait_for_selector(".side-A.flagged", timeout=TIMEOUT_MS)
    assert "First player's time is up" in idle_page.inner_text("#clock-status")
    assert idle_page.is_visible(".side-B.running")
    stored = services.clock_for(too_late).core
    deadline = stored.started_at_ms + 12_000
    while time.time() * 1000 < deadline + 1_500:  # the server's timer stores both A flags
        time.sleep(0.2)
    assert services.clock_for(in_time).core.at(services.now_ms()).flagged("A")
    restore(pressing, outage)
    idle.set_offline(False)
    pressing_page.wait_for_selector(DRAINED)
    pressing_page.wait_for_selector(CONNECTED)
    # board 1: the flag is withdrawn, the press sits where it was made
    state = services.clock_for(in_time).core
    assert not state.flagged("A") and state.running.value == "B"
    assert_presses_where_clicked(in_time, clicks)
    assert not pressing_page.is_visible(".side-A.flagged")
    # board 2: the flag stands, where the device saw it
    flag = services.clock_for(too_late).core.at(services.now_ms()).side("A").flagged_at_ms
    assert flag == deadline
    idle_page.wait_for_selector(".side-A.flagged")


def test_past_the_budget_a_press_is_dated_on_arrival_and_the_hall_is_told(
        venue, browser, arbiter):  # noqa: F811
    server, outage = venue
    board, context, page = started_board(browser, outage, arbiter, "wifi-budget")
    board.round.event.clock_compensation_s = 2
    board.round.event.save()
    cut(context, outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    click(page, "A")
    time.sleep(4)
    restore(context, outage)
    arrived = time.time() * 1000
    page.wait_for_selector(DRAINED)
    (stored,) = services.presses(board)
    assert stored.at_ms >= arrived - TOLERANCE_MS  # on arrival, not where the device saw it
    hall_context, hall = open_hall(browser, server, arbiter, board.round)
    row = f'tr[data-board="{board.pk}"]'
    hall.wait_for_selector(f"{row} .hall-link.marked")
    assert "compensation budget is used up" in hall.get_attribute(f"{row} .hall-link", "title")
    assert "1 board to check" in hall.inner_text("#hall-links")
    hall.click(f"{row} [data-seen]")
    hall.wait_for_selector(f"{row} .hall-link:not(.marked)")
    context.close()
    hall_context.close()


def test_an_arbiters_pause_during_the_outage_wins(venue, browser, arbiter):  # noqa: F811
    server, outage = venue
    board, context, page = started_board(browser, outage, arbiter, "wifi-pause")
    hall_context, hall = open_hall(browser, server, arbiter, board.round)
    row = f'tr[data-board="{board.pk}"]'
    hall.wait_for_selector(f'{row} .hall-link[data-link="live"]')
    cut(context, outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    hall.wait_for_selector(f'{row} .hall-link[data-link="offline"]')
    assert "offline since" in hall.inner_text(f"{row} .hall-link")
    assert "1 board offline" in hall.inner_text("#hall-links")
    click(page, "A")
    services.pause(board, who=arbiter.username, user=arbiter)
    restore(context, outage)
    page.wait_for_selector(DRAINED)
    page.wait_for_selector('#clock[data-status="paused"]')
    assert "arbiter changed the clock" in page.inner_text("#clock-message")
    assert "Paused by the arbiter" in page.inner_text("#clock-status")
    assert services.presses(board) == []
    hall.wait_for_selector(f'{row} .hall-link[data-link="live"]')
    context.close()
    hall_context.close()


def test_a_time_scramble_keeps_the_board_live_in_the_hall(venue, browser, arbiter):  # noqa: F811
    """Presses every 0.6 s for 7 s: the page gets a snapshot after each and never falls silent
    long enough to ping, and the server hears the presses themselves, so the hall never reads
    the board offline (its verdict comes after 3 s without a message)."""
    server, outage = venue
    board, context, page = started_board(browser, outage, arbiter, "wifi-scramble")
    hall_context, hall = open_hall(browser, server, arbiter, board.round)
    link = f'tr[data-board="{board.pk}"] .hall-link'
    hall.wait_for_selector(f'{link}[data-link="live"]')
    began, side, clicks = time.time(), "A", 0
    while time.time() - began < 7:
        click(page, side)
        clicks += 1
        side = "B" if side == "A" else "A"
        page.wait_for_selector(f".side-{side}.running")
        time.sleep(0.6)
        assert hall.get_attribute(link, "data-link") == "live"
    page.wait_for_selector(DRAINED)
    assert len(services.presses(board)) == clicks
    assert "offline" not in hall.inner_text("#hall-links")
    context.close()
    hall_context.close()


@pytest.fixture
def narrow_venue():
    """The venue, its worker letting one websocket handshake through at a time
    (``WEBSOCKET_HANDSHAKES_AT_ONCE``; tournament/site/websocket_admission.py): the pages of a
    whole hall reconnecting at once queue at its gate."""
    yield from _venue({"WEBSOCKET_HANDSHAKES_AT_ONCE": "1"})


def test_the_whole_halls_wifi_drops_and_every_board_comes_back(narrow_venue, browser, arbiter):  # noqa: F811
    """Four boards and the arbiter's hall: the Wi-Fi drops for every board page at once, each
    board plays a turn each way offline, the Wi-Fi returns and all pages reconnect together
    through a worker that opens one socket at a time. Every page comes back, every press sits
    where it was made, and the hall shows every board live again."""
    server, outage = narrow_venue
    round_ = create_clock_event(4, arbiter=arbiter, slug="wifi-hall")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    boards = list(round_.boards.order_by("number"))
    pages = [open_board(browser, outage, board) for board in boards]
    hall_context, hall = open_hall(browser, server, arbiter, round_)
    for board in boards:
        hall.wait_for_selector(f'tr[data-board="{board.pk}"] .hall-link[data-link="live"]')
    for _context, page in pages:
        page.wait_for_selector(".side-A.running")
    outage.cut()
    for context, _page in pages:
        context.set_offline(True)
    for _context, page in pages:
        page.wait_for_selector(OFFLINE, timeout=4_000)
    hall.wait_for_selector("#hall-links:has-text('4 boards offline')")
    clicks = []
    for _context, page in pages:  # each board plays on offline: a turn each way
        clicks.append([click(page, "A")])
        page.wait_for_selector(".side-B.running")
        clicks[-1].append(click(page, "B"))
        page.wait_for_selector(".side-A.running")
    outage.restore()
    for context, _page in pages:
        context.set_offline(False)
    for _context, page in pages:
        page.wait_for_selector(DRAINED, timeout=2 * TIMEOUT_MS)
        page.wait_for_selector(CONNECTED, timeout=2 * TIMEOUT_MS)
        page.wait_for_selector(".side-A.running")
        assert "2 presses accepted" in page.inner_text("#clock-message")
    for board, board_clicks in zip(boards, clicks, strict=True):
        assert_presses_where_clicked(board, board_clicks)
        hall.wait_for_selector(f'tr[data-board="{board.pk}"] .hall-link[data-link="live"]')
    assert "offline" not in hall.inner_text("#hall-links")
    for context, _page in pages:
        context.close()
    hall_context.close()
