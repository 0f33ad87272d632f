"""The projector pages through its screens and reloads itself for new results; WCAG 2.2.1 asks
that such timed content can be stopped: its Pause button (or Space, or P) stops both, and
pressing it again reloads at once. Time runs on Playwright's clock, not the wall's."""

import random

import pytest

from games import simulation
from tests.browser.live import TIMEOUT_MS
from tournament import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown(page) -> str:
    """The heading of the screen on the wall now."""
    return page.locator("#pages .page:not([hidden]) h1").inner_text()


def test_the_projector_can_be_paused_and_resumed(server, browser, arbiter):
    event = simulation.create_event("Projector Open", 12, random.Random(4), rounds=7,
                                    arbiter=arbiter)
    simulation.run(event, random.Random(4), rounds=1, user=arbiter)
    services.publish_round(services.pair_next_round(event))
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.set_default_timeout(TIMEOUT_MS)
    page.clock.install()
    page.goto(f"{server.url}/e/{event.slug}/projector/")
    first = shown(page)
    page.clock.run_for(13_000)  # one screen lasts 12 s
    assert shown(page) != first
    page.evaluate("window.stillHere = true")
    page.get_by_role("button", name="Pause").click()
    assert page.get_by_role("button", name="Resume").get_attribute("aria-pressed") == "true"
    paused_on = shown(page)
    page.clock.run_for(120_000)  # past two pages and the minute's reload: nothing moves
    assert shown(page) == paused_on and page.evaluate("window.stillHere") is True
    with page.expect_navigation():
        page.keyboard.press("Space")  # resumes: a fresh page with the latest results
    assert page.evaluate("window.stillHere") is None
    page.close()
