"""The seat page finished for the thumb (issue #45), in real Chromium on a phone upright
(360x740) and on its side (844x390, in English and in Russian).

One game is played from its first move by taps: the names fit (the full name a tap away), the
six tracks of each player and the lowest colour in words, the cells a chosen tile can go to
marked exactly as the engine allows, a tap refused with its note and the next tap taken at
once (a note never swallows a tap), a pair that breaks the placement rule refused at the second
tap, the Moves list in view during the preview; the Wi-Fi cut mid-game widens nothing and keeps
Options on screen. Another game waits at a player's swap choice: Swap and Keep in view.
"""

from __future__ import annotations

import random

import pytest

from games.dealt import Table
from games.models import OnlineGame
from games.online import play as online
from tests.browser.live import TIMEOUT_MS
from tests.browser.outage import DROPS, Outage
from tests.browser.test_online_browser import LANDSCAPE, PORTRAIT, _in_view
from tests.dealt.dealt_helpers import greedy_move
from tournament import services
from tournament.models import Event

# long_story: the same page and templates on either database (test_online_browser runs there)
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.long_story]

PLAYERS = ("Katherine Johnson", "Grace Hopper", "Margaret Hamilton", "Dorothy Vaughan")
LOG_MIN_PX = 60  # the Moves list shows three lines at least


def _swap_plan() -> tuple[bytes, list[dict]]:
    """A deal and the greedy moves that lead to a seat's swap choice (not played)."""
    for n in range(200):
        seed = random.Random(1000 + n).randbytes(32)
        rng, table, moves = random.Random(n), Table(seed), []
        while not table.over and len(moves) < 60:
            if table.choice:
                return seed, moves
            move = greedy_move(table, rng, swap_rate=0.0)
            moves.append(move)
            table.play(move)
    raise AssertionError("no deal reached a swap choice")


@pytest.fixture
def games(arbiter):
    """A round of two online games: one at its start, one at a player's swap choice."""
    event = services.create_event(name="Thumb Cup", slug="thumb-cup", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                  rounds_planned=1)
    for name in PLAYERS:
        services.add_player(event, name=name)
    round_ = services.publish_round(services.pair_next_round(event))
    first, second = sorted(online.mark_online(round_, user=arbiter), key=lambda g: g.board.number)
    swap_seed, moves = _swap_plan()
    OnlineGame.objects.filter(pk=second.pk).update(seed=swap_seed.hex(),
                                                   commitment=Table(swap_seed).commitment)
    online.start_round(round_, who=arbiter.username, user=arbiter)
    second.refresh_from_db()
    for move in moves:
        assert online.play(second, move["seat"], {k: v for k, v in move.items()
                                                  if k != "seat"}).error is None
    first.refresh_from_db()
    return first, second


def _seat_to_act(game: OnlineGame) -> tuple[str, str, Table]:
    game.refresh_from_db()
    table = Table.restore(bytes.fromhex(game.seed), game.moves)
    seat = table.to_act
    return seat, f"/p/{game.token_a if seat == 'A' else game.token_b}/", table


def _marked(page) -> set[str]:
    return set(page.eval_on_selector_all("#online-board g.reach",
                                         "gs => gs.map(g => g.dataset.cell)"))


def _fits(page, selector: str) -> bool:
    """Every element of ``selector`` shows all its content (nothing cut or ellipsed)."""
    return page.eval_on_selector_all(selector, """els => els.every(e =>
        e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1)""")


def _one_line(page, selector: str) -> bool:
    return page.eval_on_selector(selector, """e => { const r = document.createRange();
        r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size === 1; }""")


def _log_seen(page) -> None:
    """On its side, the Moves list is on screen with three lines (upright it is below the
    rack, a scroll away: the board and the rack come first)."""
    if page.viewport_size["width"] < page.viewport_size["height"]:
        return
    box = page.locator("#log").bounding_box()
    assert box["height"] >= LOG_MIN_PX and _in_view(page, "#log"), box


@pytest.mark.parametrize("viewport,language", [(PORTRAIT, "en"), (LANDSCAPE, "en"),
                                               (LANDSCAPE, "ru")],
                         ids=["upright", "on-its-side", "on-its-side-ru"])
def test_a_game_by_thumb_follows_the_event(server, browser, games, viewport,
                                           language):
    first, second = games
    english = language == "en"
    wifi = Outage(server.port, mode=DROPS)
    context = browser.new_context(viewport=viewport, has_touch=True, locale=language)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    width = viewport["width"]
    try:
        seat, link, table = _seat_to_act(first)
        opponent = browser.new_context().new_page()  # the opponent is there: no claim box
        opponent.goto(server.url + f"/p/{first.token_b if seat == 'A' else first.token_a}/")
        page.goto(wifi.url + link)
        page.wait_for_selector('#online-connection[data-state="connected"]')
        page.wait_for_selector("#claim", state="hidden")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("h1").count() == 1

        # the names: whole, and in full a tap away; the tracks and the lowest colour in words
        assert _fits(page, ".player .name .who")
        own = page.locator(f'.player[data-player="{seat}"] .name')
        own.tap()
        full = page.get_attribute(f'.player[data-player="{seat}"] .name', "data-full-name")
        assert full in page.inner_text("#online-message")
        assert page.locator(".track").count() == 12
        assert all(page.locator(".track").nth(i).bounding_box()["width"] >= 8 for i in range(12))
        words = page.inner_text(f'[data-lowest="{seat}"]')
        assert words and "0" in words
        if english:
            assert words == "lowest: all six colours at 0"

        # a tile chosen: the cells it can go to, marked as the engine allows
        rack = table.rack(seat)
        page.locator('#rack .tile[data-index="0"]').tap()
        legal = table.game.legal_placements(rack[0])
        cells = {c for p in legal for c in (p.first, p.second)}
        assert _marked(page) == cells
        # a cell the tile cannot reach: refused, and the tap right after it is taken at once
        reach = set(table.game.reach())
        lonely = next(c for c in sorted(_free_cells(table)) if c not in cells)
        page.locator(f'#online-board g[data-cell="{lonely}"]').tap()
        assert page.locator(f'#online-board g[data-cell="{lonely}"].refused').count() == 1
        if english:
            assert "No tile can go there now" in page.inner_text("#online-message")
        assert page.is_visible("#online-message")
        pairs = {frozenset((p.first, p.second)) for p in legal}
        start = next(c for c in sorted(cells) if c not in reach
                     and any(n in _free_cells(table) and frozenset((c, n)) not in pairs
                             for n in _neighbours(table, c)))
        page.locator(f'#online-board g[data-cell="{start}"]').tap()  # under the note's time
        partners = {n for n in _neighbours(table, start) if frozenset((start, n)) in pairs}
        assert _marked(page) == partners
        # a second cell that breaks the placement rule: refused at the second tap
        wrong = next(n for n in _neighbours(table, start)
                     if n in _free_cells(table) and n not in partners)
        page.locator(f'#online-board g[data-cell="{wrong}"]').tap()
        assert page.get_attribute("#online", "data-preview") == "0"
        if english:
            assert "break the placement rule" in page.inner_text("#online-message")
        # the placement made as the thumb goes: previewed, the Moves list in view, confirmed
        placement = next(p for p in legal if start in (p.first, p.second))
        page.locator(f'#online-board g[data-cell="{placement.first}"]').tap()
        page.locator(f'#online-board g[data-cell="{placement.second}"]').tap()
        page.wait_for_selector('#online[data-preview="1"]')
        _log_seen(page)
        assert _in_view(page, "#confirm-btn") and _in_view(page, "#cancel-btn")
        assert _in_view(page, "#online-board") and _fits(page, "#confirm-bar button")
        page.locator("#confirm-btn").tap()
        page.wait_for_selector(f'#online[data-number="{len(table.moves) + 1}"]')
        _log_seen(page)
        assert page.locator("#log li").count() == 1

        # the Wi-Fi goes: the page says so, nothing widens, Options stays on screen
        wifi.cut()
        page.wait_for_selector('#online-connection:not([data-state="connected"])',
                               timeout=6_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _in_view(page, "#options-btn") and _in_view(page, "#online-connection")
        wifi.restore()
        page.wait_for_selector('#online-connection[data-state="connected"]')

        # the other game waits at the swap choice: both buttons in view, Resign on one line
        seat, link, table = _seat_to_act(second)
        assert table.choice
        page.goto(wifi.url + link)
        page.wait_for_selector('#online-connection[data-state="connected"]')
        page.wait_for_selector("#choice:not([hidden])")
        assert _in_view(page, "#swap-btn") and _in_view(page, "#refill-btn")
        assert _fits(page, "#choice button")
        assert _fits(page, ".lowest-words"), page.eval_on_selector_all(
            ".lowest-words", "els => els.map(e => [e.textContent, e.clientWidth, e.scrollHeight])")
        full = [c for c, points in table.game.scores[seat].items() if points >= 18]
        assert page.locator(f'[data-scores="{seat}"] .score.full').count() == len(full)
        if full and english:  # the 18 reached, in words too
            assert "Ingenious!" in page.inner_text(f'[data-lowest="{seat}"]')
        _log_seen(page)
        assert _one_line(page, "#resign-btn") and _one_line(page, "#swap-btn")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#refill-btn").tap()
        page.wait_for_selector(f'#online[data-number="{len(table.moves) + 1}"]')
    finally:
        context.close()
        wifi.stop()
        if "opponent" in locals():
            opponent.context.close()


def _free_cells(table: Table) -> set[str]:
    game = table.game
    names = game.board.names
    return {names[c] for c in range(len(names)) if game.position.cells[c] == -1}


def _neighbours(table: Table, cell: str) -> list[str]:
    board = table.game.board
    return [n for n in board.names if board.are_adjacent(cell, n)]
