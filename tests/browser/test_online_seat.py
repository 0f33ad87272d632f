"""The seat page never loses a move and never shows a false state (issue #38, items 1-3), in a
real Chromium at 390x844 with the player's Wi-Fi cut by a relay that silences open sockets.

- A move tapped while the link is dead is kept ("Offline: your move is kept…"), sent again
  when the link is back, and played once; the page noticed the dead link within 3 s.
- The status line follows the clock: the start, a pause and the resume show at once.
- After the arbiter gives the seat a new link, the old page says so and offers no move.
"""

from __future__ import annotations

import random

import pytest

from games.dealt import Table
from games.models import OnlineGame
from tests.browser.demo_site import online_game
from tests.browser.live import TIMEOUT_MS, open_hall
from tests.browser.outage import Outage
from tests.browser.test_online_browser import _tap
from tests.dealt.dealt_helpers import greedy_move
from tournament.models import Board

# long_story: the seat's page; its server side runs on PostgreSQL + Redis in tests/online,
# and the deployment story plays a game over wss through nginx on them
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.long_story]

PHONE = {"width": 390, "height": 844}
CONNECTED = '#online-connection[data-state="connected"]'


def _seat_page(browser, url: str):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector(CONNECTED)
    return context, page


def test_a_move_made_on_a_dead_link_is_kept_and_played_once_it_is_back(
        server, browser, arbiter):
    _cup, game = online_game(arbiter, "Dead Link", "dead-link")
    table = Table(bytes.fromhex(game.seed))
    seat = table.to_act
    token = game.token_a if seat == "A" else game.token_b
    outage = Outage(server.port)
    try:
        context, page = _seat_page(browser, f"{outage.url}/p/{token}/")
        page.wait_for_selector('#online[data-number="0"]')
        outage.cut()
        context.set_offline(True)
        page.wait_for_selector('#online-connection:not([data-state="connected"])',
                               timeout=4_000)  # a dead link is seen within 3 s
        move = greedy_move(table, random.Random(1))  # the first move places a tile
        _tap(page, move["placement"], table.rack(seat))
        page.wait_for_selector('#online[data-pending="1"]')
        assert "your move is kept" in page.inner_text("#online-status")
        assert page.locator("#rack .tile:enabled").count() == 0  # no second move meanwhile
        assert OnlineGame.objects.get(pk=game.pk).moves == []
        outage.restore()
        context.set_offline(False)
        page.wait_for_selector('#online[data-number="1"][data-pending="0"]')
        assert len(OnlineGame.objects.get(pk=game.pk).moves) == 1  # played once
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        context.close()
    finally:
        outage.stop()


def test_the_status_follows_the_clock_and_a_replaced_link_stops(
        server, browser, arbiter):
    """The arbiter works in their own browser, as at the venue: the online round page starts
    the clocks and gives the new link, the hall pauses and resumes (the server process says it
    to the seat's socket)."""
    _cup, game = online_game(arbiter, "Status Line", "status-line", start=False)
    round_ = game.board.round
    table = Table(bytes.fromhex(game.seed))
    seat = table.to_act
    token = game.token_a if seat == "A" else game.token_b
    context, page = _seat_page(browser, f"{server.url}/p/{token}/")
    status = page.locator("#online-status")
    assert "Waiting for the arbiter to start the clocks" in status.inner_text()
    assert page.locator("#rack .tile:enabled").count() == 0

    hall_context, hall = open_hall(browser, server, arbiter, round_)
    desk = hall_context.new_page()
    desk.set_default_timeout(TIMEOUT_MS)
    desk.goto(f"{server.url}/e/{round_.event.slug}/arbiter/online/{round_.number}/")
    desk.click('button:has-text("Start the clocks")')
    page.wait_for_selector('#online-status:has-text("Your move")',
                           timeout=3_000)  # the start reaches the status line, no reload
    assert page.locator("#rack .tile:enabled").count() == 6
    board = Board.objects.get(round=round_)
    row = f'tr[data-board="{board.pk}"]'
    hall.on("dialog", lambda dialog: dialog.accept("a question from a spectator"))
    hall.reload()
    hall.wait_for_selector('#hall-connection[data-state="connected"]')  # as the arbiter sees it
    hall.click(f'{row} [data-command="pause"]')
    page.wait_for_selector('#online-status:text-is("Paused by the arbiter")', timeout=3_000)
    assert page.locator("#rack .tile:enabled").count() == 0
    hall.click(f'{row} [data-command="resume"]')
    page.wait_for_selector('#online-status:has-text("Your move")', timeout=3_000)

    desk.goto(f"{server.url}/e/{round_.event.slug}/arbiter/online/{round_.number}/")
    desk.once("dialog", lambda dialog: dialog.accept())  # "Give … a new link? …"
    desk.locator(f'form:has(input[name="seat"][value="{seat}"]) button').click()
    page.wait_for_selector('#online[data-replaced="1"]')
    assert "This link no longer plays this seat" in status.inner_text()
    assert page.locator("#rack .tile:enabled").count() == 0
    assert page.locator("#entry").is_hidden()
    context.close()
    hall_context.close()


def test_a_no_show_is_claimed_from_a_phone(server, browser, arbiter):
    """At 360x740: the opponent never opens the game; the page says until when to wait, then
    offers the claim; the win is recorded as a forfeit with the reason and the end screen says
    so. (The round's start is moved five minutes back in the database: the waiting time as if
    it had passed.)"""
    from clocks.models import Clock
    from tournament.models import Result

    _cup, game = online_game(arbiter, "No Show", "no-show")
    round_ = game.board.round
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/p/{game.token_a}/")
    page.wait_for_selector(CONNECTED)
    page.wait_for_selector("#claim:not([hidden])")
    assert "Ben Second has not opened the game yet" in page.inner_text("#claim-text")
    assert page.locator("#claim-btn").is_hidden()
    clock = Clock.objects.get(board=game.board)
    clock.state = {**clock.state, "started_at_ms": clock.state["started_at_ms"] - 5 * 60_000}
    clock.save(update_fields=["state"])
    page.reload()
    page.wait_for_selector(CONNECTED)
    page.wait_for_selector("#claim-btn:not([hidden])")
    assert "within the waiting time" in page.inner_text("#claim-text")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    hall_context, hall = open_hall(browser, server, arbiter, round_)
    row = f'tr[data-board="{game.board_id}"]'
    assert hall.viewport_size["width"] == 1280  # the hall's controls fit a laptop's width
    assert hall.evaluate("(() => { const w = document.querySelector('#hall .table-wrap');"
                         " return w.scrollWidth <= w.clientWidth; })()")
    online_text = f"{row} [data-online]:not([hidden])"  # the online game beside its clock
    hall.wait_for_selector(f'{online_text}:has-text("Ada First connected")')
    assert "Ben Second has not opened the game" in hall.inner_text(online_text)
    assert "moves: 0" in hall.inner_text(online_text)
    assert hall.locator(f'{online_text} button:has-text("Record the no-show")').count() == 1
    assert hall.locator(f'{row} [data-command="start"]').is_disabled()  # started already
    assert hall.locator(f'{row} [data-command="resume"]').is_disabled()  # not paused
    hall.once("dialog", lambda dialog: dialog.accept("   "))  # a reason of spaces only
    hall.click(f'{row} [data-command="adjust"][data-side="B"][data-kind="add"]')
    assert "No reason given: nothing changed" in hall.inner_text("#clock-message")
    page.once("dialog", lambda dialog: dialog.accept())  # "Claim the win? …"
    page.click("#claim-btn")
    page.wait_for_selector("#online-end")
    assert page.inner_text("#end-title") == "You won"
    assert "Ben Second did not appear: a forfeit" in page.inner_text("#end-result")
    assert page.locator("#claim").is_hidden() and page.locator("#rack .tile:enabled").count() == 0
    result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
    assert result.kind == Result.Kind.FORFEIT and result.loser_seat == "second"
    assert "did not appear within 5 minutes" in result.reason
    hall.wait_for_selector(f'{row}[data-status="finished"]')
    assert hall.locator(f"{row} [data-command]:enabled").count() == 0  # a finished game
    context.close()
    hall_context.close()


def test_the_arbiter_records_a_no_show_from_the_hall(server, browser, arbiter):
    """Neither player opened the game; past the waiting time the hall of clocks offers Record
    the no-show beside the game's clock: a double forfeit, and the hall again."""
    from clocks.models import Clock
    from tournament.models import Result

    _cup, game = online_game(arbiter, "Hall No Show", "hall-no-show")
    round_ = game.board.round
    clock = Clock.objects.get(board=game.board)
    clock.state = {**clock.state, "started_at_ms": clock.state["started_at_ms"] - 5 * 60_000}
    clock.save(update_fields=["state"])
    hall_context, hall = open_hall(browser, server, arbiter, round_)
    row = f'tr[data-board="{game.board_id}"]'
    button = f'{row} [data-online] button:has-text("Record the no-show")'
    hall.wait_for_selector(button)
    assert "Ada First has not opened the game" in hall.inner_text(f"{row} [data-online]")
    hall.once("dialog", lambda dialog: dialog.accept())  # "Record that this player …?"
    with hall.expect_navigation():
        hall.click(button)
    assert hall.url.endswith(f"/clocks/{round_.number}/")  # back in the hall
    assert "Board 1: the forfeit for not appearing is recorded." in hall.inner_text("main")
    result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
    assert result.kind == Result.Kind.DOUBLE_FORFEIT
    hall.wait_for_selector(f'{row}[data-status="finished"]')
    hall_context.close()
