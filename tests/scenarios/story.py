"""Drive a whole event through its pages, as an arbiter and the players would.

Every action GETs the page a person would open, reads its form as served (see ``html.py``),
changes what the story says and posts it back; nothing here calls a service or saves a model.
Actions are *steps*: after each outermost step the story runs its checks (``checks.py``), so
a scenario reads as the story of an event and every intermediate state is checked.

A refusal shown to the person (a form error, an error message, a 4xx) raises ``Refused`` with
the text they would read; a server error raises ``ServerError`` at once.
"""

from __future__ import annotations

import functools
import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from urllib.parse import urlsplit

from django.db import connection
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from games.engine import format_record, random_game
from tests.printing.printing_helpers import decode_qr
from tests.scenarios.html import Form, PageParser, parse
from tournament.models import Event
from tournament.printing import cards as card_printing


class Refused(Exception):
    """The product said no, in words a person reads on the page."""


class ServerError(AssertionError):
    """A page answered 5xx."""


class GetWrites(AssertionError):
    """A GET request wrote to the database (only services write, and only on POST)."""


def _refuse_writes(execute, sql, params, many, context):
    if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
        raise GetWrites(f"a GET request wrote: {sql[:200]}")
    return execute(sql, params, many, context)


class ReadingClient(Client):
    """A browser whose GET requests must leave the database as they found it."""

    def get(self, *args, **kwargs):
        with connection.execute_wrapper(_refuse_writes):
            return super().get(*args, **kwargs)


def step(action: Callable) -> Callable:
    """Mark a person's action: once the outermost action is done, the story's checks run."""

    @functools.wraps(action)
    def wrapper(self, *args, **kwargs):
        story = self.story
        story.depth += 1
        try:
            result = action(self, *args, **kwargs)
        finally:
            story.depth -= 1
        if story.depth == 0:
            story.checked(action.__name__)
        return result

    return wrapper


def random_scores(rng: random.Random) -> list[int]:
    return [rng.randint(0, 18) for _ in range(6)]


@dataclass(frozen=True)
class BoardRow:
    """One line of the arbiter's round page."""

    number: int | None  # None: the bye
    first: str
    second: str | None
    result: str
    pk: int | None
    token: str | None
    cells: tuple[str, ...] = ()
    """Every cell as the page shows it (the players' confirmation state among them)."""

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def has(self, name: str) -> bool:
        return name in (self.first, self.second)


class Visitor:
    """Someone with a browser (a Django test client with its own cookies)."""

    def __init__(self, story: EventStory, client: Client) -> None:
        self.story = story
        self.client = client
        self.landed = ""
        """Where the last accepted form sent the browser."""
        self.pending: PageParser | None = None
        """The page a refused form answered with (a confirmation form, say)."""

    def get(self, url: str, **params):
        response = self.client.get(url, params or None)
        if response.status_code >= 500:
            raise ServerError(f"GET {url} {params or ''} answered {response.status_code}")
        return response

    def page(self, url: str, **params) -> PageParser:
        response = self.get(url, **params)
        if response.status_code >= 400:
            raise Refused(f"GET {url}: {response.status_code}")
        return parse(response.content.decode())

    def find_form(self, page: PageParser, url: str, *, action: str | None = None,
                  having: str | None = None, without: str | tuple[str, ...] | None = None
                  ) -> Form:
        """The first form posting to ``action``, with a field ``having``, without any field
        named in ``without``."""
        unwanted = (without,) if isinstance(without, str) else without or ()
        path = url.split("?")[0]
        for form in page.forms:
            target = form.action.split("?")[0] or path
            if action is not None and target != action:
                continue
            if having is not None and having not in form.names():
                continue
            if any(name in form.names() for name in unwanted):
                continue
            return form
        raise LookupError(f"no form (action={action}, having={having}) on {url}")

    def submit(self, url: str, overrides: dict | None = None, *, action: str | None = None,
               having: str | None = None, without: str | tuple[str, ...] | None = None,
               button: tuple[str, str] | None = None, follow: bool = True) -> PageParser | None:
        """Open ``url``, fill the chosen form like a browser, post it, follow the redirect.

        ``follow=False`` for forms that show their refusals without redirecting (the page of
        the redirect is then not read, which saves a request per result).
        """
        form = self.find_form(self.page(url), url, action=action, having=having,
                              without=without)
        data = form.data(overrides)
        if button is not None:
            data[button[0]] = button[1]
        target = form.action or url
        response = self.client.post(target, data, follow=follow)
        if not follow and response.status_code == 302:
            return None
        if response.status_code >= 500:
            raise ServerError(f"POST {target} answered {response.status_code}")
        page = parse(response.content.decode())
        self.pending = page
        if response.status_code >= 400:
            raise Refused(" ".join(page.errors) or f"POST {target}: {response.status_code}")
        if not getattr(response, "redirect_chain", None):
            raise Refused(" ".join(page.errors) or f"POST {target} was not accepted")
        errors = [text for level, text in page.messages if level == "error"]
        if errors:
            raise Refused(" ".join(errors))
        self.landed = response.redirect_chain[-1][0]
        return page


class Arbiter(Visitor):
    """The event's arbiter, logged in."""

    def url(self, name: str, *args) -> str:
        return reverse(name, args=[self.story.slug, *args])

    # -- the event and its players ----------------------------------------------------------

    @step
    def creates_event(self, name: str, *, format: str | None = None, **settings) -> Event:
        """The new-event form with its defaults, except ``settings`` (field: value).

        ``format`` picks the option of the format choice whose label contains it
        ("round robin", "Swiss"); without it the form's default stays.
        """
        url = reverse("event_create")
        form = self.find_form(self.page(url), url, having="name")
        overrides = {"name": name, **self._format(form, format), **settings}
        missing = set(overrides) - form.names()
        assert not missing, f"the event form has no field {missing}"
        self.submit(url, overrides, having="name")
        self.story.slug = self.landed.strip("/").split("/")[1]  # e/<slug>/arbiter/players/
        return self.story.model()

    @staticmethod
    def _format(form: Form, wanted: str | None) -> dict:
        if wanted is None:
            return {}
        for select in form.selects.values():
            try:
                return {select.name: select.value_for_label(wanted)}
            except LookupError:
                continue
        raise LookupError(f"no choice on the event form offers {wanted!r}")

    @step
    def changes_settings(self, **settings) -> None:
        url = self.url("arbiter_settings")
        self.submit(url, settings, having="name")

    @step
    def enters_players(self, *names: str) -> None:
        url = self.url("arbiter_players")
        for name in names:
            self.submit(url, {"name": name}, action=url, having="name")

    def player_ids(self) -> dict[str, int]:
        """Names and ids as the players page links them."""
        pattern = re.compile(re.escape(self.url("arbiter_player_edit", 999999)).replace(
            "999999", r"(\d+)"))
        found = {}
        for row in self.page(self.url("arbiter_players")).rows:
            for link in row.links:
                match = pattern.fullmatch(link)
                if match:
                    found[row.cells[1]] = int(match.group(1))
        return found

    def no_shows(self) -> list[str]:
        """The players the dashboard asks about (never appeared), by name."""
        page = self.page(self.url("arbiter_dashboard"))
        form = self.find_form(page, self.url("arbiter_dashboard"),
                              action=self.url("arbiter_no_shows"))
        return [label for name in form.names() if name.startswith("player-")
                for label in re.findall(rf'<th scope="row">(?:<bdi>)?(.*?)(?:</bdi>)?</th>'
                                        rf'<td><fieldset class="choices"><legend '
                                        rf'class="visually-hidden">[^<]*</legend>\s*<label><input '
                                        rf'type="radio" name="{name}"', page.html)]

    @step
    def decides_no_shows(self, choices: dict[str, str]) -> None:
        """The dashboard's answer: for each player by name "absent", "withdraw" or "keep"."""
        ids = self.player_ids()
        self.submit(self.url("arbiter_dashboard"),
                    {f"player-{ids[name]}": choice for name, choice in choices.items()},
                    action=self.url("arbiter_no_shows"))

    @step
    def withdraws(self, name: str, reason: str) -> PageParser:
        """The players page's **Withdraw**; the page it lands on (its messages say what the
        withdrawal did to a draft round)."""
        pk = self.player_ids()[name]
        return self.submit(self.url("arbiter_players"), {"reason": reason},
                           action=self.url("arbiter_player_withdraw", pk))

    @step
    def grants_absence(self, name: str, round_number: int, vp: str | None = None,
                       reason: str = "asked in advance") -> None:
        """``vp`` None leaves the form's default (the event's absence VP)."""
        pk = self.player_ids()[name]
        overrides = {"round": round_number, "reason": reason}
        if vp is not None:
            overrides["vp"] = vp
        self.submit(self.url("arbiter_players"), overrides,
                    action=self.url("arbiter_player_absence", pk))

    # -- rounds ---------------------------------------------------------------------------

    def next_action(self) -> str | None:
        """What the dashboard's main "next" button does: "pair", "publish", "close",
        "results", "disputes" (a link to the open disputes), "no_shows" (the question about
        the players who never appeared), "checkin_close", "checkin_absent" (close the
        check-in, mark the missing absent) or None (every round played)."""
        page = self.page(self.url("arbiter_dashboard"))
        code = re.search(r'id="next" data-next="([a-z_]*)"', page.html)
        assert code, "the dashboard has no Next section"
        return {"conflicts": "disputes", "": None}.get(code.group(1), code.group(1))

    @step
    def pairs_next_round(self) -> int:
        """The dashboard's "Pair round N" button; the number of the round it paired."""
        try:
            self.submit(self.url("arbiter_dashboard"), action=self.url("arbiter_round_pair"),
                        without=("manual", "over_disputes"))
        except LookupError:
            raise Refused("the dashboard offers no pairing") from None
        return int(self.landed.rstrip("/").rsplit("/", 1)[1])

    @step
    def pairs_next_round_over_disputes(self, reason: str) -> int:
        """The dashboard's "Pair round N over the disputes", with the reason it asks for."""
        try:
            self.submit(self.url("arbiter_dashboard"), {"over_disputes": reason},
                        action=self.url("arbiter_round_pair"), having="over_disputes")
        except LookupError:
            raise Refused("the dashboard offers no pairing over the disputes") from None
        return int(self.landed.rstrip("/").rsplit("/", 1)[1])

    def _round_action(self, number: int, action: str, overrides: dict | None = None, *,
                      confirm: bool = False) -> None:
        """One button of the round page; ``confirm`` answers "yes" when the page asks first.

        Removing boards that hold a clock, a record or live entries answers 409 with a
        confirmation form carrying the same fields; without ``confirm`` that is a refusal.
        """
        target = self.url("arbiter_round_action", number, action)
        try:
            self.submit(self.url("arbiter_round", number), overrides, action=target)
        except Refused:
            if not confirm:
                raise
            self._confirms(target)

    def _confirms(self, target: str) -> None:
        """Answer "yes" on the confirmation form a refused post to ``target`` showed."""
        form = self.find_form(self.pending, target, action=target, having="confirm")
        response = self.client.post(target, form.data(), follow=True)
        if response.status_code >= 400 or not response.redirect_chain:
            raise Refused(f"POST {target} with confirmation: {response.status_code}")
        self.landed = response.redirect_chain[-1][0]

    @step
    def publishes_round(self, number: int) -> None:
        self._round_action(number, "publish")

    @step
    def closes_round(self, number: int) -> None:
        self._round_action(number, "close")

    @step
    def repairs_round(self, number: int, reason: str, *, confirm: bool = False) -> None:
        self._round_action(number, "repair", {"reason": reason}, confirm=confirm)

    @step
    def edits_pairing(self, number: int, board: int, first: str, second: str | None,
                      reason: str, *, confirm: bool = False) -> None:
        url = self.url("arbiter_round", number)
        form = self.find_form(self.page(url), url,
                              action=self.url("arbiter_round_action", number, "edit"))
        ids = {label: value for value, label, _s in form.selects["first"].options}
        self._round_action(number, "edit", {"board": board, "first": ids[first],
                                            "second": ids[second] if second else "",
                                            "reason": reason}, confirm=confirm)

    @step
    def plays_round_online(self, number: int) -> None:
        """The round's online page: **Play this round online**, or, once it is online,
        **Deal their games** for the boards a re-pairing made."""
        url = self.url("online_round", number)
        self.submit(url, action=self.url("online_round_action", number, "mark"))

    @step
    def plays_every_round_online(self, number: int) -> None:
        """From round ``number``'s online page: **Play every round online**."""
        url = self.url("online_round", number)
        self.submit(url, {"round": str(number)},
                    action=reverse("online_event_action", args=[self.story.slug, "mark"]))

    @step
    def starts_online_clocks(self, number: int) -> None:
        """The round's online page: **Start the clocks** (the games may be played)."""
        url = self.url("online_round", number)
        self.submit(url, action=self.url("online_round_action", number, "start"))

    def boards(self, number: int) -> list[BoardRow]:
        """The round's boards as its arbiter page lists them."""
        board_link = re.compile(re.escape(self.url("arbiter_board", 999999)).replace(
            "999999", r"(\d+)"))
        token_link = re.compile(re.escape(reverse("board_page", args=["TOKEN"])).replace(
            "TOKEN", r"([^/]+)"))
        rows = []
        for row in self.page(self.url("arbiter_round", number)).rows:
            # Board | No. | First | VP | No. | Second | VP | Result | …
            if len(row.cells) < 8 or not (row.cells[0].isdigit() or row.cells[0] == "–"):
                continue
            pk = token = None
            for link in row.links:
                if m := board_link.fullmatch(link):
                    pk = int(m.group(1))
                elif m := token_link.fullmatch(link):
                    token = m.group(1)
            bye = row.cells[0] == "–"
            rows.append(BoardRow(None if bye else int(row.cells[0]), row.cells[2],
                                 None if bye else row.cells[5], row.cells[7], pk, token,
                                 tuple(row.cells)))
        return rows

    def board(self, number: int, board: int) -> BoardRow:
        return next(b for b in self.boards(number) if b.number == board)

    def board_of(self, number: int, name: str) -> BoardRow:
        return next(b for b in self.boards(number) if b.has(name))

    # -- results --------------------------------------------------------------------------

    @step
    def enters_result(self, number: int, board: int, first: list[int],
                      second: list[int]) -> None:
        """Twelve scores typed from a slip on the fast result entry page."""
        self._types_slip(number, self.board(number, board), first, second)

    def _types_slip(self, number: int, row: BoardRow, first: list[int], second: list[int]):
        url = self.url("arbiter_results", number) + f"?board={row.pk}"
        scores = {f"first_{c}": v for c, v in zip("RGBOYP", first, strict=True)}
        scores |= {f"second_{c}": v for c, v in zip("RGBOYP", second, strict=True)}
        self.submit(url, scores, having="board_id", follow=False)

    @step
    def enters_round_results(self, number: int, rng: random.Random) -> None:
        """A random slip for every board of the round still without a result."""
        for row in self.boards(number):
            if not row.is_bye and not row.result:
                self._types_slip(number, row, random_scores(rng), random_scores(rng))

    def _board_form(self, number: int, board: int, overrides: dict,
                    button: tuple[str, str] | None = None, action: str | None = None):
        row = self.board(number, board)
        url = self.url("arbiter_board", row.pk)
        return self.submit(url, overrides, having=None if action else "kind", action=action,
                           button=button)

    @step
    def records_forfeit(self, number: int, board: int, absent: str, reason: str) -> None:
        row = self.board(number, board)
        seat = "first" if row.first == absent else "second"
        self._board_form(number, board, {"kind": "forfeit", "loser_seat": seat,
                                         "reason": reason})

    @step
    def records_double_forfeit(self, number: int, board: int, reason: str) -> None:
        self._board_form(number, board, {"kind": "double_forfeit", "reason": reason})

    @step
    def records_decision(self, number: int, board: int, first_vp: str, second_vp: str,
                         reason: str, scores: tuple[list[int], list[int]] | None = None) -> None:
        """An arbiter's decision: VP as given (½–0, 1–1 …), with the scores if it was played."""
        fields = {"kind": "decision", "first_vp": first_vp, "second_vp": second_vp,
                  "reason": reason}
        if scores:
            fields |= {"first_scores": " ".join(map(str, scores[0])),
                       "second_scores": " ".join(map(str, scores[1]))}
        self._board_form(number, board, fields)

    @step
    def corrects_result(self, number: int, board: int, first: list[int], second: list[int],
                        reason: str) -> None:
        self._board_form(number, board, {
            "kind": "played", "first_scores": " ".join(map(str, first)),
            "second_scores": " ".join(map(str, second)), "reason": reason})

    @step
    def accepts_confirmation(self, number: int, board: int) -> None:
        """The slip page's **Accept …'s confirmation** of a board one player confirmed."""
        row = self.board(number, board)
        url = self.url("arbiter_results", number) + f"?board={row.pk}"
        prefix = reverse("arbiter_accept_confirmation", args=[self.story.slug, row.pk, "x"])
        form = next((f for f in self.page(url).forms
                     if f.action.startswith(prefix.removesuffix("x/"))), None)
        if form is None:
            raise Refused(f"round {number}, board {board} offers no confirmation to accept")
        self.submit(url, action=form.action)

    def versions(self, number: int, board: int) -> list[tuple[str, list[str]]]:
        """The board page's versions side by side: each one's title and its marked scores
        (those another version gives differently)."""
        html = self.page(self.url("arbiter_board", self.board(number, board).pk)).html
        found = []
        for block in re.findall(r'<article class="version[^"]*">(.*?)</article>', html, re.S):
            title = text(re.search(r"<h3>(.*?)</h3>", block, re.S).group(1))
            marked = re.findall(r'<mark class="differs"[^>]*>(\d+)', block)
            found.append((title, marked))
        return found

    @step
    def resolves_conflict(self, number: int, board: int, *, accept: bool, reason: str) -> None:
        row = self.board(number, board)
        url = self.url("arbiter_board", row.pk)
        prefix = self.url("arbiter_conflict", 999999).replace("999999/", "")
        form = next((f for f in self.page(url).forms if f.action.startswith(prefix)), None)
        if form is None:
            raise Refused(f"round {number}, board {board} shows no conflict")
        self.submit(url, {"reason": reason}, action=form.action,
                    button=("accept", "1" if accept else "0"))

    # -- player logins --------------------------------------------------------------------

    @step
    def invites(self, name: str) -> str:
        """**Invite to log in** on the players page; the link of the slip it shows."""
        pk = self.player_ids()[name]
        url = self.url("arbiter_players")
        form = self.find_form(self.page(url), url, action=self.url("arbiter_player_invite", pk))
        response = self.client.post(form.action, form.data())
        if response.status_code != 200:
            raise Refused(f"inviting {name}: {response.status_code}")
        return invitation_links(response.content.decode())[pk]

    @step
    def withdraws_login(self, name: str) -> None:
        """**Withdraw the login** on the player's page."""
        pk = self.player_ids()[name]
        url = self.url("arbiter_player_edit", pk)
        self.submit(url, action=self.url("arbiter_player_login_withdraw", pk))

    # -- check-in -------------------------------------------------------------------------

    @step
    def prints_player_cards(self, tmp_path) -> dict[str, str]:
        """The print menu's player cards; each card's QR code read as a phone reads it.

        Answers the personal page of each player by name, as the page itself names them.
        """
        menu = self.page(self.url("arbiter_print"))
        cards = self.url("arbiter_print_cards")
        link = re.search(rf'href="({re.escape(cards)}[^"]*)"', menu.html)
        assert link, "the print menu does not offer the player cards"
        response = self.get(unescape(link.group(1)))
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
        pdf = response.content
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        found = {}
        per_page = card_printing.COLUMNS * card_printing.ROWS
        players = len(self.player_ids())
        for number in range(1, pages + 1):
            on_page = min(per_page, players - per_page * (number - 1))
            for url in decode_qr(pdf, number, tmp_path, expect=on_page):
                path = urlsplit(url).path
                name = re.search(r"<h1>(.*?)</h1>", self.story.public.get(path).content.decode(),
                                 re.S)
                found[text(name.group(1))] = path
        return found

    @step
    def ticks(self, name: str) -> None:
        """The players page's check-in button of ``name``."""
        pk = self.player_ids()[name]
        self.submit(self.url("arbiter_players"),
                    action=self.url("arbiter_checkin_tick", pk))

    def checkin_count(self) -> str:
        """What the dashboard's check-in panel says: "12 of 14 checked in"."""
        html = self.get(self.url("arbiter_dashboard")).content.decode()
        return text(re.search(r'<p class="big checkin-count">(.*?)</p>', html, re.S).group(1))

    def not_checked_in(self) -> list[str]:
        """The dashboard's list of players who have not checked in."""
        html = self.get(self.url("arbiter_dashboard")).content.decode()
        found = re.search(r'<ul class="missing"[^>]*>(.*?)</ul>', html, re.S)
        return [text(li) for li in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)] \
            if found else []

    @step
    def closes_checkin(self) -> None:
        self.submit(self.url("arbiter_dashboard"),
                    action=self.url("arbiter_checkin_open_close", "close"))

    @step
    def marks_missing_absent(self) -> None:
        """The dashboard's "Mark the N missing players absent", then its confirmation page."""
        target = self.url("arbiter_checkin_mark_absent")
        try:
            self.submit(self.url("arbiter_dashboard"), action=target)
        except Refused:
            self._confirms(target)
        else:
            raise AssertionError("marking players absent did not ask first")

    def scoresheet_token(self, number: int, name: str) -> str:
        """The board link printed on the scoresheet handed to ``name``'s board."""
        return self.board_of(number, name).token


class Player(Visitor):
    """A player at the board: no login, only the board's token from the scoresheet's QR code."""

    def __init__(self, story: EventStory, client: Client, name: str) -> None:
        super().__init__(story, client)
        self.name = name

    @step
    def checks_in(self, card: str) -> PageParser:
        """The personal page's Check in button (the card's QR code opened on the phone)."""
        return self.submit(card, {"action": "checkin"}, having="action",
                           without="first_scores_0")

    @step
    def confirms(self, card: str, first: list[int], second: list[int]) -> PageParser:
        """The result panel of the personal page: the twelve scores as on the scoresheet (the
        first player's six colours, then the second's), then its button."""
        scores = {f"first_{c}": v for c, v in zip("RGBOYP", first, strict=True)}
        scores |= {f"second_{c}": v for c, v in zip("RGBOYP", second, strict=True)}
        return self.submit(card, scores, having="board_id")

    @step
    def submits_record(self, token: str, record: str) -> PageParser:
        url = reverse("player_submit", args=[token])
        return self.submit(url, {"record": record}, having="record")

    @step
    def enters_live(self, token: str, entry: dict) -> dict:
        """One entry on the board page's live scoresheet (the page sends JSON)."""
        state = self.get(reverse("live_state", args=[token])).json()
        response = self.client.post(reverse("live_action", args=[token, "enter"]),
                                    {"version": state["version"], "entry": entry},
                                    content_type="application/json")
        if response.status_code >= 500:
            raise ServerError(f"live entry answered {response.status_code}")
        if response.status_code >= 400:
            raise Refused(response.json().get("error", str(response.status_code)))
        return response.json()


def invitation_links(html: str) -> dict[int, str]:
    """The links of the invitation slips on a page, by player id."""
    return {int(pk): url for pk, url in re.findall(
        r'<section class="slip invitation" data-player="(\d+)">.*?<p class="url"><a href="([^"]+)"',
        html, re.S)}


@dataclass(frozen=True)
class MySeat:
    """One event on a logged-in player's "My games" page, as the page says it."""

    text: str
    personal_link: str | None
    board_page: str | None


class Account(Visitor):
    """A player with a login: their own browser, their username and password."""

    @step
    def accepts_invitation(self, url: str, username: str, password: str) -> None:
        """A new login from the invitation's form (the browser is logged in afterwards)."""
        self.submit(url, {"new-username": username, "new-password1": password,
                          "new-password2": password}, having="new-username")

    @step
    def logs_in_to_accept(self, url: str, username: str, password: str) -> None:
        """The invitation's other form: the login the player already has."""
        self.submit(url, {"username": username, "password": password}, having="password")

    @step
    def adds_event(self, url: str) -> None:
        """Logged in already: the invitation's one button adds the event to this login."""
        self.submit(url, having="action")

    @step
    def logs_in(self, username: str, password: str) -> None:
        url = reverse("login")
        self.submit(url, {"username": username, "password": password}, having="password")

    @step
    def logs_out(self) -> None:
        self.client.post(reverse("logout"))

    def my_games(self) -> tuple[dict[str, MySeat], list[str]]:
        """Each event's section of "My games" by slug, and the notices of withdrawn logins."""
        html = self.get(reverse("my_games")).content.decode()
        seats = {}
        for slug, body in re.findall(r'<section class="card my-seat" data-event="([^"]+)"[^>]*>'
                                     r'(.*?)</section>', html, re.S):
            personal = re.search(r'class="button personal-link" href="([^"]+)"', body)
            board = re.search(r'class="button secondary board-page" href="([^"]+)"', body)
            seats[slug] = MySeat(text(body), personal and personal.group(1),
                                 board and board.group(1))
        notices = [text(n) for n in re.findall(r'<p class="card conflict withdrawn-login">'
                                               r'(.*?)</p>', html, re.S)]
        return seats, notices


def text(html: str) -> str:
    """What a person reads in a piece of a page: its text, its spaces collapsed (none before
    punctuation that followed a tag)."""
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([,.;:])", r"\1", words)


class EventStory:
    """One event: its arbiter, its players, the public, and the checks run after each step."""

    def __init__(self, arbiter_user, checks: list[Callable[[EventStory], None]] = ()) -> None:
        self.slug: str | None = None
        self.depth = 0
        self.checks = list(checks)
        self.steps: list[str] = []
        self.cache: dict = {}
        client = ReadingClient()
        client.force_login(arbiter_user)
        self.arbiter = Arbiter(self, client)
        self.public = Visitor(self, ReadingClient())
        self._players: dict[str, Player] = {}
        self._accounts: dict[str, Account] = {}

    def account(self, key: str) -> Account:
        """A player with a login, one browser per ``key``, each at an address of its own
        (players at home: the sign-up limit counts per address)."""
        if key not in self._accounts:
            n = len(self._accounts) + 1
            self._accounts[key] = Account(self, ReadingClient(
                REMOTE_ADDR=f"198.51.{100 + n // 250}.{n % 250 + 1}"))
        return self._accounts[key]

    def player(self, name: str) -> Player:
        if name not in self._players:
            self._players[name] = Player(self, ReadingClient(), name)
        return self._players[name]

    def model(self) -> Event:
        return Event.objects.get(slug=self.slug)

    def checked(self, what: str) -> None:
        self.steps.append(what)
        if self.slug is None:
            return
        for check in self.checks:
            check(self)

    def game_record(self, number: int, board: BoardRow, seed: int) -> str:
        """A legal game of that board as the players would write it down."""
        tags = {"Event": self.model().name, "Round": str(number), "Board": str(board.number),
                "First": board.first, "Second": board.second}
        return format_record(random_game(random.Random(seed), tags=tags).record)

    def plays_to_the_end(self, rng: random.Random, *, limit: int = 20) -> list[int]:
        """Pair, publish and enter every round the dashboard offers; close the last one."""
        played = []
        while self.arbiter.next_action() == "pair":
            number = self.arbiter.pairs_next_round()
            self.arbiter.publishes_round(number)
            self.arbiter.enters_round_results(number, rng)
            played.append(number)
            assert len(played) <= limit, "the event never ends"
        if played and self.arbiter.next_action() == "close":
            self.arbiter.closes_round(played[-1])
        return played
