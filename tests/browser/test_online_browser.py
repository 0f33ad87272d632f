"""An online game in two real Chromium pages, one per seat, on a phone-sized screen: moves by
tapping and by typing, a swap, a bonus play, a reconnect mid-game, the end; then the standings
show the result and the viewer replays the record. A spectator's page follows without a rack."""

import random

import pytest

from games.dealt import Table
from games.models import OnlineGame
from games.online import play as online
from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    server,
)
from tests.dealt.dealt_helpers import greedy_move
from tournament import services
from tournament.models import Board, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 400, "height": 1000}


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


def _tap(page, placement: str, rack: list[str]) -> None:
    """Choose the tile in the rack (tap again to turn it), then tap the two cells."""
    first, second = placement.split("-")
    tile = "".join(sorted(first[-1] + second[-1], key="RGBOYP".index))
    page.click(f'#rack .tile[data-index="{rack.index(tile)}"]')
    if first[-1] != tile[0]:
        page.click(f'#rack .tile[data-index="{rack.index(tile)}"]')
    page.click(f'#online-board g[data-cell="{first[:-1]}"]')
    page.click(f'#online-board g[data-cell="{second[:-1]}"]')


def test_two_seats_play_a_whole_online_game_in_chromium(server, browser, arbiter):  # noqa: F811
    seed, _n, moves = _plan()
    event = services.create_event(name="Online Cup", slug="online-cup", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                  rounds_planned=1)
    services.add_player(event, name="Ada First")
    services.add_player(event, name="Ben Second")
    round_ = services.publish_round(services.pair_next_round(event))
    game = online.mark_online(round_, user=arbiter)[0]
    OnlineGame.objects.filter(pk=game.pk).update(seed=seed.hex(),
                                                 commitment=Table(seed).commitment)
    online.start_round(round_, who=arbiter.username, user=arbiter)
    board = Board.objects.get(round=round_)

    pages = {}
    for seat, token in (("A", game.token_a), ("B", game.token_b)):
        pages[seat] = browser.new_page(viewport=PHONE)
        pages[seat].set_default_timeout(TIMEOUT_MS)
        pages[seat].goto(f"{server.url}/p/{token}/")
    spectator = browser.new_page(viewport=PHONE)
    spectator.set_default_timeout(TIMEOUT_MS)
    spectator.goto(f"{server.url}/e/{event.slug}/online/1/1/")
    for page in (*pages.values(), spectator):
        page.wait_for_selector('#online-connection[data-state="connected"]')
    assert pages["A"].locator("#rack .tile").count() == 6
    for page in (*pages.values(), spectator):  # phone portrait: nothing scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert spectator.locator("#rack").count() == 0
    assert Table(seed).commitment in pages["B"].inner_text("#commitment")

    # an illegal tap is refused with the engine's reason and changes nothing
    pages["B"].click('#online-board g[data-cell="f6"]')
    assert "not your turn" in pages["B"].inner_text("#online-message")

    table = Table(seed)
    reloaded = False
    for number, move in enumerate(moves):
        seat = move["seat"]
        page = pages[seat]
        _ready(page, number)
        if move["move"] == "place" and number % 4 == 3:  # by keyboard
            page.fill("#entry-text", move["placement"])
            page.press("#entry-text", "Enter")
        elif move["move"] == "place":
            _tap(page, move["placement"], table.rack(seat))
        else:
            page.click("#swap-btn" if move["move"] == "swap" else "#refill-btn")
        table.play(move)
        for other in (*pages.values(), spectator):
            _ready(other, number + 1)
        if not reloaded and number >= 8 and not table.over:
            pages["A"].reload()  # a reconnect restores the position, the rack and the clocks
            pages["A"].wait_for_selector('#online-connection[data-state="connected"]')
            _ready(pages["A"], number + 1)
            tiles = pages["A"].eval_on_selector_all("#rack .tile",
                                                    "b => b.map(x => x.dataset.tile)")
            assert tiles == table.rack("A")
            assert pages["A"].inner_text('[data-time="A"]') != "–:––"
            reloaded = True
    assert reloaded and table.game.swaps and table.game.bonus_plays
    result = table.game.summary().result
    for page in (*pages.values(), spectator):
        page.wait_for_selector('#online[data-over="1"]')
        assert result in page.inner_text("#end-result")
    assert seed.hex() in spectator.inner_text("#end-seed")
    pages["A"].screenshot(path="/tmp/online-phone.png", full_page=True)

    stored = services.current_result(Board.objects.get(pk=board.pk))
    assert stored.source == "record"
    standings = pages["A"]
    standings.goto(f"{server.url}/e/{event.slug}/standings/")
    winner = {"1-0": "Ada First", "0-1": "Ben Second"}.get(result)
    if winner:
        assert winner in standings.inner_text("table.standings tbody tr:first-child")
    standings.goto(f"{server.url}/games/{stored.record_link.record_id}/")
    standings.wait_for_selector("#step-label")
    shown, total = standings.inner_text("#step-label").split(":")[0].split(" / ")
    assert shown == total and int(total) >= len(moves)  # at the last step of the whole record

def test_an_invalid_player_link_shows_the_reason(server, browser):  # noqa: F811
    page = browser.new_page()
    response = page.goto(f"{server.url}/p/this-token-does-not-exist/")
    assert response.status == 403
    assert "not valid" in page.inner_text("main")
