"""An event that runs itself, seen from a player's phone (issue #39), in a real Chromium at
390x844 against a server whose flag-timer process runs the automation: nobody but the server
acts once the player has registered.

The player opens the event's page, registers (a new login on the same form), lands on My
games, which counts down to round 1; at round 1's time the server pairs, publishes, deals and
starts it, and the page becomes the player's seat without a reload, with a notification.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from autopilot import services as autopilot
from bench.servers import AsgiServer
from tests.browser.live import TIMEOUT_MS
from tests.clocks.servers import wait_for_other_sessions_to_end
from tournament import services
from tournament.models import Event

# long_story: on PostgreSQL the runner's paths run in tests/autopilot, and a real server's
# automation on PostgreSQL + Redis in bench_autopilot
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.long_story]

PHONE = {"width": 390, "height": 844}
#: A notification as the page makes it, kept across the page's navigation to the seat.
NOTIFICATIONS = """
window.Notification = function (text) {
  var seen = JSON.parse(sessionStorage.getItem("notes") || "[]");
  seen.push(text);
  sessionStorage.setItem("notes", JSON.stringify(seen));
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


@pytest.fixture
def server():
    running = AsgiServer(flag_timer=True)  # the embedded flag timer runs the automation
    try:
        yield running.wait_listening()
    finally:
        print(f"server log:\n{running.log_tail()}")
        running.stop()
        wait_for_other_sessions_to_end()


def test_runs_itself_my_games_counts_down_and_becomes_the_seat(server, browser, arbiter):
    event = services.create_event(name="Phone Open", slug="phone-open", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.SWISS, rounds_planned=1)
    services.add_player(event, name="Ben Second", rating=1500)
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=20)
    autopilot.configure(event, {"first_round_at": start, "registration_closes_at": start},
                        user=arbiter)
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_init_script(NOTIFICATIONS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + reverse("event_home", args=[event.slug]))
    page.click("#event-entry a")
    page.fill("#id_new-username", "ada")
    page.fill("#id_new-password1", "a-long-pass-39")
    page.fill("#id_new-password2", "a-long-pass-39")
    page.fill("#id_name", "Ada First")
    page.click("#register button[type=submit]")
    page.wait_for_url("**/my-games/")
    assert "You are registered for Phone Open" in page.inner_text("main")
    countdown = page.locator(".next-round .countdown")
    countdown.wait_for()
    assert countdown.inner_text().startswith("in 0:")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # nobody acts: at round 1's time the server starts it, and the page goes to the seat
    page.wait_for_url("**/p/*/", timeout=45_000)
    page.wait_for_selector('#online-connection[data-state="connected"]')
    assert "Ada First" in page.inner_text(".player .name:has(.you)")
    assert "Board 1 · round 1" in page.inner_text("body")
    notes = page.evaluate("JSON.parse(sessionStorage.getItem('notes') || '[]')")
    assert notes == ["Round 1: your game has started"]
    context.close()
