"""Scenario 4: a four-player event's first round, clicked through in a real Chromium.

The organiser logs in, creates the event with the default settings (four players: a round
robin), enters the players, pairs and publishes round 1, types both slips on the result entry
page and reads the public standings. Then the same checks as every other story run on the
event the browser built.
"""

import pytest
from django.contrib.auth import get_user_model

from tests.accounts import make_organiser
from tests.browser.live import TIMEOUT_MS
from tests.scenarios import checks
from tests.scenarios.story import EventStory
from tournament.models import Event, Round

# long_story: the same round robin as the scenarios that run on PostgreSQL, through Chromium
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.long_story]

NAMES = ["Ada", "Ben", "Cleo", "Dan"]
PASSWORD = "pw-organiser-1"
WINNER, LOSER = ["10", "11", "12", "13", "14", "15"], ["9", "11", "12", "13", "14", "15"]


@pytest.fixture
def organiser(transactional_db):
    return make_organiser(get_user_model().objects.create_user("organiser", password=PASSWORD))


def types_slip(page, first, second):
    for seat, scores in (("first", first), ("second", second)):
        for colour, score in zip("RGBOYP", scores, strict=True):
            page.fill(f'#slip input[name="{seat}_{colour}"]', score)
    page.click("#slip button[type=submit]")
    page.wait_for_load_state()


def test_a_four_player_round_robin_plays_its_first_round_in_chromium(
    server, browser, organiser
):
    page = browser.new_page(viewport={"width": 1100, "height": 1400})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()

    page.goto(f"{server.url}/events/new/")
    page.fill('input[name="name"]', "Browser Cup")
    page.click("form.card button[type=submit]")
    page.wait_for_url("**/arbiter/players/")
    slug = page.url.split("/e/")[1].split("/")[0]
    for name in NAMES:
        page.fill('form.card input[name="name"]', name)
        page.click("form.card:has(input[name='name']) button[type=submit]")
        page.wait_for_selector(f"table.data td:has-text('{name}')")

    page.goto(f"{server.url}/e/{slug}/arbiter/")
    page.click("button.big-action")
    page.wait_for_url("**/arbiter/rounds/1/")
    page.click("form[action$='/publish/'] button")
    page.wait_for_selector(".status-published")

    page.goto(f"{server.url}/e/{slug}/arbiter/rounds/1/results/")
    types_slip(page, WINNER, LOSER)
    types_slip(page, LOSER, WINNER)
    assert page.locator("#slip").count() == 0  # every board has a result

    public = browser.new_page()
    public.set_default_timeout(TIMEOUT_MS)
    public.goto(f"{server.url}/e/{slug}/standings/")
    rows = public.locator("table.standings tbody tr")
    assert rows.count() == 4
    assert [rows.nth(i).locator("td").nth(3).inner_text() for i in range(4)] == [
        "1", "1", "0", "0"]

    event = Event.objects.get(slug=slug)
    assert event.pairing_system == Event.PairingSystem.ROUND_ROBIN
    assert list(event.rounds.values_list("status", flat=True)) == [Round.Status.PUBLISHED]
    story = EventStory(organiser, checks=checks.ALWAYS)
    story.slug = slug
    story.checked("round 1 played in the browser")
