"""Scenario: every decision of a round keeps its reason, and every page tells the same story.

A nine-player Swiss whose players confirm their results, checking in before round 1. One player
asked in advance to miss round 1 (½ VP), one never checks in and is marked absent. In round 1 a
player confirms 1–0, the arbiter's slip says otherwise and the arbiter dismisses the
confirmation and accepts the slip, each with a reason; on another board the clock is paused and
a player given 30 s with a reason. Between the rounds the bye's value is lowered with a reason,
and raised again once a bye was given at the lower value: refused, with the reason. After each
step every page and PDF is opened and the VP compared everywhere (``checks.ALWAYS``); after the
round the arbiter's board page, the clock's log, the printed record of the round, the JSON
export, the results, the player pages and the history each show the reason where the decision
is, and before each round bbpPairings, given the TRF as downloaded, pairs the round exactly as
the product does.
"""

from __future__ import annotations

import html
import io
import json
import random
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from pypdf import PdfReader

from clocks import services as clocks
from tests.bbpairings import bbpairings
from tests.scenarios.story import Refused, random_scores
from tournament.models import Board, Result

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ada Byron", "Ben Okafor", "Chloé Martin", "Dmitri Volkov", "Eun-ji Park",
         "Farid Haddad", "Greta Berg", "Hamish Reid", "Ines Duarte"]
WEDDING, NEVER_CAME = "Hamish Reid", "Ines Duarte"
WIN = ([10, 11, 12, 13, 14, 9], [8, 9, 10, 11, 12, 7])
SLIP = ([8, 9, 10, 11, 12, 7], [10, 11, 12, 13, 14, 9])  # the other way round: 0-1
DISMISSED_BECAUSE = "both scoresheets show the second player ahead; her tap was a slip"
ACCEPTED_BECAUSE = "the slip agrees with both scoresheets"
ADDED_BECAUSE = "a phone rang at the next table"
LOWERED_BECAUSE = "the organisers' rule from round 2: a bye is worth a draw"


def pdf_text(content: bytes) -> str:
    pages = PdfReader(io.BytesIO(content)).pages
    return " ".join(" ".join(page.extract_text() or "" for page in pages).split())


def page_text(story, url: str, **params) -> str:
    body = story.arbiter.get(url, **params).content.decode()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def pairs_as_bbpairings_does(story) -> int:
    """Download the TRF, give it to bbpPairings as it is, pair the round on the dashboard:
    the same boards, first moves and bye. The number of the round."""
    arbiter = story.arbiter
    trf = arbiter.get(arbiter.url("arbiter_export_trf")).content.decode()
    engines = bbpairings().pair(trf)
    number = arbiter.pairs_next_round()
    boards = story.model().rounds.get(number=number).boards.order_by("number")
    stored = ([(b.first.seed, b.second.seed) for b in boards if not b.is_bye]
              + [(b.first.seed, 0) for b in boards if b.is_bye])
    assert stored == engines, (number, trf)
    return number


# each decision's server side runs on PostgreSQL too: tests/web/test_record_explains_decisions.py,
# tests/clocks/test_clock_log_record_explains.py, tests/web/test_trf_round_trip.py
@pytest.mark.long_story
def test_record_explains_every_decision_of_a_round_where_it_was_taken(story, tmp_path):
    rng = random.Random(47)
    arbiter = story.arbiter
    arbiter.creates_event("Record Open", format="Swiss", rounds_planned=5, checkin="once",
                          player_results="always", absence_vp="0.5")
    arbiter.enters_players(*NAMES)
    cards = arbiter.prints_player_cards(tmp_path)
    arbiter.grants_absence(WEDDING, 1, vp="0.5", reason="his sister's wedding")
    for name in NAMES:
        if name not in (WEDDING, NEVER_CAME):
            arbiter.ticks(name)
    arbiter.closes_checkin()
    arbiter.marks_missing_absent()
    assert pairs_as_bbpairings_does(story) == 1
    arbiter.publishes_round(1)
    one, two = arbiter.boards(1)[:2]

    # board 1: the first player confirms 1-0, the slip says 0-1; the arbiter dismisses the
    # confirmation with the reason
    story.player(one.first).confirms(cards[one.first], *WIN)
    arbiter.enters_result(1, one.number, *SLIP)
    arbiter.resolves_conflict(1, one.number, accept=False, reason=DISMISSED_BECAUSE)
    arbiter.resolves_conflict(1, one.number, accept=True, reason=ACCEPTED_BECAUSE)
    stored = Result.objects.get(board__pk=one.pk, status=Result.Status.ACCEPTED)
    assert (stored.first_vp, stored.second_vp, stored.source) == (0, 1, Result.Source.ARBITER)

    # board 2: the clock paused and the second player given 30 s, with the reason
    desk = get_user_model().objects.get(username="storyarbiter")
    board_two = Board.objects.get(pk=two.pk)
    clocks.start_round(board_two.round, who="storyarbiter", user=desk)
    clocks.pause(board_two, who="storyarbiter", user=desk)
    clocks.adjust(board_two, "B", "add", 30_000, reason=ADDED_BECAUSE, who="storyarbiter",
                  user=desk)
    clocks.resume(board_two, who="storyarbiter", user=desk)
    for board in arbiter.boards(1):
        if not board.is_bye and board.number != one.number:
            arbiter.enters_result(1, board.number, random_scores(rng), random_scores(rng))
    assert arbiter.next_action() == "no_shows"
    assert set(arbiter.no_shows()) == {WEDDING, NEVER_CAME}
    # both are back for round 2 (her train was late)
    arbiter.decides_no_shows({WEDDING: "keep", NEVER_CAME: "keep"})

    # each reason where the decision is: the board's History, the clock's log, the record
    history = page_text(story, arbiter.url("arbiter_board", one.pk))
    assert "Dismissed by storyarbiter at" in history and DISMISSED_BECAUSE in history
    assert "Accepted by storyarbiter at" in history and ACCEPTED_BECAUSE in history
    log = page_text(story, arbiter.url("clock_log", two.pk))
    assert f"{two.second}: 30.0 s added" in log and ADDED_BECAUSE in log
    record = pdf_text(arbiter.get(arbiter.url("print_document", "record"), round=1).content)
    for said in ("Record of round 1", DISMISSED_BECAUSE, ACCEPTED_BECAUSE, ADDED_BECAUSE,
                 f"{two.second}: 30.0 s added", "his sister's wedding",
                 f"{NEVER_CAME}: absent: did not check in (½ VP)", "FIDE (Dutch) System 2025"):
        assert said in record, said
    exported = arbiter.get(arbiter.url("arbiter_export_json")).content.decode()
    assert DISMISSED_BECAUSE in exported and ADDED_BECAUSE in exported
    assert json.loads(exported)  # the export reads back
    # the absences on the public results and the player pages, with their reasons
    results = page_text(story, reverse("event_results", args=[story.slug]), round=1)
    assert "his sister's wedding" in results and "absent: did not check in" in results
    ines = page_text(story, arbiter.url("player_detail", arbiter.player_ids()[NEVER_CAME]))
    assert "absent: did not check in" in ines and "absent (requested)" not in ines

    # between the rounds: the bye's value lowered needs a reason, and the history keeps it
    with pytest.raises(Refused, match="changing VP for a bye needs a reason"):
        arbiter.changes_settings(bye_vp="0.5")
    assert story.model().bye_vp == Decimal("1")
    arbiter.changes_settings(bye_vp="0.5", change_reason=LOWERED_BECAUSE)
    assert story.model().bye_vp == Decimal("0.5")
    settings_page = page_text(story, arbiter.url("arbiter_settings"))
    assert ("Changed once round 1 was paired: VP for a bye from 1 to ½." in settings_page
            and LOWERED_BECAUSE in settings_page)
    assert pairs_as_bbpairings_does(story) == 2  # round 1's bye keeps its point: XXA +0.5
    arbiter.publishes_round(2)
    arbiter.enters_round_results(2, rng)

    # raised again once a bye was given at ½: refused, with the reason; the rules stay
    with pytest.raises(Refused, match="A pairing bye was given at ½ VP in round 2: raised to 1"):
        arbiter.changes_settings(bye_vp="1", change_reason="back to a full point")
    assert story.model().bye_vp == Decimal("0.5")
    assert pairs_as_bbpairings_does(story) == 3
    round_three = story.model().rounds.get(number=3)
    assert round_three.paired_by == "bbpairings:2025"
    dashboard = arbiter.page(arbiter.url("arbiter_dashboard")).html
    assert 'id="pairing-rules"' not in dashboard  # the 2025 rules throughout: nothing to say
