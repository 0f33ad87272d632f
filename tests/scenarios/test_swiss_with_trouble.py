"""Scenario 3: a Swiss of thirteen where everything an arbiter dreads happens once.

Forfeits both ways, a double forfeit and a bye in round 1; the two players of a board send in
game records that disagree and the arbiter settles it; a late entry and an absence with ½
granted before round 2; round 2 paired again and then edited by hand; a withdrawal; a result
of round 2 corrected after round 3 was paired (the published pairings stay as they are).
Results arrive through the arbiter's result pages and the players' record page (board token).
"""

import io
import random
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.scenarios import checks
from tests.scenarios.story import Refused, random_scores
from tournament.models import Result

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo", "Iris", "Jon", "Kai",
         "Lena", "Max"]
LATE = "Nora Late"


def only_result(story, name, number):
    results = checks.results_of(story, name, number)
    assert len(results) == 1, f"{name} has {len(results)} results in round {number}"
    return results[0]


def not_paired_in(story, number: int, expected: dict[str, str]) -> None:
    """The public pairings page (by board and by name) and the pairings PDF list exactly these
    players as not paired in the round, each with why."""
    from pypdf import PdfReader

    for name in ("event_pairings", "event_pairings_by_name"):
        page = story.public.client.get(reverse(name, args=[story.slug]), {"round": number})
        html = page.content.decode()
        section = html.split('class="card not-paired"', 1)[1].split("</section>", 1)[0]
        items = dict(re.findall(r"<li><bdi>(.*?)</bdi>: (.*?)</li>", section))
        assert items == expected, (name, items)
    pdf = story.public.client.get(reverse("print_document", args=[story.slug, "pairings"]),
                           {"round": number}).content
    first_page = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert f"Not paired in round {number}" in first_page
    for player, why in expected.items():
        assert player in first_page and why in first_page, (player, why)


@pytest.mark.long_story  # on PostgreSQL the points, slip and withdrawal stories take these paths
def test_a_swiss_of_thirteen_survives_forfeits_conflicts_late_entries_and_corrections(story):
    rng = random.Random(13)
    arbiter = story.arbiter
    # A late entry scores ½ for each round missed, as the event's setting says.
    arbiter.creates_event("Autumn Swiss", format="Swiss", rounds_planned=5,
                          late_entry_vp="0.5")
    arbiter.enters_players(*NAMES)

    # Round 1: six games and a bye.
    r1 = arbiter.pairs_next_round()
    arbiter.publishes_round(r1)
    games = [b for b in arbiter.boards(r1) if not b.is_bye]
    assert len(games) == 6 and len(arbiter.boards(r1)) == 7
    no_show_first, no_show_second = games[0].first, games[1].second
    arbiter.records_forfeit(r1, 1, absent=no_show_first, reason="did not come")
    arbiter.records_forfeit(r1, 2, absent=no_show_second, reason="did not come")
    arbiter.records_double_forfeit(r1, 3, reason="both an hour late")

    disputed = games[3]
    token = arbiter.scoresheet_token(r1, disputed.first)
    story.player(disputed.first).submits_record(token, story.game_record(r1, disputed, 1))
    page = story.player(disputed.second).submits_record(
        token, story.game_record(r1, disputed, 2))
    assert [level for level, _text in page.messages] == ["warning"], page.messages
    arbiter.enters_round_results(r1, rng)
    # Every board has a result, but board 4's is disputed: the dashboard points at the dispute
    # and the next round is not paired from it.
    assert arbiter.next_action() == "disputes"
    with pytest.raises(Refused, match="offers no pairing"):
        arbiter.pairs_next_round()
    stale_tab = arbiter.client.post(arbiter.url("arbiter_round_pair"), follow=True)
    assert "Round 1 has an open dispute (board 4)" in stale_tab.content.decode()
    arbiter.resolves_conflict(r1, 4, accept=True, reason="the second record is the signed one")
    assert arbiter.next_action() == "pair"

    assert checks.vp_of(only_result(story, no_show_first, 1), no_show_first) == 0
    assert checks.vp_of(only_result(story, no_show_second, 1), no_show_second) == 0
    double = only_result(story, games[2].first, 1)
    assert (double.kind, double.first_vp, double.second_vp) == ("double_forfeit", 0, 0)
    settled = only_result(story, disputed.first, 1)
    assert (settled.source, settled.record_link.record.text) == (
        "arbiter", story.game_record(r1, disputed, 2))

    # Before round 2: a late entry, and an absence with ½ granted.
    arbiter.enters_players(LATE)
    absent = games[4].first
    arbiter.grants_absence(absent, 2, vp="0.5", reason="exam in the morning")

    r2 = arbiter.pairs_next_round()
    arbiter.repairs_round(r2, reason="the draw was shown before the late entry was checked")
    seated = {name for b in arbiter.boards(r2) for name in (b.first, b.second) if name}
    assert LATE in seated and absent not in seated
    one, two = arbiter.board(r2, 1), arbiter.board(r2, 2)
    arbiter.edits_pairing(r2, 1, one.first, two.second, reason="keep club mates apart")
    arbiter.edits_pairing(r2, 2, two.first, one.second, reason="keep club mates apart")
    arbiter.publishes_round(r2)
    # The absent player is on the round's pairings, page and PDF, with what the absence scores;
    # round 1's pairings say when the late entry joins.
    not_paired_in(story, r2, {absent: "absent (½ VP)"})
    not_paired_in(story, r1, {LATE: "joins in round 2"})
    assert checks.pairings_csv(story, r2)[:2] == [(one.first, two.second),
                                                  (two.first, one.second)]
    arbiter.enters_round_results(r2, rng)

    leaving = games[5].second
    arbiter.withdraws(leaving, "train home")

    # Round 3 paired, then a round 2 result is found misread and corrected.
    r3 = arbiter.pairs_next_round()
    arbiter.publishes_round(r3)
    not_paired_in(story, r3, {leaving: "withdrawn after round 2"})
    published = checks.pairings_csv(story, r3)
    arbiter.corrects_result(r2, 1, [18] * 6, [0] * 6, reason="the slip was read upside down")
    corrected = only_result(story, one.first, r2)
    assert (corrected.first_vp, corrected.second_vp) == (Decimal(1), Decimal(0))
    assert checks.pairings_csv(story, r3) == published
    arbiter.enters_result(r3, 1, random_scores(rng), random_scores(rng))
    # A typo seen at once: the arbiter retypes the slip, which corrects it (no dispute).
    arbiter.enters_result(r3, 1, [18] * 6, [0] * 6)
    retyped = only_result(story, arbiter.board(r3, 1).first, r3)
    assert (retyped.version, retyped.first_vp, retyped.reason) == (
        2, Decimal(1), "retyped on the slip page")
    assert not Result.objects.filter(board=retyped.board, status="conflict").exists()
    arbiter.enters_round_results(r3, rng)

    # A record arrives late for a board of round 3 and disagrees with the slip; the arbiter
    # pairs round 4 over the dispute with a reason (kept in the history), then dismisses it.
    late = next(b for b in arbiter.boards(r3) if not b.is_bye and b.number > 1)
    story.player(late.first).submits_record(arbiter.scoresheet_token(r3, late.first),
                                            story.game_record(r3, late, 3))
    assert arbiter.next_action() == "disputes"
    r4 = arbiter.pairs_next_round_over_disputes("the players are at lunch; the slip is signed")
    history = checks.history(story)
    assert any("round 4 paired while round 3 had open disputes" in text.lower()
               and "the slip is signed" in text for text in history), history
    arbiter.resolves_conflict(r3, late.number, accept=False, reason="the signed slip stands")
    arbiter.publishes_round(r4)
    arbiter.enters_round_results(r4, rng)

    played = [r1, r2, r3, r4, *story.plays_to_the_end(rng)]

    assert played == [1, 2, 3, 4, 5]
    # Round 1 missed by the late entry counts ½ in the standings (checked against the stored
    # rows by checks.standings_vp_match); after the last round nobody can join.
    late_row = next(r for r in checks.standings_csv(story) if r["Name"] == LATE)
    assert Decimal(late_row["VP"]) == Decimal("0.5") + sum(
        checks.vp_of(only_result(story, LATE, n), LATE) for n in (2, 3, 4, 5)
        if checks.results_of(story, LATE, n))
    with pytest.raises(Refused, match="a player entered now would play no round"):
        arbiter.enters_players("Too Late")
    checks.every_round_closed(story)
    assert not checks.results_of(story, LATE, 1)
    assert not any(checks.results_of(story, leaving, n) for n in (3, 4, 5))
