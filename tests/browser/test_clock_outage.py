"""The board page through the venue's Wi-Fi failing, in a real Chromium.

The page is served through ``tests.browser.outage.Outage`` (a relay the test cuts, since
Playwright's offline emulation leaves open WebSockets working) with the browser context set
offline at the same time (HTTP fails, ``navigator.onLine`` is false). The relay holds the bytes
of open connections during a cut and delivers them when the network returns, as TCP does over
real Wi-Fi (the page's late pings reach the server just before its queued presses); the main
story also runs through a relay that drops them. The test's clicks are the device's timeline:
the browser and the server share this machine's clock, so every press the server stores must
sit where the click was, within 0.3 s (and half the click's own duration), however late it
arrived. An outage of minutes is not waited out: the page's clock (Playwright's) and the
server's (``tests.browser.server_time``) jump over it together.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from bench.events import create_clock_event
from bench.servers import AsgiServer
from clocks import services
from clocks.models import ClockLogEntry
from tests.browser.live import TIMEOUT_MS, open_hall
from tests.browser.outage import DROPS, HOLDS, Outage
from tests.browser.server_time import APPLICATION, ServerTime
from tests.clocks.servers import wait_for_other_sessions_to_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOLERANCE_MS = 300
CONNECTED = '#clock-connection[data-state="connected"]'
OFFLINE = '#clock-connection[data-state="offline"]'
DRAINED = '#clock[data-queued="0"]'


@dataclass(frozen=True)
class Venue:
    """The server (with its flag timer) behind the hall's Wi-Fi, on a clock the test moves."""

    server: AsgiServer
    outage: Outage
    clock: ServerTime

    def wait_out(self, seconds: float, *pages) -> None:
        """``seconds`` pass for the server and for ``pages`` (opened with ``clock=True``) at
        once, without waiting: an outage of minutes in a moment."""
        ms = round(seconds * 1000)
        self.clock.jump(ms)
        for page in pages:
            page.clock.fast_forward(ms)


@pytest.fixture
def venue(tmp_path, monkeypatch):
    yield from _venue(tmp_path, monkeypatch, {})


@pytest.fixture(params=[HOLDS, DROPS])
def either_venue(request, tmp_path, monkeypatch):
    """The venue whose Wi-Fi keeps the bytes of a cut (as TCP does), then one that loses them."""
    yield from _venue(tmp_path, monkeypatch, {}, request.param)


def _venue(tmp_path, monkeypatch, extra_env: dict, mode: str = HOLDS):
    clock = ServerTime(tmp_path / "server-time")
    monkeypatch.setattr(services, "now_ms", clock.now_ms)  # this process reads it too
    server = AsgiServer(flag_timer=True, extra_env={**clock.env, **extra_env},
                        application=APPLICATION)
    outage = None
    try:
        server.wait_listening()
        outage = Outage(server.port, mode)
        yield Venue(server, outage, clock)
    finally:
        if outage is not None:
            outage.stop()
        print(f"server log:\n{server.log_tail()}")
        server.stop()
        wait_for_other_sessions_to_end()


def pause_in_the_hall(hall, row: str, board) -> None:
    """The arbiter's Pause for ``board`` in the hall, shown paused there; if it is not, the
    failure says what the hall's row, its socket and the clock's log held. (A Pause once
    landed on the button below it in about one loaded run in ten: the table had been
    scrolled to its controls and jumped a line up under the pointer, static/js/tables.js.)"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    hall.wait_for_selector('#hall-connection[data-state="connected"]')
    hall.click(f'{row} [data-command="pause"]')
    try:
        hall.wait_for_selector(f'{row}[data-status="paused"]')
    except PlaywrightTimeout:
        logged = ClockLogEntry.objects.filter(clock__board=board).order_by("-pk")
        raise AssertionError(
            f"the hall's Pause does not show: its row {hall.inner_text(row)!r}, status "
            f"{hall.get_attribute(row, 'data-status')!r}, socket "
            f"{hall.get_attribute('#hall-connection', 'data-state')!r}, message "
            f"{hall.text_content('#clock-message')!r}; the clock's log, newest first: "
            f"{list(logged.values_list('who', 'action')[:5])}") from None


def open_board(browser, via, board, *, clock: bool = False, **options):
    """The board page in a browser context of its own (a device), connected, ``via`` the
    server or the Wi-Fi in front of it; ``clock``: on Playwright's clock, which
    ``Venue.wait_out`` moves; ``options``: the context's (its viewport, say)."""
    context = browser.new_context(**{"viewport": {"width": 420, "height": 800}, **options})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("console", lambda m: print(f"{time.strftime('%X')} console: {m.text}"))  # on failure
    if clock:
        page.clock.install()
    page.goto(f"{via.url}/b/{board.token}/")
    page.wait_for_selector(CONNECTED)
    return context, page


def started_board(browser, venue, arbiter, slug: str, opened_lag_s: float = 0.0,
                  clock: bool = False, **options):
    """A one-board event with its clock started, and the board page open and running for a
    couple of seconds (two pongs), as a board is when the Wi-Fi drops; ``opened_lag_s`` holds
    back what the server sends while the page opens."""
    round_ = create_clock_event(1, arbiter=arbiter, slug=slug)
    services.start_round(round_, who=arbiter.username, user=arbiter)
    board = round_.boards.get()
    venue.outage.lag_s = opened_lag_s
    context, page = open_board(browser, venue.outage, board, clock=clock, **options)
    page.wait_for_selector(".side-A.running")
    venue.outage.lag_s = 0.0
    time.sleep(3.0)
    return board, context, page


def cut(context, outage) -> None:
    outage.cut()
    context.set_offline(True)


def restore(context, outage) -> None:
    outage.restore()
    context.set_offline(False)


class Clicked(int):
    """The device's time of a press (ms): the middle of the click, which took ``2 * half_ms``;
    the page saw the tap somewhere in it, so a stored press may be that much either side."""

    half_ms: int


def click(page, side: str, venue: Venue) -> Clicked:
    """Press ``side`` on the page; the device's time of the press (the server's clock), ms.

    On a loaded machine Playwright's click itself can take most of a second (it waits for the
    element to be ready): the time is the middle of the call, and its half width travels with
    it (``Clicked.half_ms``) for the check of where the press was stored."""
    at = venue.clock.now_ms()
    page.click(f".side-{side}")
    after = venue.clock.now_ms()
    clicked = Clicked((at + after) // 2)
    clicked.half_ms = (after - at + 1) // 2
    return clicked


def connection_text(page) -> str:
    return page.inner_text("#clock-connection")


def seconds_of_day(shown: str) -> int:
    """``9:25:47 PM`` or ``21:25:47``, as the pages show a time, in seconds since midnight."""
    clock, _, half = shown.strip().partition(" ")
    hours, minutes, seconds = (int(part) for part in clock.split(":"))
    if half:
        hours = hours % 12 + (12 if half.upper() == "PM" else 0)
    return hours * 3600 + minutes * 60 + seconds


def assert_presses_where_clicked(board, clicks: list[int]) -> None:
    stored = [p.at_ms for p in services.presses(board)]
    assert len(stored) == len(clicks)
    for at, clicked in zip(stored, clicks, strict=True):
        slack = TOLERANCE_MS + getattr(clicked, "half_ms", 0)
        assert abs(at - clicked) <= slack, (stored, clicks)


def outage_with_presses_both_ways(browser, venue, arbiter, slug: str,
                                  seconds: float, opened_lag_s: float = 0.0):
    long = seconds > 30  # waited out on both clocks at once
    board, context, page = started_board(browser, venue, arbiter, slug, opened_lag_s, long)
    cut(context, venue.outage)
    began = time.monotonic()
    page.wait_for_selector(OFFLINE, timeout=4_000)  # noticed within 3 s (+ the test's slack)
    assert "Offline since" in connection_text(page)
    assert "this board keeps time" in connection_text(page)
    clicks = [click(page, "A", venue)]
    page.wait_for_selector(".side-B.running")
    time.sleep(3)
    clicks.append(click(page, "B", venue))
    page.wait_for_selector(".side-A.running")
    assert "2 presses will be sent" in connection_text(page)
    if long:
        venue.wait_out(seconds - (time.monotonic() - began), page)
    else:
        time.sleep(max(0.0, seconds - (time.monotonic() - began)))
    restore(context, venue.outage)
    page.wait_for_selector(CONNECTED, timeout=2 * TIMEOUT_MS)  # a backoff step, a busy CI
    page.wait_for_selector(DRAINED)
    assert connection_text(page) == "Connected"
    note = page.inner_text("#clock-message")
    assert "2 presses accepted" in note and "First player's clock runs" in note
    assert_presses_where_clicked(board, clicks)
    snap = services.snapshot(board)
    assert snap["running"] == "A" and snap["flags"] == {"A": None, "B": None}
    context.close()
    return board


def sleep_until(venue: Venue, at_ms: int) -> None:
    time.sleep(max(0.0, (at_ms - venue.clock.now_ms()) / 1000))


def test_the_issues_outage_is_charged_where_the_presses_were_made(
        either_venue, browser, arbiter):
    """A pressed online at 3 s, the network went at 6 s, B pressed offline at 10 s, A at 16 s,
    the network came back at 17 s. Over a Wi-Fi that keeps the bytes, the pings the page wrote
    during the outage reach the server just before its queued presses: they are the end of the
    silence, not a live link, and each press sits where it was made (once, A's 6 s offline turn
    was counted as 1.4 s and B charged 5 s too much). Over one that loses them, the same."""
    venue = either_venue
    round_ = create_clock_event(1, arbiter=arbiter, slug=f"wifi-issue-{venue.outage.mode}")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    board = round_.boards.get()
    start = services.clock_for(board).core.started_at_ms
    context, page = open_board(browser, venue.outage, board)
    page.wait_for_selector(".side-A.running")
    sleep_until(venue, start + 3_000)
    clicks = [click(page, "A", venue)]
    page.wait_for_selector(DRAINED)
    sleep_until(venue, start + 6_000)
    cut(context, venue.outage)
    sleep_until(venue, start + 10_000)
    clicks.append(click(page, "B", venue))
    sleep_until(venue, start + 16_000)
    clicks.append(click(page, "A", venue))
    page.wait_for_selector(".side-B.running")
    assert "2 presses will be sent" in connection_text(page)
    sleep_until(venue, start + 17_000)
    restore(context, venue.outage)
    page.wait_for_selector(DRAINED, timeout=2 * TIMEOUT_MS)
    page.wait_for_selector(CONNECTED)
    assert_presses_where_clicked(board, clicks)
    state = services.clock_for(board).core
    now = venue.clock.now_ms()
    used_a = (clicks[0] - start) + (clicks[2] - clicks[1])
    assert abs(state.remaining_ms("A", now) - (600_000 - used_a)) <= 2 * TOLERANCE_MS
    assert abs(state.remaining_ms("B", now) - (600_000 - (clicks[1] - clicks[0])
                                               - (now - clicks[2]))) <= 2 * TOLERANCE_MS
    shown = page.inner_text(".side-A .time")  # the page agrees with the server, re-synced
    minutes, seconds = shown.split(":")
    # A waits (B has the turn): the page shows the server's time for A, to the second it
    # rounds to (the server's time itself is within the presses' tolerance of the clicks')
    assert abs(int(minutes) * 60 + int(seconds) - state.remaining_ms("A", now) / 1000) <= 1
    context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_a_ten_second_outage_with_presses_both_ways_loses_nothing(venue, browser, arbiter):
    """The page opened while the Wi-Fi held everything back 0.6 s: its first snapshot came
    late, and the pongs since then set its clock right before the presses it measures."""
    outage_with_presses_both_ways(browser, venue, arbiter, "wifi-ten", 10, opened_lag_s=0.6)


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_a_two_minute_outage_with_presses_both_ways_loses_nothing(venue, browser, arbiter):
    board = outage_with_presses_both_ways(browser, venue, arbiter, "wifi-two-minutes", 120)
    # the whole outage was silence the server observed: both presses credited in full
    state = services.clock_for(board).core
    assert state.compensated_ms >= 110_000
    assert state.a.credited_ms >= 110_000 and state.b.credited_ms >= 110_000


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_a_reload_during_the_outage_keeps_the_clock_running_and_the_presses(
        venue, browser, arbiter):
    """Where service workers run (a secure origin: the HTTPS deployment, or this localhost)
    the board page comes back from a reload without the network: the running side, its
    time, the queued press; the players press on, and every press lands where it was made."""
    board, context, page = started_board(browser, venue, arbiter, "wifi-reload")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("""async () => (await caches.open('ingenious-board-pages-v1'))
                                .match(location.href).then(hit => !!hit)""")
    cut(context, venue.outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    clicks = [click(page, "A", venue)]
    page.wait_for_selector(".side-B.running")
    page.reload()  # served by the service worker: no network
    page.wait_for_selector(".side-B.running")
    assert page.get_attribute("#clock", "data-queued") == "1"
    page.wait_for_selector(OFFLINE, timeout=6_000)
    assert "1 press will be sent" in connection_text(page)
    time.sleep(1)
    clicks.append(click(page, "B", venue))  # the players press on after the reload
    page.wait_for_selector(".side-A.running")
    restore(context, venue.outage)
    page.wait_for_selector(DRAINED, timeout=2 * TIMEOUT_MS)
    page.wait_for_selector(CONNECTED)
    page.wait_for_selector(".side-A.running")
    assert_presses_where_clicked(board, clicks)
    context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_without_a_service_worker_the_page_asks_before_a_reload_loses_it(
        venue, browser, arbiter):
    """Plain http at the hall has no service worker: while a clock runs the page asks before
    it is left or reloaded (the guide says to stay), and stays when the players say so."""
    _board, context, page = started_board(browser, venue, arbiter, "wifi-ask",
                                          service_workers="block")
    page.click(".side-B")  # a tap (browsers ask only on a page the user touched)
    asked = []

    def answer(dialog):
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", answer)
    with pytest.raises(Exception, match="Timeout"):
        page.reload(timeout=3_000)  # the players said stay: no reload
    assert asked == ["beforeunload"]
    assert page.is_visible(".side-A.running")
    context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_flags_during_the_outage_both_ways(venue, browser, arbiter):
    round_ = create_clock_event(2, arbiter=arbiter, slug="wifi-flags", time_control="16")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    in_time, too_late = round_.boards.order_by("number")
    # board 1's B, who plays on alone after A's flag, has a minute more: B's own flag must not
    # fall before the arbiter reaches the hall, however slow the machine (it did at 12 s)
    services.adjust(in_time, "B", "add", 60_000, reason="B plays on alone after A's flag",
                    who=arbiter.username, user=arbiter)
    pressing, pressing_page = open_board(browser, venue.outage, in_time)
    idle, idle_page = open_board(browser, venue.outage, too_late)
    pressing_page.wait_for_selector(".side-A.running")
    idle_page.wait_for_selector(".side-A.running")
    cut(pressing, venue.outage)  # the relay carries both boards' pages
    idle.set_offline(True)
    pressing_page.wait_for_selector(OFFLINE, timeout=4_000)
    idle_page.wait_for_selector(OFFLINE, timeout=4_000)
    # board 1: A presses in time on the device; the server's timer flags A at 16 s meanwhile
    # (a loaded machine took 11 s to open the pages and see them offline, and at 12 s the
    # press sometimes came after the device's own deadline)
    started_ms = services.clock_for(in_time).core.started_at_ms
    time.sleep(max(0.0, (started_ms + 8_000 - venue.clock.now_ms()) / 1000))
    click(pressing_page, "A", venue)
    pressing_page.wait_for_selector('#clock[data-queued="1"]', timeout=5_000)  # in time
    # board 2: nobody presses; the device shows the flag from its own timeline, offline
    idle_page.wait_for_selector(".side-A.flagged", timeout=TIMEOUT_MS)
    assert "First player's time is up" in idle_page.inner_text("#clock-status")
    assert idle_page.is_visible(".side-B.running")
    stored = services.clock_for(too_late).core
    deadline = stored.started_at_ms + 16_000
    while venue.clock.now_ms() < deadline + 1_500:  # the server's timer stores both A flags
        time.sleep(0.2)
    assert services.clock_for(in_time).core.at(services.now_ms()).flagged("A")
    restore(pressing, venue.outage)
    idle.set_offline(False)
    pressing_page.wait_for_selector(DRAINED)
    pressing_page.wait_for_selector(CONNECTED)
    # board 1: a fallen flag is final, however the press was made: refused, and the arbiter
    # is shown that the board made it in time
    state = services.clock_for(in_time).core.at(services.now_ms())
    assert state.flagged("A") and services.presses(in_time) == []
    note = pressing_page.inner_text("#clock-message")
    assert "1 press refused" in note and "before the flag fell" in note
    pressing_page.wait_for_selector(".side-A.flagged")
    hall_context, hall = open_hall(browser, venue.server, arbiter, round_)
    row = f'tr[data-board="{in_time.pk}"]'
    hall.wait_for_selector(f"{row} .hall-link.marked")
    assert "the board made it before the flag fell" in hall.get_attribute(
        f"{row} .hall-link", "title")
    # only the arbiter's command gives the time back, in the hall: paused, 30 s to A, whose
    # flag is taken back; B, who played on alone, keeps the turn
    hall.on("dialog", lambda dialog: dialog.accept("A pressed in time, offline"))
    hall.on("console", lambda m: print(f"{time.strftime('%X')} hall console: {m.text}"))
    pause_in_the_hall(hall, row, in_time)
    hall.click(f'{row} [data-command="adjust"][data-side="A"][data-kind="add"]')
    pressing_page.wait_for_selector(".side-A:not(.flagged)")
    state = services.clock_for(in_time).core
    assert not state.flagged("A") and state.turn.value == "B" and state.paused
    # board 2: the flag stands, where the device saw it
    flag = services.clock_for(too_late).core.at(services.now_ms()).side("A").flagged_at_ms
    assert flag == deadline
    idle_page.wait_for_selector(".side-A.flagged")
    hall_context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_past_the_budget_a_press_is_credited_what_is_left_and_the_hall_is_told(
        venue, browser, arbiter):
    board, context, page = started_board(browser, venue, arbiter, "wifi-budget")
    board.round.event.clock_compensation_s = 2
    board.round.event.save()
    cut(context, venue.outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    clicked = click(page, "A", venue)
    time.sleep(4)
    restore(context, venue.outage)
    arrived = venue.clock.now_ms()
    page.wait_for_selector(DRAINED)
    (stored,) = services.presses(board)
    # the 2 s left of the budget, no more: later than the click, 2 s before its arrival
    assert stored.at_ms > clicked + 2_000
    assert arrived - 2_000 - TOLERANCE_MS <= stored.at_ms <= arrived - 2_000 + TOLERANCE_MS * 2
    hall_context, hall = open_hall(browser, venue.server, arbiter, board.round)
    row = f'tr[data-board="{board.pk}"]'
    hall.wait_for_selector(f"{row} .hall-link.marked")
    assert "the rest of the game's compensation budget" in hall.get_attribute(
        f"{row} .hall-link", "title")
    assert "credited: first 2.0 s" in hall.inner_text(f"{row} [data-credit]")
    assert "1 board to check" in hall.inner_text("#hall-links")
    hall.click(f"{row} [data-seen]")
    hall.wait_for_selector(f"{row} .hall-link:not(.marked)")
    context.close()
    hall_context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_the_arbiters_commands_during_the_outage_and_the_presses_both_ways(
        venue, browser, arbiter):
    """The tablet presses A and B offline; meanwhile the arbiter pauses, resumes and gives
    the first player 30 s in the hall; then the tablet presses A again. The first two presses
    were made before the arbiter's commands: they come first, the commands after them. The
    third was made on a view the commands changed: refused. The first player's clock runs,
    with the 30 s, and the page says so."""
    board, context, page = started_board(browser, venue, arbiter, "wifi-commands")
    hall_context, hall = open_hall(browser, venue.server, arbiter, board.round)
    row = f'tr[data-board="{board.pk}"]'
    hall.wait_for_selector(f'{row} .hall-link[data-link="live"]')
    cut(context, venue.outage)
    page.wait_for_selector(OFFLINE, timeout=4_000)
    hall.wait_for_selector(f'{row} .hall-link[data-link="offline"]')
    assert "1 board offline" in hall.inner_text("#hall-links")
    # the page and the hall name the last contact: the page its last answer from the server,
    # the hall the device's last message; a ping heard as the Wi-Fi fell has no answer
    hall_since = hall.inner_text(f"{row} [data-link-text]").removeprefix("offline since ")
    page_since = connection_text(page).removeprefix("Offline since ").split(": ")[0]
    assert abs(seconds_of_day(hall_since) - seconds_of_day(page_since)) <= 2, (
        hall_since, page_since)
    clicks = [click(page, "A", venue)]
    page.wait_for_selector(".side-B.running")
    time.sleep(1)
    clicks.append(click(page, "B", venue))
    page.wait_for_selector(".side-A.running")
    time.sleep(1)
    hall.on("dialog", lambda dialog: dialog.accept("the lights went out"))  # the reason
    hall.click(f'{row} [data-command="pause"]')
    hall.wait_for_selector(f'tr[data-board="{board.pk}"][data-status="paused"]')
    hall.click(f'{row} [data-command="resume"]')
    hall.wait_for_selector(f'tr[data-board="{board.pk}"][data-status="running_a"]')
    hall.click(f'{row} [data-command="adjust"][data-side="A"][data-kind="add"]')
    time.sleep(1)
    page.click(".side-A")  # made after the commands, on the tablet's older view
    restore(context, venue.outage)
    page.wait_for_selector(DRAINED, timeout=2 * TIMEOUT_MS)
    note = page.inner_text("#clock-message")
    assert "1 press refused" in note and "arbiter changed the clock" in note
    assert "First player's clock runs" in note
    page.wait_for_selector(".side-A.running")
    assert_presses_where_clicked(board, clicks)
    state = services.clock_for(board).core
    assert state.running.value == "A" and state.epoch == 4  # start, pause, resume, +30 s
    assert [e.kind for e in state.log] == ["add"]
    assert state.remaining_ms("A", services.now_ms()) > 600_000 - 5_000  # the 30 s back
    hall.wait_for_selector(f"{row} .hall-link.marked")
    assert "placed before the 3 commands the arbiter gave" in hall.get_attribute(
        f"{row} .hall-link", "title")
    context.close()
    hall_context.close()


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_a_time_scramble_keeps_the_board_live_in_the_hall(venue, browser, arbiter):
    """Presses every 0.6 s for 7 s: the page gets a snapshot after each and never falls silent
    long enough to ping, and the server hears the presses themselves, so the hall never reads
    the board offline (its verdict comes after 3 s without a message)."""
    board, context, page = started_board(browser, venue, arbiter, "wifi-scramble")
    hall_context, hall = open_hall(browser, venue.server, arbiter, board.round)
    link = f'tr[data-board="{board.pk}"] .hall-link'
    hall.wait_for_selector(f'{link}[data-link="live"]')
    began, side, clicks = time.time(), "A", 0
    while time.time() - began < 7:
        click(page, side, venue)
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
def narrow_venue(tmp_path, monkeypatch):
    """The venue, its worker letting one websocket handshake through at a time
    (``WEBSOCKET_HANDSHAKES_AT_ONCE``; tournament/site/websocket_admission.py): the pages of a
    whole hall reconnecting at once queue at its gate."""
    yield from _venue(tmp_path, monkeypatch, {"WEBSOCKET_HANDSHAKES_AT_ONCE": "1"})


@pytest.mark.long_story  # on PostgreSQL + Redis: the issue's outage above, and tests/clocks
def test_the_whole_halls_wifi_drops_and_every_board_comes_back(narrow_venue, browser, arbiter):
    """Four boards and the arbiter's hall: the Wi-Fi drops for every board page at once, each
    board plays a turn each way offline, the Wi-Fi returns and all pages reconnect together
    through a worker that opens one socket at a time. Every page comes back, every press sits
    where it was made, and the hall shows every board live again."""
    venue = narrow_venue
    round_ = create_clock_event(4, arbiter=arbiter, slug="wifi-hall")
    services.start_round(round_, who=arbiter.username, user=arbiter)
    boards = list(round_.boards.order_by("number"))
    pages = [open_board(browser, venue.outage, board) for board in boards]
    hall_context, hall = open_hall(browser, venue.server, arbiter, round_)
    for board in boards:
        hall.wait_for_selector(f'tr[data-board="{board.pk}"] .hall-link[data-link="live"]')
    for _context, page in pages:
        page.wait_for_selector(".side-A.running")
    venue.outage.cut()
    for context, _page in pages:
        context.set_offline(True)
    for _context, page in pages:
        page.wait_for_selector(OFFLINE, timeout=4_000)
    hall.wait_for_selector("#hall-links:has-text('4 boards offline')")
    clicks = []
    for _context, page in pages:  # each board plays on offline: a turn each way
        clicks.append([click(page, "A", venue)])
        page.wait_for_selector(".side-B.running")
        clicks[-1].append(click(page, "B", venue))
        page.wait_for_selector(".side-A.running")
    venue.outage.restore()
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
