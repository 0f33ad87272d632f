"""The live scoresheet in a real Chromium: enter a short game with clock presses, resign (the
clock stops), confirm it, see the result in the standings, and step through it in the game
viewer."""

import pytest

from clocks import services as clock_services
from tests.browser.live import TIMEOUT_MS
from tournament import services
from tournament.models import Board, Event

# long_story: the scoresheet page's script; the records it sends run on PostgreSQL in tests/web
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.long_story]


def place(page, first, second):
    """Tap two cells, pick both colours, place the tile."""
    page.click(f'#live-board g[data-cell="{first[:-1]}"]')
    page.click(f'#live-board g[data-cell="{second[:-1]}"]')
    page.click(f'.colour-pick[data-half="0"] button[data-colour="{first[-1]}"]')
    page.click(f'.colour-pick[data-half="1"] button[data-colour="{second[-1]}"]')
    page.click("#place-btn")


def test_a_short_game_entered_at_the_board_reaches_the_standings_and_the_viewer(
    server, browser, arbiter
):
    event = services.create_event(name="Live Cup", slug="live-cup", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                  rounds_planned=1)
    services.add_player(event, name="Ada First")
    services.add_player(event, name="Ben Second")
    round_ = services.publish_round(services.pair_next_round(event))
    board = Board.objects.get(round=round_)
    clock_services.start_round(round_, who=arbiter.username, user=arbiter)
    first_name = board.first.name

    # wait_for_function's string predicates are evaluated by the page, which its
    # Content-Security-Policy forbids (no eval); tests/browser/test_every_page.py checks it
    page = browser.new_page(viewport={"width": 1100, "height": 1400}, bypass_csp=True)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/b/{board.token}/")
    page.wait_for_selector('#clock-connection[data-state="connected"]')
    page.wait_for_function("document.getElementById('live-status').textContent.length > 0")
    assert "(A) to place" in page.inner_text("#live-status")

    place(page, "e1R", "f2O")
    page.wait_for_function("document.getElementById('last-points').textContent.includes('O+1')")
    page.click(".side-A")  # A ends the turn on the clock
    page.wait_for_selector(".side-B.running")
    assert "(B) to place" in page.inner_text("#live-status")

    place(page, "f6R", "f7G")  # touches nothing: the engine refuses, nothing changes
    page.wait_for_function(
        "document.getElementById('live-error').textContent.includes('placement rule')")
    place(page, "j10P", "k10P")
    page.wait_for_function("document.getElementById('last-points').textContent.includes('P+2')")
    page.click(".side-B")
    page.wait_for_selector(".side-A.running")

    page.click("#scoresheet details summary")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click('[data-other="resign"][data-seat="B"]')
    page.wait_for_selector("#confirm-box:not([hidden])")
    assert "resigns: the game ends and the clock stops" in asked[0]
    assert "1-0" in page.inner_text("#final-result")
    # every end of the game stops its clock: A's no longer runs (issue #35)
    page.wait_for_selector('#clock[data-status="finished"]')
    assert "Game over" in page.inner_text("#clock-status")
    assert not page.is_visible(".side-A.running")
    finished = clock_services.snapshot(board)["finished"]
    assert (finished["kind"], finished["side"]) == ("resigned", "B")
    page.click('[data-confirm="A"]')
    page.wait_for_selector('[data-confirm="A"]:disabled')
    page.click('[data-confirm="B"]')
    page.wait_for_selector("#record-link a")

    result = services.current_result(Board.objects.get(pk=board.pk))
    assert (result.kind, result.source, float(result.first_vp)) == ("resignation", "record", 1)

    page.goto(f"{server.url}/e/{event.slug}/standings/")
    first_row = page.inner_text("table.standings tbody tr:first-child")
    assert first_name in first_row

    page.goto(f"{server.url}/games/{result.record_link.record_id}/")
    page.wait_for_selector("#step-label")
    assert page.inner_text("#step-label").startswith("3 / 3")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-label").startswith("2 / 3")
    page.keyboard.press("Home")
    assert page.inner_text("#step-label").startswith("0 / 3")
    page.click('[data-go="next"]')
    label = page.inner_text("#step-label")
    assert label.startswith("1 / 3") and "e1R-f2O" in label and " @" in label
