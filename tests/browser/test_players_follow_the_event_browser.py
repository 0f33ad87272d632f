"""A self-running Swiss followed by its players' open pages (issue #45), in real Chromium on
phones, against a server whose own flag timer runs the event, killed with SIGKILL twice.

Four players, three rounds. Ada stays on her finished game's end screen, Ben on My games, Cy
on the event's page; Dee is a program on the protocol (docs/online-protocol.md) that resigns
when told. The arbiter pauses the automation from the Runs itself page while round 1's last
game is played and resumes it once everyone has gone back to their page; the server is
killed in the middle of round 2 (its downtime is given back to the running clock) and again
right after round 2 closes (its backup is there when it is back). At every round's start each
page goes to the player's new seat by itself (no reload), and nobody is forfeited.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from autopilot import services as autopilot
from backups import automatic
from bench.servers import AsgiServer
from clocks.models import Clock, ClockLogEntry
from games.botclient import open_socket
from games.models import OnlineGame
from tests.browser.live import TIMEOUT_MS, session_cookie
from tests.browser.test_runs_itself_browser import NOTIFICATIONS
from tests.clocks.servers import wait_for_other_sessions_to_end
from tournament import services
from tournament.models import Event, PlayerLogin, Result, Round

# long_story: the same paths run on PostgreSQL + Redis in tests/online and tests/autopilot
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.long_story]

PHONE = {"width": 390, "height": 844}
PLAYERS = (("Ada First", 2000), ("Ben Second", 1900), ("Cy Third", 1800), ("Dee Fourth", 1700))


class Venue:
    """The server the phones reach, which the story kills and starts again on the same port
    (as a process manager would)."""

    def __init__(self, backups) -> None:
        self.env = {"BACKUP_DIR": str(backups)}
        self.server = AsgiServer(flag_timer=True, extra_env=self.env).wait_listening()
        self.url = self.server.url
        self.logs: list[str] = []

    def kill(self) -> float:
        """SIGKILL: nothing is closed, flushed or written. Returns the monotonic time."""
        self.server.process.kill()
        self.server.process.wait()
        self.logs.append(self.server.log_tail())
        return time.monotonic()

    def start(self) -> None:
        self.server = AsgiServer(port=self.server.port, flag_timer=True,
                                 extra_env=self.env).wait_listening()

    def stop(self) -> None:
        self.logs.append(self.server.log_tail())
        self.server.stop()


@pytest.fixture
def venue(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"  # where the test reads what the server wrote
    running = Venue(settings.BACKUP_DIR)
    try:
        yield running
    finally:
        running.stop()
        print("server logs:\n" + "\n---\n".join(running.logs))
        wait_for_other_sessions_to_end()


def seat_url(event: Event, number: int, name: str) -> str | None:
    """The player's own seat link in round ``number``, once its game is dealt (None before)."""
    for game in OnlineGame.objects.select_related("board__first", "board__second").filter(
            board__round__event=event, board__round__number=number):
        if game.board.first.name == name:
            return f"/p/{game.token_a}/"
        if game.board.second is not None and game.board.second.name == name:
            return f"/p/{game.token_b}/"
    return None


def opponent(event: Event, number: int, name: str) -> str:
    board = next(b for b in Round.objects.get(event=event, number=number).boards.all()
                 if name in (b.first.name, b.second.name))
    return board.second.name if board.first.name == name else board.first.name


def resigns(venue: Venue, link: str) -> None:
    """A program on the protocol opens the seat and resigns (in a thread of its own: the
    browser's driver keeps an event loop in this one)."""
    async def play() -> None:
        socket = await open_socket(venue.url, "/ws/play/" + link.split("/")[2] + "/")
        try:
            while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "state":
                pass
            await socket.send(json.dumps({"type": "move", "move": "resign"}))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                assert message["type"] not in ("error", "refused"), message
                if message["type"] == "state" and message["view"]["over"]:
                    return
        finally:
            await socket.close()

    failed: list[BaseException] = []
    thread = threading.Thread(target=lambda: _run(play(), failed))
    thread.start()
    thread.join(30)
    assert not failed, failed


def _run(coroutine, failed: list) -> None:
    try:
        asyncio.run(coroutine)
    except BaseException as exc:  # reported in the test's thread
        failed.append(exc)


def phone(browser, venue: Venue, user):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_init_script(NOTIFICATIONS)
    context.add_cookies([session_cookie(user, venue)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    return page


def arrives_by_itself(page, link: str) -> None:
    """The page goes to ``link`` with nobody touching it, and plays there: not a reload."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_url(f"**{link}", timeout=45_000)
    except PlaywrightTimeout:
        state = page.evaluate("""() => [document.querySelector('.follows-news')?.dataset.news,
            document.getElementById('online-connection')?.dataset.state]""")
        raise AssertionError(f"{page.url} did not go to {link} (sockets {state}): "
                             f"{page.inner_text('body')[:600]!r}") from None
    page.wait_for_selector('#online-connection[data-state="connected"]')
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def resign_on(page) -> None:
    page.click("#options-btn")
    page.click("#resign-btn")
    page.wait_for_selector("#online-end:not([hidden])")


def end_says(page, text: str) -> None:
    page.wait_for_function(
        "text => (document.getElementById('end-next').textContent || '').includes(text)", arg=text)


def wait_until(check, timeout: float = 30, step: float = 0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if found := check():
            return found
        time.sleep(step)
    raise AssertionError(f"not reached within {timeout} s: {check.__doc__ or check}")


def test_three_players_pages_follow_a_self_running_swiss_follows_the_event(
        venue, browser, arbiter):
    event = services.create_event(name="Follow Open", slug="follow-open", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.SWISS, rounds_planned=3)
    users = {}
    for name, rating in PLAYERS:
        player = services.add_player(event, name=name, rating=rating)
        users[name] = get_user_model().objects.create_user(name.split()[0].lower(),
                                                           password="pw-follow-39")
        PlayerLogin.objects.create(player=player, event=event, user=users[name],
                                   attached_at=timezone.now())
    start = timezone.now() + datetime.timedelta(seconds=12)
    autopilot.configure(event, {"first_round_at": start, "registration": False,
                                "schedule": "after", "minutes": 0}, user=arbiter)
    my_games, event_page = reverse("my_games"), reverse("event_home", args=[event.slug])
    ada, ben, cy = (phone(browser, venue, users[n]) for n in ("Ada First", "Ben Second",
                                                                  "Cy Third"))
    for page, path in ((ada, my_games), (ben, my_games), (cy, event_page)):
        page.goto(venue.url + path)
    cy.wait_for_selector('.follows-news[data-news="connected"] .my-seat')
    assert "Round 1 starts at" in cy.inner_text("#your-game")

    # Round 1 (Ada–Cy, Ben–Dee): every page goes to its seat at the round's time.
    for page, name in ((ada, "Ada First"), (ben, "Ben Second"), (cy, "Cy Third")):
        arrives_by_itself(page, wait_until(lambda n=name: seat_url(event, 1, n), 45))
    assert opponent(event, 1, "Ada First") == "Cy Third"
    resign_on(cy)
    ada.wait_for_selector("#online-end:not([hidden])")
    end_says(ada, "Round 2 starts as soon as the last game of round 1 ends.")
    cy.goto(venue.url + event_page)  # Cy goes back to the event's page

    # The arbiter pauses while Ben–Dee is played; Ben resigns and goes back to My games.
    desk = phone(browser, venue, arbiter)
    desk.goto(venue.url + reverse("autopilot_settings", args=[event.slug]))
    desk.fill("#pause-reason", "tea break")
    desk.click("#autopilot-pause")
    end_says(ada, "The event is paused: tea break")
    cy.wait_for_selector("#your-game .paused-event")
    resign_on(ben)
    ben.goto(venue.url + my_games)
    ben.wait_for_selector(".my-seat .paused-event")
    assert "tea break" in ben.inner_text(".my-seat .paused-event")
    time.sleep(2)  # paused: round 1 is not closed, nothing starts
    assert Round.objects.get(event=event, number=1).status != Round.Status.CLOSED
    desk.click("#autopilot-resume")

    # Round 2 (Ada–Dee, Ben–Cy) from the end screen, My games and the event page alike.
    for page, name in ((ada, "Ada First"), (ben, "Ben Second"), (cy, "Cy Third")):
        arrives_by_itself(page, wait_until(lambda n=name: seat_url(event, 2, n), 30))
    assert opponent(event, 2, "Ada First") == "Dee Fourth"
    resign_on(cy)  # Ben wins; both go back to their pages
    ben.goto(venue.url + my_games)
    cy.goto(venue.url + event_page)
    for page in (ben, cy):
        page.wait_for_selector('.follows-news[data-news="connected"] .my-seat')

    # The server is killed in the middle of round 2: Ada's clock runs; 4 s to come back.
    ada_clock = Clock.objects.get(board__round__event=event, board__round__number=2,
                                  board__in=Round.objects.get(event=event, number=2).boards
                                  .filter(Q(first__name="Ada First") | Q(second__name="Ada First")))
    killed = venue.kill()
    time.sleep(4)
    venue.start()
    down = time.monotonic() - killed
    given = wait_until(lambda: ClockLogEntry.objects.filter(clock=ada_clock, who="server",
                                                            action="resume").first(), 20)
    pause = ClockLogEntry.objects.get(clock=ada_clock, who="server", action="pause")
    back_s = (given.server_ms - pause.server_ms) / 1000
    assert down - 0.5 <= back_s <= down + 1.5, (down, back_s)
    assert f"{back_s:.1f} s given back to both players" in pause.detail["reason"]
    assert Clock.objects.get(pk=ada_clock.pk).link["notes"][-1].startswith(
        "server restarted at ")
    ada.wait_for_selector('#online-connection[data-state="connected"]')
    for page in (ben, cy):
        page.wait_for_selector('.follows-news[data-news="connected"]', timeout=20_000)

    # Dee resigns; the server is killed right after round 2 closes, before anything else.
    resigns(venue, seat_url(event, 2, "Dee Fourth"))
    wait_until(lambda: Round.objects.get(event=event, number=2).status == Round.Status.CLOSED,
               20, step=0.005)
    venue.kill()
    time.sleep(2)
    venue.start()
    written = wait_until(lambda: [b for b in automatic.stored(event)
                                  if b.why == "round-2-closed"], 30)
    assert written

    # Round 3 (Ada–Ben, Cy–Dee) starts on the restarted server: the pages reconnected to it.
    for page, name in ((ada, "Ada First"), (ben, "Ben Second"), (cy, "Cy Third")):
        arrives_by_itself(page, wait_until(lambda n=name: seat_url(event, 3, n), 30))
    resign_on(ben)
    resigns(venue, seat_url(event, 3, "Dee Fourth"))
    for page in (ada, ben, cy):
        end_says(page, "The event is over.")
    assert ada.get_attribute("#end-next a", "href") == reverse("event_standings",
                                                               args=[event.slug])
    assert not OnlineGame.objects.filter(board__round__event=event).exclude(no_show="").exists()
    accepted = Result.objects.filter(board__round__event=event, status=Result.Status.ACCEPTED)
    assert accepted.count() == 6
    notes = ada.evaluate("JSON.parse(sessionStorage.getItem('notes') || '[]')")
    assert "Round 3: your game has started" in notes

