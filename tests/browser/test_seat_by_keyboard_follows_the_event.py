"""A whole online game played from the keyboard, as a blind player with a screen reader plays
it (issue #45), in real Chromium: the player's hands are keys only (Tab, the arrows, Enter),
the player's eyes the accessibility tree only (roles and names, Playwright's ARIA snapshots,
never a pixel). The opponent is a program on the protocol (docs/online-protocol.md).

Every cell is a button named by its content (free, where a tile can go, a tile and its
colour, a start symbol, a tile shown only or sent); the rack's tiles are named by their
colours; the opponent's move and its points are announced; each player's six scores are read
by colour; the swap choice and the bonus play are reached by keys; and axe finds nothing in
any of the game's states.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
from collections import deque

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.botclient import play_seat
from games.dealt import Table
from games.dealt.bot import choose_move
from games.engine.board import Board as Geometry
from games.models import OnlineGame
from tests.browser.demo_site import online_game
from tests.browser.live import TIMEOUT_MS
from tests.browser.page_checks import axe_problems
from tests.dealt.dealt_helpers import greedy_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"R": "red", "G": "green", "B": "blue", "O": "orange", "Y": "yellow", "P": "purple"}
GEOMETRY = Geometry.for_players(2)
RADIUS = 5
#: the board's arrow keys (static/js/hexboard.js): left and right along the row; up and down
#: to the neighbour up-right (down-left), else up-left (down-right) at the board's edge
KEYS = {"ArrowLeft": [(-1, 0)], "ArrowRight": [(1, 0)], "ArrowUp": [(1, -1), (0, -1)],
        "ArrowDown": [(-1, 1), (0, 1)]}


def _plan() -> tuple[bytes, int]:
    """A deal and the two players' random generators with which the keyboard's seat (A) meets
    both a swap choice and a bonus play: A plays greedily, B as the protocol's bot plays."""
    for n in range(300):
        seed = random.Random(n).randbytes(32)
        table = Table(seed)
        mine, theirs, met = random.Random(n), random.Random(10_000 + n), set()
        while not table.over:
            if table.to_act == "A":
                met.add("choice" if table.choice else
                        "bonus" if table.game.in_bonus_play else "place")
                move = greedy_move(table, mine, swap_rate=0.5)
            else:
                move = choose_move(table.view("B"), theirs)
            table.play(move)
        if {"choice", "bonus"} <= met:
            return seed, n
    raise AssertionError("no deal gives the keyboard's seat a swap choice and a bonus play")


def _inside(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def _step(cell: tuple[int, int], key: str) -> tuple[int, int] | None:
    for dq, dr in KEYS[key]:
        if _inside(cell[0] + dq, cell[1] + dr):
            return cell[0] + dq, cell[1] + dr
    return None


def keys_between(start: str, goal: str) -> list[str]:
    """The shortest run of arrow keys from one cell to another, as the board moves on them."""
    begin, end = GEOMETRY.coords_of(start), GEOMETRY.coords_of(goal)
    paths, queue = {begin: []}, deque([begin])
    while queue:
        here = queue.popleft()
        if here == end:
            return paths[here]
        for key in KEYS:
            there = _step(here, key)
            if there is not None and there not in paths:
                paths[there] = paths[here] + [key]
                queue.append(there)
    raise AssertionError(f"no keys from {start} to {goal}")


class Player:
    """The player at the keyboard: what has focus, and keys pressed until it is elsewhere."""

    def __init__(self, page) -> None:
        self.page = page

    def focused(self, test: str) -> bool:
        return self.page.evaluate(
            f"(() => {{ const e = document.activeElement; return !!e && ({test}); }})()")

    def tab_to(self, test: str, key: str = "Tab", limit: int = 60) -> None:
        for _ in range(limit):
            if self.focused(test):
                return
            self.page.keyboard.press(key)
        raise AssertionError(f"{key} never reached {test}")

    def on_cell(self) -> str:
        return self.page.evaluate(
            "document.activeElement.closest('#online-board g.cell').dataset.cell")

    def go_to_cell(self, cell: str) -> None:
        for key in keys_between(self.on_cell(), cell):
            self.page.keyboard.press(key)
        assert self.on_cell() == cell

    def to_board(self) -> None:
        self.tab_to("e.closest('#online-board') !== null", key="Shift+Tab")

    def place(self, placement: str, rack: list[str], first_move: bool, states, check) -> None:
        """Choose the tile from the rack (Enter; Enter again turns it), go to each cell by the
        arrows and press Enter there; Confirm has the focus once the tile is shown."""
        first, second = placement.split("-")
        tile = "".join(sorted(first[-1] + second[-1], key="RGBOYP".index))
        index = rack.index(tile)
        self.tab_to(f"e.matches('#rack .tile[data-index=\"{index}\"]')")
        self.page.keyboard.press("Enter")
        pressed = self.page.get_by_role("button", pressed=True)
        assert pressed.count() == 1 and pressed.get_attribute("data-index") == str(index)
        if first[-1] != tile[0]:
            self.page.keyboard.press("Enter")  # the tile turned
        check("a tile chosen: the cells it can go to named", states)
        if first_move:
            reachable = self.page.locator("#online-board").aria_snapshot()
            assert "a tile can go here" in reachable
        self.to_board()
        self.go_to_cell(first[:-1])
        self.page.keyboard.press("Enter")
        assert f"{first[:-1]}, chosen" in self.page.locator("#online-board").aria_snapshot()
        self.go_to_cell(second[:-1])
        self.page.keyboard.press("Enter")
        if self.page.get_attribute("#online", "data-preview") == "1":
            assert self.focused("e.id === 'confirm-btn'")
            shown = self.page.locator("#online-board").aria_snapshot()
            colour = NAMES[first[-1]]
            assert f"{first[:-1]}, {colour}, shown only: confirm or cancel" in shown
            check("a tile shown, Confirm focused", states)
            self.page.keyboard.press("Enter")


def board_reads(page, table: Table) -> None:
    """The board's accessibility tree names every tile on it with its colour, each start
    symbol, and every other cell free."""
    tree = page.locator("#online-board").aria_snapshot()
    cells = table.view("A")["cells"]
    for cell, colour in cells.items():
        assert f'"{cell}, {NAMES[colour]}' in tree, (cell, tree[:400])
    assert len(re.findall(r"start symbol", tree)) == 6
    assert len(re.findall(r'button "[a-k]\d+, free', tree)) == 91 - 6 - len(cells)


def scores_read(page, table: Table) -> None:
    for seat, name in (("A", "Ada First"), ("B", "Ben Second")):
        group = page.get_by_role("group", name=f"{name}'s scores").aria_snapshot()
        for colour, points in table.game.scores[seat].items():
            assert f'img "{NAMES[colour]} {points}"' in group, (seat, group)


@pytest.mark.long_story  # the seat's keys and tree: the same on either database
def test_a_whole_game_by_keyboard_and_accessibility_tree_follows_the_event(
        server, browser, arbiter):
    seed, n = _plan()
    _cup, game = online_game(arbiter, "Keys Cup", "keys-cup", seed=seed)
    failed: list[BaseException] = []
    bot = threading.Thread(target=lambda: _run(
        play_seat(server.url, game.token_b, random.Random(10_000 + n), timeout=120), failed))
    bot.start()

    page = browser.new_context(viewport={"width": 1024, "height": 800}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/p/{game.token_a}/")
    page.wait_for_selector('#online-connection[data-state="connected"]')
    me, axe, checked = Player(page), Axe(), set()

    def check(state: str, states: set) -> None:
        """axe on the page in this state, the first time the game is in it."""
        if state in states:
            return
        states.add(state)
        problems = axe_problems(axe, page)
        assert not problems, (state, problems)

    assert page.get_by_role("heading", level=1).count() == 1
    assert page.get_by_role("button", name=re.compile(r"^[a-k]\d+, start symbol, ")).count() == 6
    check("the game's start", checked)
    mine, number, announced = random.Random(n), 0, 0
    while True:
        stored = OnlineGame.objects.get(pk=game.pk)
        table = Table.restore(bytes.fromhex(stored.seed), stored.moves)
        if table.over:
            break
        if table.to_act != "A" or len(table.moves) < number:
            check("the opponent to move", checked)
            page.wait_for_timeout(30)
            continue
        number = len(table.moves)
        page.wait_for_selector(f'#online[data-number="{number}"][data-to-act="A"]')
        if number:
            board_reads(page, table)
        last = table.view("A")["actions"][-1] if number else None
        if last and last["seat"] == "B" and last["action"] == "place":  # announced, in words
            page.wait_for_function("() => document.getElementById('online-announce')"
                                   ".textContent.startsWith('Ben Second: ')")
            said = page.inner_text("#online-announce")
            first_cell = last["placement"].split("-")[0][:-1]
            assert f"{first_cell} {NAMES[last['placement'].split('-')[0][-1]]}" in said, said
            announced += 1
        move = greedy_move(table, mine, swap_rate=0.5)
        if move["move"] in ("swap", "refill"):
            check("the swap choice", checked)
            button = "swap-btn" if move["move"] == "swap" else "refill-btn"
            me.tab_to(f"e.id === '{button}'")
            page.keyboard.press("Enter")
        else:
            if table.game.in_bonus_play:
                check("a bonus play", checked)
            if not me.focused("e.closest('#online-board') !== null"):
                me.tab_to("e.closest('#online-board') !== null")
            me.place(move["placement"], table.rack("A"), number == 0, checked, check)
        page.wait_for_function("n => Number(document.getElementById('online').dataset.number) > n",
                               arg=number)
        number += 1
    bot.join(30)
    assert not failed, failed
    assert {"the swap choice", "a bonus play", "a tile shown, Confirm focused"} <= checked
    assert announced >= 5
    page.wait_for_selector("#online-end:not([hidden])")
    assert me.focused("e.id === 'end-close'")  # the end screen takes the focus
    dialog = page.get_by_role("dialog").aria_snapshot()
    result = table.game.summary().result
    assert result in dialog
    check("the end screen", checked)
    page.keyboard.press("Enter")  # Show the board
    page.wait_for_selector("#online-end", state="hidden")
    board_reads(page, table)
    scores_read(page, table)
    page.context.close()


def _run(coroutine, failed: list) -> None:
    try:
        asyncio.run(coroutine)
    except BaseException as exc:  # reported in the test's thread
        failed.append(exc)
