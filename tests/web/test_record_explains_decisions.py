"""The arbiter's decision on a conflicting version keeps its reason, name and time: on the
board's History, in the backup, and through an import (the record explains itself)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from backups import document
from tournament import services
from tournament.models import Result

pytestmark = pytest.mark.django_db

A = {"R": 9, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14}
B = {"R": 8, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18}
C = {"R": 7, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14}


@pytest.fixture
def board(event):
    round_ = services.publish_round(services.pair_next_round(event))
    return round_.boards.filter(second__isnull=False).first()


def _desk(arbiter) -> Client:
    desk = Client()
    desk.force_login(arbiter)
    return desk


def test_record_explains_a_dismissal_with_its_reason_name_and_time(board, arbiter):
    services.record_result(board, "played", first_scores=A, second_scores=B)
    conflict = services.record_result(board, "played", first_scores=B, second_scores=A).result
    desk = _desk(arbiter)
    answer = desk.post(reverse("arbiter_conflict", args=[board.round.event.slug,
                                                                 conflict.pk]),
                       {"reason": "Ben misread his slip", "accept": "0"}, follow=True)
    assert "Conflict resolved" in answer.content.decode()
    conflict.refresh_from_db()
    assert (conflict.status, conflict.decided_by_label, conflict.decision_reason) == (
        "dismissed", "arbiter1", "Ben misread his slip")
    assert conflict.decided_at is not None
    history = desk.get(reverse("arbiter_board", args=[board.round.event.slug, board.pk]))
    assert "Dismissed by arbiter1 at" in history.content.decode()
    assert "Ben misread his slip" in history.content.decode()

    data = json.loads(json.dumps(document.export_event(board.round.event)))
    row = next(r for b in data["rounds"][0]["boards"] if b["number"] == board.number
               for r in b["results"] if r["version"] == conflict.version)
    assert (row["decided_by"], row["decision_reason"]) == ("arbiter1", "Ben misread his slip")
    copy = document.import_event(data, slug="decided-copy")
    kept = Result.objects.get(board__round__event=copy, board__number=board.number,
                              version=conflict.version)
    assert (kept.decided_by_label, kept.decision_reason, kept.decided_at) == (
        "arbiter1", "Ben misread his slip", conflict.decided_at)


def test_record_explains_which_version_the_arbiter_accepted(board, arbiter):
    """Accepting version 2 of three: version 3 reads that version 2 was accepted (stored as a
    new version), not the number of the stored copy alone."""
    services.record_result(board, "played", first_scores=A, second_scores=B)
    second = services.record_result(board, "played", first_scores=B, second_scores=A).result
    third = services.record_result(board, "played", first_scores=C, second_scores=B).result
    assert (second.version, third.version) == (2, 3)
    stored = services.resolve_conflict(second, accept=True, user=arbiter,
                                       reason="the players agreed at the desk")
    third.refresh_from_db()
    second.refresh_from_db()
    assert third.status == "dismissed"
    assert third.decision_reason == (f"the arbiter accepted version 2 (stored as version "
                                     f"{stored.version})")
    assert (second.status, second.decision_reason) == ("adopted",
                                                       "the players agreed at the desk")
    page = _desk(arbiter).get(reverse("arbiter_board", args=[board.round.event.slug,
                                                             board.pk])).content.decode()
    assert "Accepted by arbiter1 at" in page and "the arbiter accepted version 2" in page


def test_record_explains_the_players_page_says_what_a_number_is_before_round_1(arbiter):
    """Before round 1 a new player's number is the entry order (round 1 gives the pairing
    numbers, by rating): the page says so, and an empty Swiss is not called a round robin."""
    event = services.create_event(name="Empty Swiss", arbiter=arbiter, rounds_planned=7)
    desk = _desk(arbiter)
    url = reverse("arbiter_players", args=[event.slug])
    assert "Round robin: an absence" not in desk.get(url).content.decode()
    page = desk.post(url, {"name": "Zed Late", "club": "", "country": "", "rating": "2400"},
                     follow=True).content.decode()
    assert "Zed Late added (entered 1.; the pairing numbers are given when round 1 is paired)" \
        in page


def test_record_explains_every_absence_on_the_pages_and_prints_of_its_round(arbiter):
    """A ½-point absence asked for and one marked for not checking in: the round's results, the
    pairings by name (page and PDF) and the player's page list each with its VP and why, so a
    player's total there is the standings'."""
    from tests.web.languages.test_print_language import pdf_text
    from tournament.models import Event
    from tournament.services import checkin

    event = services.create_event(name="Absent Open", arbiter=arbiter, rounds_planned=3,
                                  checkin=Event.CheckIn.ONCE)
    names = ("Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
    players = [services.add_player(event, name=n) for n in names]
    services.set_absence(players[4], 1, vp="0.5", reason="a wedding")
    for player in players[:4] + players[6:]:
        checkin.check_in(player, "arbiter", user=arbiter)
    checkin.mark_missing_absent(event, user=arbiter)  # Flo did not check in
    round_ = services.publish_round(services.pair_next_round(event))
    slug = event.slug
    client = Client()
    results = client.get(reverse("event_results", args=[slug]) + "?round=1").content.decode()
    assert "a wedding" in results and "absent: did not check in" in results
    by_name = client.get(reverse("event_pairings_by_name", args=[slug]) + "?round=1")
    assert "Ed" in by_name.content.decode() and "Flo" in by_name.content.decode()
    pdf = pdf_text(client.get(reverse("print_document", args=[slug, "pairings"])
                              + "?round=1").content)
    by_name_part = pdf.split("by name", 1)[1]
    assert "Ed" in by_name_part and "Flo" in by_name_part
    flo = client.get(reverse("player_detail", args=[slug, players[5].pk])).content.decode()
    assert "absent: did not check in" in flo and "absent (requested)" not in flo
    ed = client.get(reverse("player_detail", args=[slug, players[4].pk])).content.decode()
    assert "absent (requested): a wedding" in ed
    assert round_.number == 1


def test_record_explains_the_next_rounds_check_in_waits_while_a_round_is_played(arbiter):
    """Checking in before every round: while round 1 is played the dashboard counts round 2's
    check-ins and says the decisions come after the round, without offering to mark the whole
    field absent for round 2."""
    from tournament.models import Event
    from tournament.services import checkin

    event = services.create_event(name="Every Round", arbiter=arbiter, rounds_planned=3,
                                  checkin=Event.CheckIn.EVERY_ROUND)
    players = [services.add_player(event, name=f"Player {n:02d}") for n in range(1, 13)]
    for player in players:
        checkin.check_in(player, "arbiter", user=arbiter)
    services.publish_round(services.pair_next_round(event))
    page = _desk(arbiter).get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert "Enter results of round 1" in page
    assert "What to do about those missing comes once round 1 is over." in page
    assert "missing players absent for round 2" not in page


def test_record_explains_a_rematch_after_a_forfeit_on_the_round_page(arbiter):
    """Two players whose round-1 game was a forfeit meet again in round 2: allowed (a forfeit
    is not a meeting) and said on the round page, not as a pairing warning."""
    event = services.create_event(name="Forfeit again", arbiter=arbiter, rounds_planned=5)
    for name in ("Ada", "Ben", "Cy", "Di"):
        services.add_player(event, name=name)
    one = services.publish_round(services.pair_next_round(event))
    boards = list(one.boards.order_by("number"))
    services.record_result(boards[0], "forfeit", loser_seat="second", reason="did not come")
    services.record_result(boards[1], "played", first_scores=A, second_scores=C)
    two = services.pair_next_round(event)
    first, second = boards[0].first, boards[0].second
    services.edit_pairing(two, first_id=first.pk, second_id=second.pk, board_number=1,
                          reason="they asked to play the game they missed")
    page = _desk(arbiter).get(reverse("arbiter_round", args=[event.slug, 2])).content.decode()
    notes = page.split('id="pairing-notes"', 1)[1].split("</section>", 1)[0]
    assert (f"Board 1: {first.name} and {second.name} meet again. Their game in round 1 was "
            "a forfeit, not played, and a forfeit is not a meeting (FIDE), so it does not "
            "bar a rematch.") in notes
    warnings = page.split("Pairing warnings", 1)[1].split("</section>", 1)[0]
    assert "must not meet again" not in warnings
