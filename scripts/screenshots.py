"""Screenshots for the README and the arbiter's guide: ``python scripts/screenshots.py``.

Starts the product on a throw-away data folder with the demo event (the same as ``make run``),
drives Debian's Chromium through Playwright, and writes PNGs to ``docs/images/``:

- ``page-*.png``: the README's pages of the demo event (``page-standings-ko.png`` in Korean);
- ``guide-*.png``: the steps of ``docs/arbiter-guide.md``, taken while the script runs a new
  event through its first round with the real buttons (create, import, pair, publish, print,
  clocks, results, a forfeit, a conflict, an absence, a withdrawal, a late entry), then the
  demo event's automatic backups;
- ``guide-checkin-*.png``: the guide's check-in section, on a new event with check-in before
  round 1 (``python scripts/screenshots.py checkin`` takes these alone);
- ``page-phone-online-game*.png``: an online game on a phone, from a new two-player event run
  online through the arbiter's pages and played a few moves through the players' pages, the
  next tile previewed before Confirm: upright at 360 px in English (``…-game``) and in
  Russian (``…-game-ru``), on its side at 844x390 (``…-game-landscape``), and the end screen
  (``…-end``) (``python scripts/screenshots.py online`` takes these alone);
- ``guide-runs-itself*.png``, ``page-phone-register.png``, ``page-phone-my-games-countdown.png``:
  an online event set to run itself, a player registering on a phone and counting down to
  round 1 in My games (``python scripts/screenshots.py runs-itself`` takes these alone).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, sync_playwright

# the bot's move choice is a pure core (no Django): the script imports it from the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from games.dealt.bot import choose_move
from games.engine import format_record, random_game

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
DESK = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
#: The guide's event: twelve players, so the format that follows the field is a Swiss.
GUIDE_EVENT = "Spring Open"
GUIDE_CSV = """name,club,country,rating
Alice Martin,Cambridge,GBR,1875
Bruno Costa,Lisbon,POR,1790
Chen Wei,Shanghai,CHN,2010
Dana Novak,Prague,CZE,1660
Erik Larsen,Oslo,NOR,1720
Fatima Haddad,Paris,FRA,1940
Gábor Kiss,Budapest,HUN,1580
Hana Sato,Kyoto,JPN,1835
Ivan Petrov,Sofia,BUL,1610
Julia Weber,Berlin,GER,1905
Kofi Mensah,Accra,GHA,1550
Lena Fischer,Vienna,AUT,1760
"""
#: Twelve colour scores typed on a slip (first player's R G B O Y P, then the second's).
SLIP = [12, 9, 14, 10, 8, 11, 9, 13, 7, 12, 10, 15]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def demo_server() -> Iterator[tuple[str, str]]:
    """A server with a fresh demo in a temporary folder: (base URL, arbiter's password)."""
    data = tempfile.mkdtemp(prefix="ingenious-shots-")
    env = {**os.environ, "DEBUG": "1", "DATA_DIR": data}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    subprocess.run([*manage, "demo"], env=env, check=True, capture_output=True)
    password = (Path(data) / "demo-arbiter-password.txt").read_text().strip()
    port = free_port()
    server = subprocess.Popen([*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", password
    finally:
        server.terminate()
        server.wait(timeout=10)


def login(page: Page, base: str, password: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    # web fonts swap in when loaded (the Hangul one on a machine without a Korean font)
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full_page)
    print(f"docs/images/{name}.png")


def submit(page: Page, selector: str) -> None:
    """Click a button that posts a form and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def readme_pages(browser: Browser, base: str, password: str) -> None:
    """The README's screenshots of the demo event (round 5 paired, its results to come)."""
    desk = browser.new_page(viewport=DESK)
    desk.on("dialog", lambda dialog: dialog.accept())  # "Start all clocks?" and the like
    login(desk, base, password)
    for name, path in [
        ("arbiter-dashboard", "/e/demo-open/arbiter/"),
        ("result-entry", "/e/demo-open/arbiter/rounds/5/results/"),
        ("standings", "/e/demo-open/standings/"),
        ("crosstable", "/e/demo-open/crosstable/"),
    ]:
        desk.goto(base + path)
        shot(desk, f"page-{name}")
    desk.goto(base + "/e/demo-open/results/?round=1")
    link = desk.locator("a[href^='/games/']").first
    record = link.get_attribute("href") if link.count() else None
    desk.goto(base + "/e/demo-open/arbiter/rounds/5/")
    board_link = desk.locator("a[href^='/b/']").first.get_attribute("href")
    desk.goto(base + "/e/demo-open/clocks/5/")
    desk.click("[data-round-command='start_round']")
    # the board's tablet opens the page first and keeps the clock; a player's phone shows it
    tablet = browser.new_page(viewport={"width": 1024, "height": 1366})
    tablet.goto(base + board_link)
    tablet.wait_for_selector('#clock-connection[data-state="connected"]')
    tablet.wait_for_timeout(1500)
    shot(tablet, "page-tablet-board")
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(base + board_link)
    phone.wait_for_selector('#clock-connection[data-state="connected"]')
    phone.wait_for_timeout(1000)
    shot(phone, "page-phone-board-clock", full_page=False)
    desk.wait_for_timeout(500)
    shot(desk, "page-clock-hall")
    phone.goto(base + "/e/demo-open/?q=Ada")
    shot(phone, "page-phone-find-yourself")
    phone.goto(base + "/e/demo-open/pairings/by-name/")
    shot(phone, "page-phone-pairings", full_page=False)
    if record:
        desk.goto(base + record)
        shot(desk, "page-game-viewer")


def korean_page(browser: Browser, base: str) -> None:
    """The standings with the footer's language switcher set to Korean (its cookie)."""
    context = browser.new_context(viewport=DESK)
    context.add_cookies([{"name": "django_language", "value": "ko", "url": base}])
    page = context.new_page()
    page.goto(base + "/e/demo-open/standings/")
    shot(page, "page-standings-ko")
    context.close()


def fill_slip(page: Page, scores: list[int], where: str = "#slip") -> None:
    for field, value in zip(page.locator(f"{where} input.score").all(), scores, strict=True):
        field.fill(str(value))


def new_event(desk: Page, base: str, name: str, *, shot_form: str = "", venue: str = "",
              **choices: str) -> str:
    """A new event through its form (``choices``: select fields), its players imported from
    the guide's CSV; answers its short name."""
    desk.goto(base + "/events/new/")
    desk.fill("#id_name", name)
    if venue:
        desk.fill("#id_venue", venue)
    for field, value in choices.items():
        desk.select_option(f"#id_{field}", value)
    if shot_form:
        shot(desk, shot_form, full_page=False)
    submit(desk, "form.card button[type=submit]")
    slug = desk.url.split("/e/")[1].split("/")[0]
    with tempfile.TemporaryDirectory() as tmp:
        csv_file = Path(tmp) / "players.csv"
        csv_file.write_text(GUIDE_CSV, encoding="utf-8")
        desk.set_input_files("input[name=csv_file]", str(csv_file))
        submit(desk, "form[action$='/players/import/'] button[type=submit]")
    return slug


def guide_pages(browser: Browser, base: str, password: str) -> None:
    """The guide's steps, in its order, on a new event made through the pages."""
    desk = browser.new_page(viewport=DESK)
    desk.on("dialog", lambda dialog: dialog.accept())  # "Start all clocks?" and the like
    login(desk, base, password)
    # 1. Create the event; 2. import the players.
    slug = new_event(desk, base, GUIDE_EVENT, shot_form="guide-new-event",
                     venue="Mind Sports Hall")
    arbiter = f"{base}/e/{slug}/arbiter"
    shot(desk, "guide-players")
    # 3. Pair and publish round 1.
    desk.goto(arbiter + "/")
    shot(desk, "guide-dashboard-pair")
    submit(desk, "button.big-action")
    shot(desk, "guide-round")
    submit(desk, "form[action$='/publish/'] button")
    # 4. Print; 5. start the clocks.
    desk.goto(arbiter + "/print/")
    shot(desk, "guide-print")
    desk.goto(f"{base}/e/{slug}/clocks/1/")
    desk.wait_for_selector('#hall-connection[data-state="connected"]')
    desk.click("[data-round-command='start_round']")
    desk.wait_for_timeout(1500)
    shot(desk, "guide-clock-hall")
    # Pairing again now asks for confirmation: the clocks are running.
    desk.goto(arbiter + "/rounds/1/")
    desk.fill("form[action$='/repair/'] input[name=reason]", "two players were missing")
    submit(desk, "form[action$='/repair/'] button")
    shot(desk, "guide-repair-confirm", full_page=False)
    desk.click("#confirm a.button")  # Cancel: keep the pairing
    # 6. Results: a slip by keyboard, then a forfeit on the board's page.
    desk.goto(arbiter + "/rounds/1/results/")
    board_one = desk.locator("#board-select").input_value()
    fill_slip(desk, SLIP)
    shot(desk, "guide-result-entry")
    with desk.expect_navigation():
        desk.keyboard.press("Enter")
    desk.goto(arbiter + "/rounds/1/")
    desk.locator("tbody tr").nth(2).locator("a", has_text="details").click()
    desk.select_option("#id_kind", "forfeit")
    desk.select_option("#id_loser_seat", "second")
    desk.fill("#id_reason", "did not come to the board")
    shot(desk, "guide-board-forfeit")
    submit(desk, "form.card button[type=submit]")
    # 7. A dispute: the players' game record of board 1 disagrees with the slip (a second slip
    # of the arbiter's own would correct it instead), pasted on the game records page.
    desk.goto(f"{arbiter}/rounds/1/results/?board={board_one}")
    players = desk.locator("#board-select option:checked").inner_text()
    first, second = (name.strip() for name in
                     players.split(": ", 1)[1].removesuffix("✓").split(" – "))
    tags = {"Event": GUIDE_EVENT, "Round": "1", "Board": "1", "First": first, "Second": second}
    desk.goto(arbiter + "/records/")
    desk.fill("textarea[name=record]",
              format_record(random_game(random.Random(7), tags=tags).record))
    submit(desk, "form.card button[type=submit]")
    desk.goto(arbiter + "/")
    shot(desk, "guide-dashboard-conflict")
    desk.click("section.conflict a")
    shot(desk, "guide-conflict")
    desk.fill("tr.conflict input[name=reason]", "first slip read the wrong row; players agree")
    submit(desk, "tr.conflict button[value='1']")
    # 8. The other boards by slip, then an absence, a withdrawal and a late entry.
    desk.goto(arbiter + "/rounds/1/results/")
    while desk.locator("#slip").count():
        fill_slip(desk, SLIP)
        with desk.expect_navigation():
            desk.keyboard.press("Enter")
    desk.goto(arbiter + "/players/")
    absent = desk.locator("tbody tr", has_text="Dana Novak")
    absent.locator("select[name=vp]").select_option("0.5")
    absent.locator("form[action$='/absence/'] input[name=reason]").fill("university exam")
    submit(desk, "tbody tr:has-text('Dana Novak') form[action$='/absence/'] button")
    leaving = "tbody tr:has-text('Kofi Mensah') form[action$='/withdraw/']"
    desk.fill(f"{leaving} input[name=reason]", "ill")
    submit(desk, f"{leaving} button")
    desk.fill("#id_name", "Maria Rossi")
    desk.fill("#id_club", "Turin")
    desk.fill("#id_rating", "1700")
    submit(desk, "form.card:not([enctype]) button[type=submit]")
    shot(desk, "guide-players-changes")
    # 9. The demo event's automatic backups (one per closed round, one every 20 results).
    desk.goto(base + "/e/demo-open/arbiter/export/")
    shot(desk, "guide-export")


def card_links(page: Page, pdf_url: str) -> list[str]:
    """The personal pages the player cards' QR codes open, read from the printed PDF as a
    phone reads them (pdftoppm and zbarimg, Debian's poppler-utils and zbar-tools)."""
    pdf = page.request.get(pdf_url).body()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "cards.pdf"
        source.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "150", "-png", str(source), str(Path(tmp) / "p")],
                       check=True)
        found = []
        for image in sorted(Path(tmp).glob("p*.png")):
            read = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True,
                                  text=True, check=False)
            found += read.stdout.split()
    return found


def checkin_pages(browser: Browser, base: str, password: str) -> None:
    """The guide's check-in section: a new event with check-in before round 1, the cards,
    the players page's ticks, the kiosk at the door, a player's phone, the dashboard."""
    desk = browser.new_page(viewport=DESK)
    desk.on("dialog", lambda dialog: dialog.accept())
    login(desk, base, password)
    slug = new_event(desk, base, "Door Open", checkin="once")
    arbiter = f"{base}/e/{slug}/arbiter"
    # the cards' QR codes, as the players' phones read them: five check in on their phones
    # (their host is this machine's address on the hall's network: the script stays local)
    links = [urlsplit(link).path for link in card_links(desk, f"{arbiter}/print/cards.pdf")]
    phone = browser.new_page(viewport=PHONE, is_mobile=True)
    for link in links[:5]:
        phone.goto(base + link)
        submit(phone, "button.big-action")
    shot(phone, "guide-checkin-phone", full_page=False)
    # the arbiter ticks two on the players page
    desk.goto(arbiter + "/players/")
    for _ in range(2):  # in place: the page's script posts and turns the button
        row = desk.locator("tbody tr:not(.checked-in)").first
        name = row.locator("td.name-col").inner_text()
        row.locator("button.checkin-tick").click()
        desk.wait_for_selector(f"tr.checked-in:has-text('{name}')")
    shot(desk, "guide-checkin-ticks")
    # the kiosk: unlocked on the tablet, a late arrival types her name without its accents
    tablet = browser.new_context(viewport={"width": 800, "height": 1000})
    door = tablet.new_page()
    login(door, base, password)
    door.goto(arbiter + "/")
    submit(door, "form[action$='/kiosk/unlock/'] button")
    door.context.clear_cookies(name="sessionid")
    door.goto(f"{base}/e/{slug}/kiosk/")
    door.fill("#kiosk-q", "gabor")
    with door.expect_navigation():
        door.keyboard.press("Enter")
    shot(door, "guide-checkin-kiosk", full_page=False)
    submit(door, "button:has-text('Gábor Kiss')")
    submit(door, "button:has-text('Yes, check me in')")
    tablet.close()
    # the dashboard: who is missing, and marking them absent
    desk.goto(arbiter + "/")
    desk.locator("#checkin").scroll_into_view_if_needed()
    desk.locator("#checkin").screenshot(path=str(OUT / "guide-checkin-dashboard.png"))
    print("docs/images/guide-checkin-dashboard.png")
    submit(desk, "form[action$='/checkin-absent/'] button")
    shot(desk, "guide-checkin-absent", full_page=False)
    submit(desk, "form.card.conflict button[type=submit]")
    # round 1 without the missing players; the players confirm their results on their phones
    desk.goto(arbiter + "/")
    submit(desk, "button.big-action")
    submit(desk, "form[action$='/publish/'] button")
    seated = []
    for link in links:
        phone.goto(base + link)
        if phone.locator(".confirm-panel form").count():
            seated.append(link)
    for n, link in enumerate(seated):
        phone.goto(base + link)
        scores = SLIP if n != 3 else [*SLIP[:11], SLIP[11] - 2]  # one player misreads a score
        fill_slip(phone, scores, ".confirm-panel")
        if n == 0:
            shot(phone, "guide-confirm-phone", full_page=False)
        phone.click(".confirm-panel button[type=submit]")
        phone.wait_for_load_state()
        if len(seated) - n <= 3:  # the last boards wait for their second player
            break
    desk.goto(arbiter + "/rounds/1/")
    shot(desk, "guide-confirm-round")


def online_page(browser: Browser, base: str, password: str, moves: int = 16) -> None:
    """A two-player event run online through the arbiter's pages, a few moves played through
    the two players' pages (typed, the bot's choice from the page's own view), then seat A's
    phone."""
    desk = browser.new_page(viewport=DESK)
    desk.on("dialog", lambda dialog: dialog.accept())  # "Start all clocks?" and the like
    login(desk, base, password)
    desk.goto(base + "/events/new/")
    desk.fill("#id_name", "Online Evening")
    submit(desk, "form.card button[type=submit]")
    slug = desk.url.split("/e/")[1].split("/")[0]
    arbiter = f"{base}/e/{slug}/arbiter"
    with tempfile.TemporaryDirectory() as tmp:
        csv_file = Path(tmp) / "players.csv"
        csv_file.write_text("name\nAlice Martin\nChen Wei\n", encoding="utf-8")
        desk.set_input_files("input[name=csv_file]", str(csv_file))
        submit(desk, "form[action$='/players/import/'] button[type=submit]")
    desk.goto(arbiter + "/")
    submit(desk, "button.big-action")
    submit(desk, "form[action$='/publish/'] button")
    desk.goto(arbiter + "/online/1/")
    submit(desk, "form[action$='/mark/'] button")
    submit(desk, "form[action$='/start/'] button")
    # The page gives each seat's link on the hall's address (what a phone opens); the script's
    # server listens on this computer only, so the links are opened on its address.
    links = {row.get_attribute("data-seat"):
             base + urlsplit(row.locator(".seat-link").get_attribute("href")).path
             for row in desk.locator(".online-board .seat[data-seat]").all()}
    phones = {seat: browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
              for seat in links}
    rng = random.Random(3)
    for _ in range(moves):
        views = {}
        for seat, page in phones.items():
            page.goto(links[seat])
            page.wait_for_selector('#online-connection[data-state="connected"]')
            views[seat] = json.loads(page.inner_text("#online-initial"))
        seat = views["A"]["to_act"]
        if seat is None:
            break
        move = choose_move(views[seat], rng, swap_rate=0.0)
        page = phones[seat]
        if move["move"] == "refill":
            page.click("#refill-btn")
        else:
            page.fill("#entry-text", move["placement"])
            page.press("#entry-text", "Enter")
        page.wait_for_selector(f'#online[data-number="{views[seat]["number"] + 1}"]')
    phones["A"].goto(links["A"])  # whose turn it is now, after the last move
    seat = json.loads(phones["A"].inner_text("#online-initial"))["to_act"] or "A"
    for name, viewport, language in (("page-phone-online-game", PHONE_SMALL, "en"),
                                     ("page-phone-online-game-ru", PHONE_SMALL, "ru"),
                                     ("page-phone-online-game-landscape", PHONE_SIDE, "en")):
        phone = _phone(browser, base, viewport, language)
        phone.goto(links[seat])
        phone.wait_for_selector('#online-connection[data-state="connected"]')
        view = json.loads(phone.inner_text("#online-initial"))
        _preview(phone, view, choose_move(view, random.Random(5), swap_rate=0.0))
        phone.wait_for_timeout(300)
        shot(phone, name, full_page=False)
        phone.context.close()
    phone = _phone(browser, base, PHONE_SMALL, "en")
    phone.on("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    phone.goto(links[seat])
    phone.wait_for_selector('#online-connection[data-state="connected"]')
    phone.click("#resign-btn")
    phone.wait_for_selector("#online-end")
    phone.wait_for_timeout(300)
    shot(phone, "page-phone-online-end", full_page=False)
    phone.context.close()


PHONE_SMALL = {"width": 360, "height": 740}
PHONE_SIDE = {"width": 844, "height": 390}


def runs_itself_pages(browser: Browser, base: str, password: str) -> None:
    """An online event set to run itself through its Runs itself page (registrations waiting
    for approval), a player registering on a phone with a new login, the arbiter accepting
    it, and the player's My games counting down to round 1."""
    desk = browser.new_page(viewport=DESK)
    login(desk, base, password)
    slug = new_event(desk, base, "Online Open")
    desk.goto(f"{base}/e/{slug}/arbiter/runs-itself/")
    start = datetime.datetime.now() + datetime.timedelta(hours=2)  # the server's zone: UTC
    desk.fill("#id_first_round_at", start.strftime("%Y-%m-%dT%H:%M"))
    desk.fill("#id_registration_closes_at",
              (start - datetime.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M"))
    desk.check("#id_approval")
    desk.fill("#id_late_until_round", "3")
    shot(desk, "guide-runs-itself-settings")
    submit(desk, "#autopilot-settings button[type=submit]")
    phone = browser.new_page(viewport=PHONE, is_mobile=True)
    phone.goto(f"{base}/e/{slug}/")
    with phone.expect_navigation():
        phone.click("#event-entry a")
    phone.fill("#id_new-username", "nadia")
    phone.fill("#id_new-password1", "a-long-pass-39")
    phone.fill("#id_new-password2", "a-long-pass-39")
    phone.fill("#id_name", "Nadia Rahman")
    phone.fill("#id_club", "Dhaka")
    shot(phone, "page-phone-register")
    submit(phone, "#register button[type=submit]")
    desk.goto(f"{base}/e/{slug}/arbiter/runs-itself/")
    submit(desk, "#registrations form[action$='/accept/'] button")
    shot(desk, "guide-runs-itself")
    phone.goto(f"{base}/my-games/")
    phone.locator(".next-round .countdown").wait_for()
    phone.wait_for_timeout(1200)  # the countdown has ticked
    shot(phone, "page-phone-my-games-countdown")
    desk.close()
    phone.close()


def _phone(browser: Browser, base: str, viewport: dict, language: str) -> Page:
    """A phone's page (touch) reading the site in ``language`` (the switcher's cookie)."""
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    return context.new_page()


def _preview(page: Page, view: dict, move: dict) -> None:
    """Tap the move's tile (again to turn it) and its two cells: the tile shows on the board,
    waiting for Confirm."""
    if move["move"] != "place":
        return
    first, second = move["placement"].split("-")
    tile = "".join(sorted(first[-1] + second[-1], key="RGBOYP".index))
    index = view["rack"].index(tile)
    page.click(f'#rack .tile[data-index="{index}"]')
    if first[-1] != tile[0]:
        page.click(f'#rack .tile[data-index="{index}"]')
    page.click(f'#online-board g[data-cell="{first[:-1]}"]')
    page.click(f'#online-board g[data-cell="{second[:-1]}"]')


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    only = sys.argv[1:]
    with demo_server() as (base, password), sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        if not only:
            readme_pages(browser, base, password)
            korean_page(browser, base)
            guide_pages(browser, base, password)
        if not only or "checkin" in only:
            checkin_pages(browser, base, password)
        if not only or "online" in only:
            online_page(browser, base, password)
        if not only or "runs-itself" in only:
            runs_itself_pages(browser, base, password)
        browser.close()
    print(f"screenshots written to {OUT}")


if __name__ == "__main__":
    main()
