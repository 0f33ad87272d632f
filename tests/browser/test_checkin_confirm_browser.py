"""Results the players confirm, in Chromium at phone width (issue #24).

One player types the twelve scores on /my-games/confirm/<board>/ and sees the VP derived as they
type (the slip table and slip.js the arbiter's slip page uses), submits; the opponent finds
those scores pre-filled and accepts them; the result is stored from the players. The page and
the arbiter's round page pass axe-core's WCAG 2.1 AA rules at 390 px.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.browser.live import TIMEOUT_MS, session_cookie
from tests.browser.page_checks import WCAG_21_AA
from tournament import services
from tournament.models import Event, PlayerLogin, Result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COLOURS = "RGBOYP"
FIRST = [9, 12, 10, 11, 13, 14]    # lowest 9
SECOND = [8, 18, 18, 18, 18, 18]   # lowest 8


def _login(player, username):
    user = get_user_model().objects.create_user(username, password="pw-" + username + "-1")
    PlayerLogin.objects.create(player=player, event=player.event, user=user,
                               attached_at=timezone.now())
    return user


def _phone(browser, server, user):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([session_cookie(user, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


def _axe(page) -> list[str]:
    results = Axe().run(page, options=WCAG_21_AA)
    return [f"{rule['id']}: {', '.join(' '.join(node['target']) for node in rule['nodes'])}"
            for rule in results.response["violations"]]


def test_a_player_confirms_and_the_other_accepts(server, browser, arbiter):
    event = services.create_event(name="Confirm Open", arbiter=arbiter,
                                  player_results=Event.PlayerResults.ALWAYS)
    for name in ("Ada", "Ben"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    board = round_.boards.select_related("first", "second").get(second__isnull=False)
    url = f"{server.url}/my-games/confirm/{board.pk}/"

    context, page = _phone(browser, server, _login(board.first, "ada1"))
    page.goto(url)
    assert "Waiting for your confirmation" in page.inner_text(".confirm-state")
    # #36, item 4: the twelve boxes are all in view at 390 px, purple included, without
    # swiping the table sideways
    for seat in ("first", "second"):
        for colour in COLOURS:
            box = page.locator(f'input[name="{seat}_{colour}"]').bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (seat, colour, box)
    for seat, scores in (("first", FIRST), ("second", SECOND)):
        for colour, value in zip(COLOURS, scores, strict=True):
            page.fill(f'input[name="{seat}_{colour}"]', str(value))
    assert page.inner_text('tr[data-seat="first"] .vp') == "1"
    assert page.inner_text('tr[data-seat="second"] .vp') == "0"
    assert page.inner_text('tr[data-seat="first"] .lowest').startswith("9")
    # also below the table, in view on a phone without swiping the table sideways
    assert page.inner_text(".confirm-panel .slip-summary").startswith("Ada 1 – 0 Ben")
    assert _axe(page) == []
    # the table fits the phone: the page itself does not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with page.expect_navigation():
        page.click('.confirm-panel button[type="submit"]')
    assert "You confirmed at" in page.inner_text(".confirm-state")
    context.close()

    context, page = _phone(browser, server, _login(board.second, "ben1"))
    page.goto(url)
    assert "Ada entered these scores" in page.inner_text(".confirm-state")
    assert page.input_value('input[name="second_R"]') == "8"
    assert page.inner_text('tr[data-seat="second"] .vp') == "0"   # derived on load
    # changing one of Ada's numbers marks that cell and turns the button into "Send my
    # version"; typing it back restores both
    button = page.locator('.confirm-panel button[type="submit"]')
    assert button.inner_text() == "Accept these scores"
    page.fill('input[name="first_P"]', "13")
    assert "differs" in page.get_attribute('input[name="first_P"]', "class")
    assert page.locator("input.score.differs").count() == 1
    assert button.inner_text() == "Send my version"
    page.fill('input[name="first_P"]', "14")
    assert page.locator("input.score.differs").count() == 0
    assert button.inner_text() == "Accept these scores"
    with page.expect_navigation():
        page.click('.confirm-panel button[type="submit"]')
    assert "Confirmed by both" in page.inner_text(".confirm-state")
    context.close()
    assert services.current_result(board).source == Result.Source.PLAYERS

    context, page = _phone(browser, server, arbiter)
    page.goto(f"{server.url}/e/{event.slug}/arbiter/rounds/1/")
    assert "1 of 1 confirmed by players" in page.inner_text("#confirm-summary")
    assert _axe(page) == []
    context.close()


@pytest.mark.long_story  # the phone's layout: the same on either database
@pytest.mark.parametrize("language", ["en", "ru"])
def test_record_explains_all_twelve_scores_in_view_with_long_names_at_390(
        server, browser, arbiter, language):
    """Long names used to widen the name column until purple was cut off and the table asked
    to be swiped: on a phone each name has a line of its own above its six scores."""
    event = services.create_event(name="Confirm Long", arbiter=arbiter,
                                  player_results=Event.PlayerResults.ALWAYS)
    for name in ("Katherine Johnson-Goble", "Bartholomew Featherstonehaugh"):
        services.add_player(event, name=name)
    round_ = services.publish_round(services.pair_next_round(event))
    board = round_.boards.select_related("first", "second").get(second__isnull=False)
    context, page = _phone(browser, server, _login(board.first, f"kj-{language}"))
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page.goto(f"{server.url}/my-games/confirm/{board.pk}/")
    for seat in ("first", "second"):
        for colour in COLOURS:
            box = page.locator(f'input[name="{seat}_{colour}"]').bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (seat, colour, box)
        lines = page.locator(f'tr[data-seat="{seat}"] .name-col').evaluate("""e => {
            const r = document.createRange(); r.selectNodeContents(e);
            return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }""")
        assert lines == 1, seat  # the whole name on its line, not broken inside a word
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wrap = page.locator(".confirm-panel .table-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    context.close()
