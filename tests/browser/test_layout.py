"""No layout breaks: every page of a demo-like event at phone, tablet and laptop widths.

A page may never scroll sideways as a whole: wide tables scroll inside their own
``.table-wrap`` with the lead columns (rank or board, and the name) kept in view and the rest
still visible beside them. At laptop width nothing of this 14-player event needs scrolling at
all (the clock hall's controls included), and badges keep their pill shape. One Chromium page
per width visits every public page anonymously, then every arbiter page with an arbiter's
session, then a player's "My games" with the player's session; all breakages are collected
and reported together, each naming the element that sticks out of the viewport.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from clocks import services as clock_services
from games import simulation
from games.models import GameRecord
from tests.accounts import make_organiser
from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    server,
    session_cookie,
)
from tournament import services
from tournament.models import Board, Event
from tournament.services import logins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "tablet": (820, 1180), "laptop": (1366, 768)}
CLOCK_CONNECTED = '.connection[data-state="connected"]'
#: Long names and clubs, as real entry lists have them: they are what pushes pages wide.
NAMES = [
    ("Maximiliane Hohenzollern-Sigmaringen", "Schachfreunde Rheinhausen-Oberhausen 1921"),
    ("Ada Lovelace", "London"), ("Blaise Pascal", "Paris"), ("Carl Gauss", "Göttingen"),
    ("Dorothy Vaughan", "Hampton"), ("Emmy Noether", "Erlangen"), ("Grace Hopper", "New York"),
    ("Henri Poincaré", "Nancy"), ("Ida Rhodes", "Kiev"), ("John Conway", "Liverpool"),
    ("Katherine Johnson", "Hampton"), ("Leonhard Euler", "Basel"),
    ("Mary Somerville", "Jedburgh"), ("Sofia Kovalevskaya", "Stockholm"),
]

#: The widest element whose right edge leaves the viewport, among elements that are the first
#: of their line of ancestors to do so (their parent still fits): that is the culprit, not the
#: body it pushes wide. Elements inside a scrolling or clipping container are not counted,
#: they scroll there; fixed elements never scroll the page.
OVERFLOW_JS = """
() => {
  const limit = window.innerWidth + 1;
  const page = document.documentElement.scrollWidth;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible" || style.position === "fixed") return true;
    }
    return getComputedStyle(el).position === "fixed";
  };
  const describe = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    if (el.classList.length) text += "." + [...el.classList].join(".");
    const words = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return words ? `${text} "${words}"` : text;
  };
  const culprits = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right + window.scrollX <= limit || clipped(el)) continue;
    const parent = el.parentElement.getBoundingClientRect();
    if (parent.right + window.scrollX > limit && el.parentElement !== document.body) continue;
    culprits.push({what: describe(el), width: Math.round(box.width),
                   right: Math.round(box.right + window.scrollX)});
  }
  culprits.sort((a, b) => b.width - a.width);
  const bare = [...document.querySelectorAll("table")].filter(
    (t) => !t.closest(".table-wrap")).map(describe);
  return {page, viewport: window.innerWidth, culprits: culprits.slice(0, 3), bare};
}
"""

#: Scrolls each table that is wider than its ``.table-wrap`` to its right end and lists those
#: whose lead columns (the sticky ones: name, with rank or board before it) leave their frame,
#: or cover the rest of the row so that its last column cannot be seen beside them.
NAME_KEPT_JS = """
() => {
  const lost = [];
  for (const wrap of document.querySelectorAll(".table-wrap")) {
    const row = wrap.querySelector("tbody tr");
    if (!row || wrap.scrollWidth <= wrap.clientWidth + 1) continue;
    const table = "table." + wrap.querySelector("table").className.replace(/ /g, ".");
    const kept = [...row.cells].filter((c) => getComputedStyle(c).position === "sticky");
    if (!kept.length) { lost.push(`${table}: no column stays in view`); continue; }
    wrap.scrollLeft = wrap.scrollWidth;
    const frame = wrap.getBoundingClientRect();
    const edge = Math.max(...kept.map((c) => c.getBoundingClientRect().right));
    const last = row.cells[row.cells.length - 1].getBoundingClientRect();
    if (kept.some((c) => c.getBoundingClientRect().left < frame.left - 1)) {
      lost.push(`${table}: the kept columns scroll away`);
    } else if (last.left < edge - 1) {
      lost.push(`${table}: the kept columns (${Math.round(edge - frame.left)} px of `
                + `${Math.round(frame.width)}) cover the last column`);
    }
    wrap.scrollLeft = 0;
  }
  return lost;
}
"""

#: Pill badges (connection state, round status) taller than their text and padding: stretched
#: by the row they sit in instead of keeping their shape.
BADGES_JS = """
() => [...document.querySelectorAll(".connection, .status")].filter((el) => {
  const style = getComputedStyle(el);
  const line = parseFloat(style.lineHeight) || 1.5 * parseFloat(style.fontSize);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return el.getBoundingClientRect().height > line + padding + 2;
}).map((el) => `${el.className} "${el.textContent.trim()}"`)
"""

#: Tables that scroll inside their container, with how far.
SCROLLING_TABLES_JS = """
() => [...document.querySelectorAll(".table-wrap")]
  .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
  .map((wrap) => `table.${wrap.querySelector("table").className} needs ${wrap.scrollWidth} px`
                 + ` in ${wrap.clientWidth} px`)
"""


@pytest.fixture
def event(arbiter):  # noqa: F811
    """Made before the browser starts: Playwright's event loop in this thread would keep the
    clock services from publishing the started clocks. The arbiter may also create events, so
    that the new-event and import pages open too."""
    make_organiser(arbiter)
    return build_event(arbiter)


@pytest.fixture
def player(event):
    """The long-named player's login (its "My games" is as wide as that page gets) and another
    player's open invitation, made before the browser starts too."""
    first, second = event.players.order_by("pk")[:2]
    user = get_user_model().objects.create_user("layout-player", password="pw-layout-player-1")
    logins.accept_invitation(logins.invite(first).secret, user)
    return user, logins.invite(second).secret


def build_event(user) -> Event:
    """A demo-like event: four rounds played with game records, round five published and its
    clocks running, one long name and club in the field."""
    event = services.create_event(
        name="Layout Open of the Rhine-Ruhr Mind Sports Federation", slug="layout-open",
        arbiter=user, venue="Mind Sports Hall", rounds_planned=7,
        pairing_system=Event.PairingSystem.SWISS,
    )
    for index, (name, club) in enumerate(NAMES):
        services.add_player(event, name=name, club=club, rating=2100 - 37 * index)
    simulation.run(event, random.Random(14), rounds=4, user=user)
    current = services.publish_round(services.pair_next_round(event))
    clock_services.start_round(current, who=user.username, user=user)
    return event


def public_paths(event: Event) -> dict[str, str]:
    e = f"/e/{event.slug}"
    board = Board.objects.filter(round__event=event, round__number=5, second__isnull=False)
    board = board.order_by("number").first()
    record = GameRecord.objects.filter(board__round__event=event).order_by("pk").first()
    player = event.players.order_by("pk").first()
    return {
        "home": "/", "event home": f"{e}/", "find yourself": f"{e}/?q=Ada",
        "pairings": f"{e}/pairings/", "pairings by name": f"{e}/pairings/by-name/",
        "results": f"{e}/results/?round=2", "standings": f"{e}/standings/",
        "crosstable": f"{e}/crosstable/", "player": f"{e}/players/{player.pk}/",
        "projector": f"{e}/projector/", "game viewer": f"/games/{record.pk}/",
        "board page": f"/b/{board.token}/", "clock spectator": f"{e}/clocks/5/{board.number}/",
        "login": "/accounts/login/",
    }


def arbiter_paths(event: Event) -> dict[str, str]:
    a = f"/e/{event.slug}/arbiter"
    board = Board.objects.get(round__event=event, round__number=4, number=1)
    clocked = Board.objects.get(round__event=event, round__number=5, number=1)
    player = event.players.order_by("pk").first()
    return {
        "dashboard": f"{a}/", "settings": f"{a}/settings/", "players": f"{a}/players/",
        "player edit": f"{a}/players/{player.pk}/",
        "round": f"{a}/rounds/5/", "played round": f"{a}/rounds/4/",
        "result entry": f"{a}/rounds/5/results/", "board result": f"{a}/boards/{board.pk}/",
        "print menu": f"{a}/print/", "export": f"{a}/export/", "game records": f"{a}/records/",
        "clock hall": f"/e/{event.slug}/clocks/5/", "clock log": f"{a}/boards/{clocked.pk}/clock/",
        "clock spectator (arbiter)": f"/e/{event.slug}/clocks/5/1/",
        "new event": "/events/new/", "event import": "/events/import/",
    }


def check(page, url: str) -> list[str]:
    """Open ``url`` and return what breaks its layout at the page's current width."""
    response = page.goto(url)
    if response.status != 200:
        return [f"answered {response.status}"]
    if page.locator(".connection").count():
        page.wait_for_selector(CLOCK_CONNECTED)
    if page.locator("#pages .page").count():  # the projector: every screen, all rows
        page.evaluate("document.querySelectorAll('#pages .page, #pages tr')"
                      ".forEach(e => { e.hidden = false; })")
    found = page.evaluate(OVERFLOW_JS)
    problems = []
    if found["page"] > found["viewport"] + 1:
        culprits = "; ".join(f"{c['what']} (width {c['width']}, right edge {c['right']})"
                             for c in found["culprits"])
        problems.append(f"scrolls sideways to {found['page']} px: {culprits or 'unknown'}")
    problems += [f"table outside a .table-wrap: {table}" for table in found["bare"]]
    problems += page.evaluate(NAME_KEPT_JS)
    problems += [f"misshapen badge {badge}" for badge in page.evaluate(BADGES_JS)]
    if page.viewport_size["width"] >= WIDTHS["laptop"][0]:
        problems += [f"cut off at laptop width: {table}"
                     for table in page.evaluate(SCROLLING_TABLES_JS)]
    return problems


@pytest.mark.long_story  # the same templates on either database
def test_no_page_scrolls_sideways_at_phone_tablet_or_laptop_width(
    event, arbiter, player, server, browser  # noqa: F811
):
    account, invitation = player
    public = {**public_paths(event), "invitation": f"/invitations/{invitation}/"}
    desk = arbiter_paths(event)
    cookie, player_cookie = session_cookie(arbiter, server), session_cookie(account, server)
    failures = []
    for width_name, (width, height) in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for label, path in public.items():
            failures += [f"{width_name} {width}px, {label} ({path}): {problem}"
                         for problem in check(page, server.url + path)]
        context.add_cookies([cookie])
        for label, path in desk.items():
            failures += [f"{width_name} {width}px, {label} ({path}): {problem}"
                         for problem in check(page, server.url + path)]
        context.clear_cookies()
        context.add_cookies([player_cookie])
        failures += [f"{width_name} {width}px, my games: {problem}"
                     for problem in check(page, server.url + "/my-games/")]
        assert page.locator(".my-seat").count() == 1  # the player's own page, not the login
        context.close()
    assert not failures, "\n".join(failures)


#: The columns a player looks for on a phone, by page: header texts that must be in view
#: without scrolling the table (issue #23: the standings' tiebreaks, a player's VP and total).
PHONE_COLUMNS = {
    "standings": ("VP", "H2H", "Diff", "Level"),
    "player": ("Round", "Board", "Opponent", "Plays", "VP", "Total"),
    "pairings": ("Plays first", "VP", "Plays second"),
}

HEADERS_IN_VIEW_JS = """(wanted) => {
  const headers = [...document.querySelectorAll('table.data thead th')];
  const width = window.innerWidth;
  return wanted.map(text => {
    const th = headers.find(h => h.textContent.trim() === text);
    if (!th) return text + ': no such column';
    const box = th.getBoundingClientRect();
    return box.right <= width + 1 && box.width > 0 ? '' : text + ': out of view at ' + box.right;
  }).filter(Boolean);
}"""


def test_a_phone_shows_the_columns_a_player_needs_and_says_when_more_scroll(
    event, server, browser  # noqa: F811
):
    paths = public_paths(event)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT_MS)
    problems = []
    for label, wanted in PHONE_COLUMNS.items():
        page.goto(server.url + paths[label])
        problems += [f"{label}: {p}" for p in page.evaluate(HEADERS_IN_VIEW_JS, list(wanted))]
        wrap = page.locator(".table-wrap").first
        overflowing = wrap.evaluate("w => w.scrollWidth > w.clientWidth + 2")
        hint = page.locator(".scroll-hint").first
        if overflowing != hint.is_visible():
            problems.append(f"{label}: table scrolls {overflowing}, hint shown {not overflowing}")
        if overflowing:  # scrolled to the end, the hint goes
            wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
            page.wait_for_function("() => document.querySelector('.scroll-hint').hidden")
    # A shared place, as StandingsTable.render_place writes it, stays whole in the narrow rank
    # column (#36, item 14: "12–13" showed as "1…"): it breaks after the dash instead.
    page.goto(server.url + paths["standings"])
    cut = page.evaluate("""() => [...document.querySelectorAll('table.standings tbody tr')]
        .map(tr => tr.cells[0]).map(td => { td.innerHTML = '112–<wbr>113'; return td; })
        .filter(td => td.scrollWidth > td.clientWidth + 1).length""")
    if cut:
        problems.append(f"standings: {cut} shared places cut in the rank column")
    assert not problems, "\n".join(problems)
