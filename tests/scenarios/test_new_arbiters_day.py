"""Scenario: a new arbiter's day (issue #23), the items that have no story of their own.

A one-day Swiss of twelve in six rounds, run with only the pages: the number of rounds kept
with a reason (item 15), the mini-table head-to-head (item 16), five players imported from a
German Excel file (semicolons, Windows-1252: item 13) and seven typed; the round page shows
pairing numbers and VP before publishing (item 12); the printed QR codes carry the hall's
address (item 9); players find themselves without their accents (item 6); one game of round 2
is played on the live scoresheet until both flags fall, and the players confirm it (item 4);
the pages that can do damage ask first (item 11); the absence form offers each VP once
(item 14); the standings say what decided each tie on VP, on the page and in the PDF (item 3).
Every page and PDF is opened after each step (``checks.ALWAYS``). The phone widths, axe and the
Korean web font (items 10, 17, 18) are checked in Chromium on a scenario event by
tests/browser/test_every_page.py and test_korean_font.py.
"""

import io
import itertools
import random
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from clocks import services as clock_services
from tests.fake_time import FakeTime
from tests.printing.printing_helpers import decode_qr
from tests.scenarios import checks
from tests.scenarios.story import text
from tournament.models import Board, Result

TYPED = ["Ada Byrne", "Ben Cho", "Cleo Dunn", "Dan Evans", "Eve Ford", "Finn Grant", "Gia Hale"]
#: Saved by Excel in Germany: semicolons, Windows-1252, CRLF; a club with the separator quoted.
EXCEL_CSV = ("Name;Verein;Elo;Geburtsjahr\r\n"
             "Björn Nylund;Uppsala;1850;1990\r\n"
             "Élodie Dubois;\"Lyon; Croix\";1720;1985\r\n"
             "Seán Ó Briain;Galway;1690;2001\r\n"
             "Zoë Adams;;;\r\n"
             "Jürgen Wojcik;Köln;1600;1970\r\n").encode("cp1252")
HALL = "http://192.168.1.20:8000"


def imports_players(arbiter, data: bytes) -> str:
    upload = io.BytesIO(data)
    upload.name = "spieler.csv"
    page = arbiter.client.post(arbiter.url("arbiter_players_import"), {"csv_file": upload},
                               follow=True)
    assert page.status_code == 200
    return page.content.decode()


def finds(story, query: str) -> list[str]:
    """The names the event page's "Find yourself" lists for ``query``."""
    html = story.public.get(reverse("event_home", args=[story.slug]), q=query).content.decode()
    return [text(n) for n in re.findall(r'<div class="find-result">\s*<strong>(.*?)</strong>',
                                        html, re.S)]


def plays_both_flags_on_the_live_scoresheet(story, board: Board, monkeypatch, who: str) -> None:
    """Round 2, board 1: the clock runs out for the first player, the second plays on alone
    until their own flag falls; both flags end the game and both players confirm the scores."""
    fake = FakeTime()
    monkeypatch.setattr(clock_services, "now_ms", fake)
    clock_services.start(board, who=who)  # the hall's Start (tests/browser has the hall)
    fake.advance(601_000)  # the first player's ten minutes are up
    first, second = story.player(board.first.name), story.player(board.second.name)
    second.enters_live(board.token, {"seat": "B", "action": "place", "placement": "j10P-k10P"})
    fake.advance(601_000)  # and the second player's
    state = second.get(reverse("live_state", args=[board.token])).json()
    assert state["over"] and [(a["seat"], a["action"]) for a in state["actions"]] == [
        ("A", "flag"), ("B", "place"), ("B", "flag")]
    for player, seat in ((first, "A"), (second, "B")):
        response = player.client.post(reverse("live_action", args=[board.token, "confirm"]),
                                      {"version": state["version"], "seat": seat},
                                      content_type="application/json")
        assert response.status_code == 200, response.content
    stored = Result.objects.get(board=board, status=Result.Status.ACCEPTED)
    assert (stored.source, stored.first_vp, stored.second_vp) == ("record", 0, 1)


@pytest.mark.long_story
def test_a_new_arbiters_day_with_only_the_pages(story, arbiter_user, settings, monkeypatch,
                                                 tmp_path):
    settings.PUBLIC_BASE_URL = HALL
    rng = random.Random(23)
    arbiter = story.arbiter
    arbiter.creates_event("Arbiter's Day Open", format="Swiss", rounds_planned=6)

    # item 15: six rounds are outside the MSO's 7–9: warned until the reason is given
    dashboard = arbiter.page(arbiter.url("arbiter_dashboard")).html
    assert "7 to 9 rounds; this event has 6" in dashboard
    arbiter.changes_settings(rounds_note="a one-day event")
    dashboard = text(arbiter.page(arbiter.url("arbiter_dashboard")).html)
    assert "6 Swiss rounds (the MSO rules play 7 to 9), kept because: a one-day event" in dashboard
    assert "this event has 6" not in dashboard
    # item 16: the tied players' results among themselves, as a table
    arbiter.changes_settings(tiebreak_order="head_to_head_table, lowest_colour_difference, "
                                            "lowest_colour_level")
    assert story.model().tiebreaks[0] == "head_to_head_table"

    # item 13: the German spreadsheet, then the rest typed
    page = imports_players(arbiter, EXCEL_CSV)
    assert "5 players imported" in page
    assert "Columns not read: Geburtsjahr" in page  # the German "Verein" is the club
    arbiter.enters_players(*TYPED)
    event = story.model()
    assert event.players.get(name="Élodie Dubois").club == "Lyon; Croix"
    assert event.players.get(name="Björn Nylund").rating == 1850
    assert event.players.count() == 12

    # item 14: the absence form offers 0 and ½ once each
    players_page = arbiter.page(arbiter.url("arbiter_players")).html
    options = re.findall(r'<select name="vp"[^>]*>(.*?)</select>', players_page,
                         re.S)[0]
    labels = [text(o) for o in re.findall(r"<option[^>]*>(.*?)</option>", options)]
    assert len(labels) == len(set(labels)) == 2, labels
    # item 11: withdrawing asks first
    assert players_page.count("data-confirm=") >= 12

    # item 12: the drafted round shows pairing numbers and VP before it is published
    r1 = arbiter.pairs_next_round()
    round_page = arbiter.page(arbiter.url("arbiter_round", r1)).html
    assert ">No.</abbr>" in round_page and "VP before" in round_page
    assert re.search(r'action="[^"]*/close/"[^>]*data-confirm="Close round 1\?', round_page)
    arbiter.publishes_round(r1)

    # item 9: the scoresheets' QR codes open the boards on the hall's address
    pdf = arbiter.get(arbiter.url("print_document", "scoresheets"), round=r1).content
    codes = decode_qr(pdf, 1, tmp_path, top=0.3)
    assert codes and all(code.startswith(HALL + "/b/") for code in codes), codes

    # item 6: players find themselves without accents, in any case, by any part of the name
    for query, name in (("bjorn", "Björn Nylund"), ("ELODIE", "Élodie Dubois"),
                        ("sean o", "Seán Ó Briain"), ("zoe", "Zoë Adams"),
                        ("wojcik", "Jürgen Wojcik"), ("jurgen", "Jürgen Wojcik")):
        assert finds(story, query) == [name], query
    arbiter.enters_round_results(r1, rng)
    arbiter.closes_round(r1)

    # item 4: round 2, board 1 on the live scoresheet until both flags fall
    r2 = arbiter.pairs_next_round()
    arbiter.publishes_round(r2)
    board = Board.objects.get(round__event=event, round__number=r2, number=1)
    plays_both_flags_on_the_live_scoresheet(story, board, monkeypatch, arbiter_user.username)
    story.checked("both flags on board 1")
    arbiter.enters_round_results(r2, rng)  # the others (board 1 is settled)
    assert Result.objects.get(board=board, status=Result.Status.ACCEPTED).source == "record"
    arbiter.closes_round(r2)

    played = story.plays_to_the_end(rng)
    assert played == [3, 4, 5, 6]
    checks.standings_vp_match(story)

    # item 3: every row tied on VP with the one above says what decided it, page and PDF
    rows = checks.standings_csv(story)
    tied = [row for above, row in itertools.pairwise(rows) if row["VP"] == above["VP"]]
    assert tied, "twelve players over six rounds with no tie on VP: pick another seed"
    assert all(row["Decided by"] for row in tied), tied
    page = story.public.page(reverse("event_standings", args=[story.slug])).html
    assert all(row["Decided by"] in text(page) for row in tied)
    standings_pdf = story.public.get(reverse("print_document",
                                             args=[story.slug, "standings"])).content
    printed = "".join(p.extract_text() for p in PdfReader(io.BytesIO(standings_pdf)).pages)
    assert "Decided by" in printed
