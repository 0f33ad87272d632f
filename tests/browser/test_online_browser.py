"""An online game in two real Chromium pages, one per seat, on phones upright and on their side:
moves by tapping (previewed and confirmed) and by typing, a swap, a bonus play, a reconnect
mid-game, the end screen; then the standings show the result and the viewer replays the record.
A spectator's page follows without a rack."""

import random

import pytest

from games.dealt import Table
from tests.browser.demo_site import online_game
from tests.browser.live import TIMEOUT_MS
from tests.dealt.dealt_helpers import greedy_move
from tournament import services
from tournament.models import Board

# long_story: the pages of a whole game; its server side runs on PostgreSQL + Redis in
# tests/online, and the deployment story plays a game over wss through nginx on them
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.long_story]

PHONE = {"width": 390, "height": 844}
PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 844, "height": 390}


def _plan() -> tuple[bytes, int, list[dict]]:
    """A deal and a greedy game on it with at least one swap and one bonus play."""
    for n in range(200):
        seed = random.Random(n).randbytes(32)
        rng = random.Random(n)
        table = Table(seed)
        moves = []
        while not table.over:
            move = greedy_move(table, rng, swap_rate=1.0)
            moves.append(move)
            table.play(move)
        if table.game.swaps and table.game.bonus_plays:
            return seed, n, moves
    raise AssertionError("no planned game with a swap and a bonus play")


def _ready(page, number: int) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(f'#online[data-number="{number}"]')
    except PlaywrightTimeout:
        raise AssertionError(
            f"move {number} did not arrive at {page.url}: the page is at move "
            f"{page.get_attribute('#online', 'data-number')}, and says "
            f"{page.inner_text('#online-message')!r}") from None


def _tap(page, placement: str, rack: list[str], *, confirm: bool = True) -> None:
    """Choose the tile in the rack (tap again to turn it), then tap the two cells: the tile
    shows on the board as a preview, and Confirm sends it (``confirm=False``: left waiting)."""
    first, second = placement.split("-")
    tile = "".join(sorted(first[-1] + second[-1], key="RGBOYP".index))
    page.click(f'#rack .tile[data-index="{rack.index(tile)}"]')
    if first[-1] != tile[0]:
        page.click(f'#rack .tile[data-index="{rack.index(tile)}"]')
    page.click(f'#online-board g[data-cell="{first[:-1]}"]')
    page.click(f'#online-board g[data-cell="{second[:-1]}"]')
    if not page.is_checked("#opt-confirm"):
        return  # sent at the second cell
    page.wait_for_selector('#online[data-preview="1"]')
    if confirm:
        page.click("#confirm-btn")


def _phone(browser, viewport: dict):
    context = browser.new_context(viewport=viewport, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def _in_view(page, selector: str) -> bool:
    """The whole element inside the screen, without scrolling."""
    box, screen = page.locator(selector).bounding_box(), page.viewport_size
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= screen["width"] + 1
            and box["y"] + box["height"] <= screen["height"] + 1)


def _turns(table: Table) -> list[list]:
    """The public actions grouped by turn, as the page's log shows them."""
    turns: list[list] = []
    for action in table.actions:
        if action.kind == "draw":
            continue
        if not turns or turns[-1][0].seat != action.seat or turns[-1][-1].clock is not None \
                or turns[-1][-1].kind in ("flag", "resign"):
            turns.append([])
        turns[-1].append(action)
    return turns


RED = '#online-board polygon[stroke="#dc2626"]'


def test_two_seats_play_a_whole_online_game_on_phones(server, browser, arbiter):
    """Ada on a phone held upright (360x740), Ben on one on its side (844x390), a spectator:
    every placement previewed and confirmed (Ben switches confirmation off halfway), the own
    tile shown before the server answers, feedback where the finger is, the log and the
    outlined last turn, the end screen; board and rack in view together, nothing scrolls
    sideways."""
    seed, _n, moves = _plan()
    event, game = online_game(arbiter, "Online Cup", "online-cup", seed=seed)
    board = game.board

    pages = {"A": _phone(browser, PORTRAIT), "B": _phone(browser, LANDSCAPE)}
    for seat, token in (("A", game.token_a), ("B", game.token_b)):
        pages[seat].goto(f"{server.url}/p/{token}/")
    spectator = _phone(browser, PHONE)
    spectator.goto(f"{server.url}/e/{event.slug}/online/1/1/")
    for page in (*pages.values(), spectator):
        page.wait_for_selector('#online-connection[data-state="connected"]')
    assert pages["A"].locator("#rack .tile").count() == 6
    for page in (*pages.values(), spectator):  # nothing scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for page in pages.values():  # upright and on its side: the board and the rack together
        assert _in_view(page, "#online-board") and _in_view(page, "#rack"), page.viewport_size
        assert _in_view(page, "#online-connection") and _in_view(page, "#online-status")
        assert "(you)" in page.inner_text(".player .name:has(.you)")
    assert spectator.locator("#rack").count() == 0
    assert Table(seed).commitment in pages["B"].text_content("#commitment")
    first = Table(seed).to_act
    assert pages[first].title().startswith("Your move")

    # feedback: the tapped cell flashes where the finger is, the note lies over the status
    # line (never over a cell, never in the way of the next tap), gone on its own
    other = "B" if first == "A" else "A"
    pages[other].click('#online-board g[data-cell="f6"]')
    assert "not your turn" in pages[other].inner_text("#online-message")
    pages[first].click('#online-board g[data-cell="f1"]')  # a start symbol
    assert "start symbol" in pages[first].inner_text("#online-message")
    assert pages[first].locator('#online-board g[data-cell="f1"].refused').count() == 1
    bubble = pages[first].locator("#online-message").bounding_box()
    line = pages[first].locator(".status-wrap").bounding_box()
    area = pages[first].locator("#online-board").bounding_box()
    assert bubble == line and not (  # the note and the board share no point
        bubble["x"] < area["x"] + area["width"] and area["x"] < bubble["x"] + bubble["width"]
        and bubble["y"] < area["y"] + area["height"] and area["y"] < bubble["y"] + bubble["height"])
    assert pages[first].evaluate(
        "getComputedStyle(document.getElementById('online-message')).pointerEvents") == "none"
    pages[first].wait_for_selector("#online-message", state="hidden")

    table = Table(seed)
    reloaded = bonus_seen = False
    board_top = "document.getElementById('online-board').getBoundingClientRect().top + scrollY"
    tops = {seat: page.evaluate(board_top) for seat, page in pages.items()}
    for number, move in enumerate(moves):
        seat = move["seat"]
        page = pages[seat]
        _ready(page, number)
        bonus = move["move"] == "place" and table.game.in_bonus_play
        if number == 0:
            # previewed, cancelled, then again: the second time Confirm shows it at once,
            # before the server's answer
            _tap(page, move["placement"], table.rack(seat), confirm=False)
            cell = move["placement"].split("-")[0][:-1]
            assert page.locator(f'#online-board g.preview[data-cell="{cell}"]').count() == 1
            assert "Confirm" in page.inner_text("#online-status")
            page.click("#cancel-btn")
            assert page.locator(f'#online-board g[data-cell="{cell}"] use.piece').count() == 0
            _tap(page, move["placement"], table.rack(seat), confirm=False)
            shown = page.evaluate(
                "cell => { document.getElementById('confirm-btn').click();"
                " return document.querySelector(`#online-board g[data-cell='${cell}'] use.piece`)"
                " !== null; }", cell)
            assert shown  # in the same instant as the tap: the server has not answered yet
        elif move["move"] == "place" and number % 4 == 3:  # by keyboard
            page.fill("#entry-text", move["placement"])
            page.press("#entry-text", "Enter")
        elif move["move"] == "place":
            _tap(page, move["placement"], table.rack(seat))
        else:
            page.click("#swap-btn" if move["move"] == "swap" else "#refill-btn")
        table.play(move)
        for watcher in (*pages.values(), spectator):
            _ready(watcher, number + 1)
        if not reloaded:  # whatever the status line says, the board stays where it is
            assert {seat: page.evaluate(board_top) for seat, page in pages.items()} == tops
        if bonus and not bonus_seen:  # the whole turn is outlined, not its last tile only
            assert spectator.locator(RED).count() >= 4
            bonus_seen = True
        if number == len(moves) // 2:  # Ben switches confirmation off: a tile goes at once
            pages["B"].click("#options-btn")
            pages["B"].uncheck("#opt-confirm")
            pages["B"].click("#options-btn")
        if not reloaded and number >= 8 and not table.over:
            pages["A"].reload()  # a reconnect restores the position, the rack and the clocks
            pages["A"].wait_for_selector('#online-connection[data-state="connected"]')
            _ready(pages["A"], number + 1)
            tiles = pages["A"].eval_on_selector_all("#rack .tile",
                                                    "b => b.map(x => x.dataset.tile)")
            assert tiles == table.rack("A")
            assert pages["A"].inner_text('[data-time="A"]') != "–:––"
            reloaded = True
    assert reloaded and bonus_seen and table.game.swaps and table.game.bonus_plays
    assert not pages["B"].is_checked("#opt-confirm")  # kept on that phone

    # the log: one line per turn, bonus plays and points in words
    turns = _turns(table)
    log = spectator.locator("#log li")
    assert log.count() == len(turns)
    assert "bonus:" in spectator.inner_text("#log")
    last = sum(2 for a in turns[-1] if a.kind == "place")
    if last:
        assert spectator.locator(RED).count() == last

    result = table.game.summary().result
    winner = {"1-0": "A", "0-1": "B"}.get(result)
    names = {"A": "Ada First", "B": "Ben Second"}
    for seat, page in (*pages.items(), (None, spectator)):
        page.wait_for_selector('#online[data-over="1"]')
        page.wait_for_selector("#online-end")  # the end screen, in view
        assert _in_view(page, ".end-card #end-title")
        title = page.inner_text("#end-title")
        if winner is None:
            assert title == "Drawn"
        elif seat is None:
            assert title == f"{names[winner]} won"
        else:
            assert title == ("You won" if seat == winner else "You lost")
        assert result in page.inner_text("#end-result")
        assert "lowest colour" in page.inner_text("#end-scores")
        assert page.get_attribute("#end-standings", "href").endswith("/standings/?round=1")
    assert seed.hex() in spectator.inner_text("#end-seed")
    pages["A"].wait_for_selector('#online[data-next-known="1"]')
    assert pages["A"].locator("#end-next").is_hidden()  # the event's only round
    pages["A"].screenshot(path="/tmp/online-phone.png")
    pages["B"].click("#end-close")  # the board as it ended, the result in the status line
    pages["B"].wait_for_selector("#online-end", state="hidden")
    assert result in pages["B"].inner_text("#online-status")

    stored = services.current_result(Board.objects.get(pk=board.pk))
    assert stored.source == "record"
    standings = pages["A"]
    standings.click("#end-standings")
    if winner:
        assert names[winner] in standings.inner_text("table.standings tbody tr:first-child")
    standings.goto(f"{server.url}/games/{stored.record_link.record_id}/")
    standings.wait_for_selector("#step-label")
    shown, total = standings.inner_text("#step-label").split(":")[0].split(" / ")
    assert shown == total and int(total) >= len(moves)  # at the last step of the whole record


def test_an_invalid_player_link_shows_the_reason(server, browser):
    page = browser.new_page()
    response = page.goto(f"{server.url}/p/this-token-does-not-exist/")
    assert response.status == 403
    assert "not valid" in page.inner_text("main")
