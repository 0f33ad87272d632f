"""Issue #21: a Content-Security-Policy on every page (no inline script, style or handler left
for it to block), and ``Cache-Control: no-store`` on every page that shows a secret.

The browser's own verdict (no violation reported) is ``tests/browser/test_every_page``; here
every page of a played event is read as HTML: no ``<script>`` without ``src`` (JSON data blocks
aside), no ``on…=`` attribute, no ``style=`` attribute.
"""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from bench.events import create_clock_event
from games.online import play as online
from tournament import services
from tournament.services import logins

pytestmark = pytest.mark.django_db


class _Inline(HTMLParser):
    """Collects what a ``script-src 'self'; style-src 'self'`` policy would block."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        self.found += [f"<{tag} {name}=…>" for name in names
                       if name.startswith("on") or name == "style"]
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self._script = True

    def handle_data(self, data):
        if self._script and data.strip():
            self.found.append(f"inline script {data.strip()[:60]!r}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False


def _inline(html: str) -> list[str]:
    parser = _Inline()
    parser.feed(html)
    return parser.found


@pytest.fixture
def played(arbiter, client):
    """Round 1 of two boards published, board 1 with a result."""
    round_ = create_clock_event(2, arbiter=arbiter, slug="headers-open")
    event = round_.event
    board = round_.boards.get(number=1)
    services.record_result(board, "played", first_scores=[5, 6, 7, 8, 9, 10],
                           second_scores=[4, 6, 7, 8, 9, 10], source="arbiter", user=arbiter)
    return event, round_, board


def _pages(event, round_, board) -> list[str]:
    e = f"/e/{event.slug}"
    player = event.players.first()
    return [
        "/", f"{e}/", f"{e}/?q=Player", f"{e}/pairings/", f"{e}/pairings/by-name/",
        f"{e}/results/", f"{e}/standings/", f"{e}/crosstable/", f"{e}/players/{player.pk}/",
        f"{e}/projector/", f"/b/{board.token}/", f"{e}/clocks/1/2/", "/accounts/login/",
        "/guide/", "/admin/login/",
        f"{e}/arbiter/", f"{e}/arbiter/players/", f"{e}/arbiter/players/{player.pk}/",
        f"{e}/arbiter/rounds/1/", f"{e}/arbiter/rounds/1/results/",
        f"{e}/arbiter/boards/{board.pk}/", f"{e}/arbiter/print/", f"{e}/arbiter/export/",
        f"{e}/arbiter/records/", f"{e}/clocks/1/", f"{e}/arbiter/settings/",
    ]


def test_every_page_has_the_policy_and_nothing_inline_for_it_to_block(client, played, arbiter):
    client.force_login(arbiter)
    problems = []
    for path in _pages(*played):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response.headers.get("Content-Security-Policy", "")
        if "script-src 'self'" not in policy or "unsafe-inline" in policy:
            problems.append(f"{path}: policy {policy!r}")
        problems += [f"{path}: {found}" for found in _inline(response.content.decode())]
    assert not problems, "\n".join(problems)


def test_the_online_pages_have_nothing_inline(client, arbiter):
    round_ = create_clock_event(1, arbiter=arbiter, slug="headers-online")
    game = online.mark_online(round_, user=arbiter)[0]
    for path in (f"/p/{game.token_a}/", f"/e/{round_.event.slug}/online/1/1/"):
        response = client.get(path)
        assert response.status_code == 200
        assert _inline(response.content.decode()) == [], path


def test_the_policy_states_the_sites_own_sources_only(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert directives["object-src"] == directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


def _no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


def test_every_page_with_a_secret_is_never_stored(client, played, arbiter, event):
    event_, _round, board = played
    game_round = create_clock_event(1, arbiter=arbiter, slug="headers-seat")
    game = online.mark_online(game_round, user=arbiter)[0]
    invitation = logins.invite(event.players.get(name="Ada")).secret
    secret_pages = [f"/b/{board.token}/", f"/b/{board.token}/record/", f"/b/{board.token}/live/",
                    f"/p/{game.token_a}/", f"/invitations/{invitation}/"]
    for path in secret_pages:
        assert _no_store(client.get(path)), path
    client.force_login(arbiter)
    e = f"/e/{event_.slug}"
    arbiter_pages = [f"{e}/arbiter/rounds/1/", f"{e}/arbiter/boards/{board.pk}/",
                     f"{e}/pairings/", f"/e/{game_round.event.slug}/arbiter/online/1/",
                     f"/e/{game_round.event.slug}/arbiter/online/1/slips/",
                     reverse("print_document", args=[event_.slug, "scoresheets"]) + "?round=1"]
    for path in arbiter_pages:
        response = client.get(path)
        assert response.status_code == 200 and _no_store(response), path
    slips = client.post(reverse("arbiter_player_invite", args=[event.slug, event.players.get(
        name="Ben").pk]))
    assert slips.status_code == 200 and _no_store(slips)


def test_the_my_games_page_is_never_stored(client, event):
    user = get_user_model().objects.create_user("headers-player", password="pw-headers-1")
    logins.accept_invitation(logins.invite(event.players.get(name="Ada")).secret, user)
    client.force_login(user)
    assert _no_store(client.get(reverse("my_games")))


def test_public_pages_stay_cacheable(client, played):
    event, _round, _board = played
    for path in (f"/e/{event.slug}/pairings/", f"/e/{event.slug}/standings/"):
        assert not _no_store(client.get(path)), path


def test_a_pdf_goes_without_the_pages_policy(client, played):
    """A PDF is no page: the browser's own viewer must not be refused as a plugin."""
    event, _round, _board = played
    pdf = client.get(reverse("print_document", args=[event.slug, "standings"]))
    assert pdf["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in pdf.headers
