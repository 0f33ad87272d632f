"""The result slip's JavaScript shows the VP the server will derive: the same golden cases.

``static/js/slip.js`` repeats the game's result rule so that the arbiter sees the VP while
typing (the server derives and checks everything again). The rule's one implementation is
``tournament.standings.model.compare_levels``; this test types cases into the real page in
Chromium and compares what the page shows with what that function says (issue #13).
"""

import random

import pytest

from tests.browser.live import TIMEOUT_MS, session_cookie
from tournament import services
from tournament.standings.model import compare_levels

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COLOURS = "RGBOYP"
EDGE_CASES = [
    ([5, 5, 5, 5, 5, 5], [5, 5, 5, 5, 5, 5]),          # identical: the only draw
    ([3, 9, 9, 9, 9, 9], [9, 9, 9, 9, 9, 3]),          # same levels, other colours: a draw
    ([4, 18, 18, 18, 18, 18], [5, 5, 5, 5, 5, 5]),     # the lowest colour decides
    ([7, 7, 9, 12, 12, 12], [7, 8, 8, 18, 18, 18]),    # equal lowest: the second decides
    ([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]),          # the last colour decides
    ([18] * 6, [17, 18, 18, 18, 18, 18]),
]


def golden_cases(count: int = 24) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(20261201)
    cases = list(EDGE_CASES)
    while len(cases) < count:
        base = [rng.randint(0, 18) for _ in range(6)]
        other = base[:]
        other[rng.randrange(6)] = rng.randint(0, 18)
        rng.shuffle(other)
        cases.append((base, other))
    return cases


def vp_text(sign: int) -> tuple[str, str]:
    return {1: ("1", "0"), -1: ("0", "1"), 0: ("½", "½")}[sign]


@pytest.mark.long_story  # the slip's script: the same on either database
def test_the_slip_shows_the_vp_of_the_one_result_rule(server, browser, arbiter):
    event = services.create_event(name="Slip Rule", arbiter=arbiter)
    for name in ("Ada", "Ben"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    context = browser.new_context()
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/e/{event.slug}/arbiter/rounds/{round_.number}/results/")
    shown = []
    for first, second in golden_cases():
        for seat, scores in (("first", first), ("second", second)):
            for colour, value in zip(COLOURS, scores, strict=True):
                page.fill(f'input[name="{seat}_{colour}"]', str(value))
        shown.append((page.inner_text('tr[data-seat="first"] .vp'),
                      page.inner_text('tr[data-seat="second"] .vp')))
    expected = [vp_text(compare_levels(a, b)) for a, b in golden_cases()]
    assert shown == expected
    context.close()
