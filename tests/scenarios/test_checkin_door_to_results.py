"""Scenario: the start of round 1 with check-in, and round 1's results settled by the players.

The arbiter sets up a 14-player Swiss with check-in before round 1 and prints the player cards.
Players scan their card's QR code on their phones and check in; one is ticked on the players
page; one arrives late and checks in at the kiosk by the door, in Chromium, typing her name
without its accents. Two never come: the arbiter closes the check-in, marks them absent in one
click (with the event's absence VP) and pairs round 1 without them. After the games every
player confirms the scores on their own personal page; on one board the players disagree and
the arbiter decides. The arbiter types no result. Every page and PDF is opened after each step
(``checks.ALWAYS``).
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.browser.live import TIMEOUT_MS
from tests.browser.test_checkin_kiosk_browser import unlocked_kiosk
from tests.scenarios.story import random_scores
from tests.scenarios.test_swiss_with_trouble import not_paired_in
from tournament.models import Absence, CheckIn, HistoryEntry, Result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Åsa Lindqvist", "Ben Okafor", "Chloé Martin", "Dmitri Volkov", "Eun-ji Park",
         "Farid Haddad", "Greta Berg", "Hamish Reid", "Ines Duarte", "Jonas Weber",
         "Kofi Mensah", "Lena Novak", "Mei Tanaka", "Noor Aziz"]
NEVER_COME = ["Kofi Mensah", "Noor Aziz"]
LATE_AT_THE_KIOSK = "Åsa Lindqvist"
TICKED_BY_THE_ARBITER = "Hamish Reid"
PHONE = {"width": 390, "height": 844}


def kiosk_check_in(browser, server, arbiter_user, slug: str, typed: str, name: str) -> None:
    """The door's tablet: the arbiter unlocks it and logs out; the player types, picks, confirms."""
    page = unlocked_kiosk(browser, server, arbiter_user, slug, {"width": 800, "height": 1100})
    page.get_by_label("Your name, or scan your player card").fill(typed)
    page.keyboard.press("Enter")
    page.get_by_role("button", name=name).click()
    page.get_by_role("button", name="Yes, check me in").click()
    assert f"Checked in: {name}" in page.locator(".kiosk-done").inner_text()
    assert "/card/" not in page.content()  # a kiosk never shows a personal link
    page.context.close()


@pytest.mark.long_story  # on PostgreSQL the check-in and confirmation tests take these paths
def test_checkin_at_the_door_and_results_the_players_confirm(story, arbiter_user, server,
                                                             browser, tmp_path):
    rng = random.Random(24)
    arbiter = story.arbiter
    event = arbiter.creates_event("Door Open", format="Swiss", checkin="once",
                                  absence_vp="0.5")
    arbiter.enters_players(*NAMES)
    assert arbiter.checkin_count() == "0 of 14 checked in"

    cards = arbiter.prints_player_cards(tmp_path)
    assert sorted(cards) == sorted(NAMES)

    for name in NAMES:
        if name in NEVER_COME or name in (LATE_AT_THE_KIOSK, TICKED_BY_THE_ARBITER):
            continue
        page = story.player(name).checks_in(cards[name])
        assert "You are checked in for round 1." in page.html
    again = story.player("Ben Okafor").page(cards["Ben Okafor"])  # the card scanned again
    assert "You are checked in for round 1." in again.html and "Check in</button>" not in again.html
    arbiter.ticks(TICKED_BY_THE_ARBITER)
    assert arbiter.checkin_count() == "11 of 14 checked in"
    assert sorted(arbiter.not_checked_in()) == sorted([LATE_AT_THE_KIOSK, *NEVER_COME])

    kiosk_check_in(browser, server, arbiter_user, story.slug, "asa lind", LATE_AT_THE_KIOSK)
    assert arbiter.checkin_count() == "12 of 14 checked in"
    assert CheckIn.objects.get(player__name=LATE_AT_THE_KIOSK).via == CheckIn.Via.KIOSK

    arbiter.closes_checkin()
    arbiter.marks_missing_absent()
    absent = Absence.objects.filter(player__event=event, round_number=1)
    assert sorted(a.player.name for a in absent) == sorted(NEVER_COME)
    assert {a.vp for a in absent} == {Decimal("0.5")}
    assert {a.reason for a in absent} == {"did not check in"}
    assert sorted(arbiter.not_checked_in()) == []

    number = arbiter.pairs_next_round()
    assert number == 1
    rows = arbiter.boards(1)
    assert len(rows) == 6 and not any(row.is_bye for row in rows)
    assert not any(row.has(name) for row in rows for name in NEVER_COME)
    assert not HistoryEntry.objects.filter(
        event=event, action=HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN).exists()
    arbiter.publishes_round(1)
    pairings = story.public.get(reverse("event_pairings", args=[story.slug])).content.decode()
    for name in NEVER_COME:
        assert name in pairings  # listed among the players not paired, with their VP

    confirm_round_one(story, browser, server, cards, rows, rng)


def phone_confirms(browser, server, card: str, first: list[int], second: list[int]) -> str:
    """A player's own phone (390 px, Chromium): the card's page, the twelve scores typed, the
    VP derived as typed, the button; answers what the page then says."""
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + card)
    for seat, scores in (("first", first), ("second", second)):
        for colour, value in zip("RGBOYP", scores, strict=True):
            page.fill(f"input[name={seat}_{colour}]", str(value))
    derived = page.locator(".confirm-panel").inner_text()
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm the scores").click()
    said = page.locator(".confirm-panel .confirm-state").inner_text()
    context.close()
    return derived + "\n" + said


def confirm_round_one(story, browser, server, cards, rows, rng) -> None:
    """Every board's two players confirm on their phones; on one board they disagree, and the
    arbiter decides for the second player's account."""
    arbiter = story.arbiter
    disputed = rows[2]
    for row in rows:
        first, second = random_scores(rng), random_scores(rng)
        if row is rows[0]:  # the first player of board 1 on a real phone
            said = phone_confirms(browser, server, cards[row.first], first, second)
            assert f"waiting for {row.second}" in said
        else:
            page = story.player(row.first).confirms(cards[row.first], first, second)
            assert f"waiting for {row.second}" in page.html
        state = arbiter_state(arbiter, row.number)
        assert "one player confirmed" in state.lower() or "waiting" in state.lower(), state
        if row is disputed:  # the second player remembers one colour otherwise
            second = [*second[:5], (second[5] + 3) % 19]
        page = story.player(row.second).confirms(cards[row.second], first, second)
        if row is disputed:
            assert "disagree" in page.html
        else:
            assert "Confirmed by both: stored." in page.html
    results = {r.board.number: r for r in Result.objects.filter(
        board__round__event=story.model(), board__round__number=1)}
    stored = {n: r for n, r in results.items() if r.status == Result.Status.ACCEPTED}
    assert sorted(stored) == sorted(row.number for row in rows if row is not disputed)
    assert {r.source for r in stored.values()} == {Result.Source.PLAYERS}
    assert "conflict" in arbiter_state(arbiter, disputed.number).lower()
    assert arbiter.next_action() == "disputes"

    arbiter.resolves_conflict(1, disputed.number, accept=True,
                              reason="both players checked the scoresheet with the arbiter")
    accepted = Result.objects.get(board__round__number=1, board__number=disputed.number,
                                  board__round__event=story.model(),
                                  status=Result.Status.ACCEPTED)
    assert accepted.source == Result.Source.ARBITER
    assert not Result.objects.filter(board__round__event=story.model(),
                                     status=Result.Status.CONFLICT).exists()
    # the two who never came: the dashboard asks before round 2 is paired (#36, item 7)
    assert arbiter.next_action() == "no_shows"
    assert sorted(arbiter.no_shows()) == sorted(NEVER_COME)
    gone, again = NEVER_COME
    arbiter.decides_no_shows({gone: "withdraw", again: "absent"})
    assert arbiter.next_action() == "pair"  # round 2 may be paired: nothing is open
    arbiter.closes_round(1)
    standings = story.public.get(reverse("event_standings", args=[story.slug])).content.decode()
    for name in NAMES:
        assert name in standings
    arbiter.pairs_next_round()
    assert not any(row.has(name) for row in arbiter.boards(2) for name in NEVER_COME)
    arbiter.publishes_round(2)
    not_paired_in(story, 2, {gone: "withdrawn after round 1", again: "absent (½ VP)"})
    # nothing typed by the arbiter but the decision: every result came from the players
    sources = Result.objects.filter(board__round__event=story.model()).values_list(
        "source", flat=True)
    assert set(sources) <= {Result.Source.PLAYERS, Result.Source.ARBITER}


def arbiter_state(arbiter, board: int) -> str:
    """The round page's "Players' confirmation" cell of a board, as the arbiter reads it."""
    row = arbiter.board(1, board)
    return " ".join(row.cells)
