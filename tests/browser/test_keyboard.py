"""The arbiter's two busiest screens work by keyboard alone (#23 item 17).

Result slips: the first score has the focus, Tab walks the twelve scores, Enter saves and the
next board's slip opens with the focus on its first score again. The clock hall: Tab reaches
the round's and each board's buttons, Enter and Space press them, and the round-wide commands'
confirmations are answered like any dialog. No click, no focus set by script from the test.
"""

import pytest

from bench.events import create_clock_event
from tests.browser.live import TIMEOUT_MS, open_hall, session_cookie
from tournament import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COLOURS = "RGBOYP"


def focused(page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement.matches(s)", selector)


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the element matching ``selector`` has the focus, as a keyboard user
    would; fails if it is not among the next ``limit`` stops."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page, selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


@pytest.mark.long_story  # the pages' keys: the same on either database
def test_slips_are_typed_and_saved_by_keyboard_alone(server, browser, arbiter):
    event = services.create_event(name="Keyboard Slips", arbiter=arbiter)
    for name in ("Ada", "Ben", "Cleo", "Dan"):
        services.add_player(event, name=name)
    round_ = services.publish_round(services.pair_next_round(event))
    first_board, second_board = (b for b, _r in services.boards_with_results(round_))
    context = browser.new_context()
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/e/{event.slug}/arbiter/rounds/{round_.number}/results/")
    scores = {"first": [9, 12, 7, 15, 10, 8], "second": [11, 6, 13, 9, 14, 10]}
    assert focused(page, 'input[name="first_R"]')
    for seat in ("first", "second"):
        for colour, value in zip(COLOURS, scores[seat], strict=True):
            assert focused(page, f'input[name="{seat}_{colour}"]')
            page.keyboard.type(str(value))
            if (seat, colour) != ("second", "P"):
                page.keyboard.press("Tab")
    assert page.inner_text('tr[data-seat="first"] .vp') == "1"  # lowest 7 against 6
    page.keyboard.press("Enter")
    page.wait_for_url(f"**?board={second_board.pk}")
    assert focused(page, 'input[name="first_R"]')
    assert page.input_value("#board-select") == str(second_board.pk)
    result = dict(services.boards_with_results(round_))[first_board]
    assert result.first_scores == dict(zip(COLOURS, scores["first"], strict=True))
    assert result.second_scores == dict(zip(COLOURS, scores["second"], strict=True))
    context.close()


@pytest.mark.long_story  # the pages' keys: the same on either database
def test_the_clock_hall_runs_by_keyboard_alone(server, browser, arbiter):
    round_ = create_clock_event(2, arbiter=arbiter, slug="keyboard-hall")
    board = round_.boards.get(number=2)
    row = f'tr[data-board="{board.pk}"]'
    _context, hall = open_hall(browser, server, arbiter, round_)
    asked = []

    def accept(dialog):
        asked.append(dialog.message)
        dialog.accept()

    hall.on("dialog", accept)
    tab_to(hall, '[data-round-command="start_round"]')
    hall.keyboard.press("Enter")
    hall.wait_for_selector(f'{row}[data-status="running_a"]')
    assert len(asked) == 1  # starting every clock asked first
    tab_to(hall, '[data-round-command="pause_round"]')
    hall.keyboard.press("Space")
    hall.wait_for_selector(f'{row}[data-status="paused"]')
    tab_to(hall, f'{row} [data-command="resume"]')
    hall.keyboard.press("Enter")
    hall.wait_for_selector(f'{row}[data-status="running_a"]')
    hall.keyboard.press("Shift+Tab")  # back to the row's Pause, just before Resume
    assert focused(hall, f'{row} [data-command="pause"]')
    hall.keyboard.press("Space")
    hall.wait_for_selector(f'{row}[data-status="paused"]')
