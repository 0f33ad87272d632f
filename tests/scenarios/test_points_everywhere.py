"""Scenario: the same points in the pairing, the TRF and the standings (issue #36, items 8-10).

A late entry scores ½ for the round missed, an arbiter decides one board ½–0 and another 1–1,
and the bye is made worth ½ after round 1 gave a full point. None of these is what a TRF
result code scores, and before issue #36 the pairing counted each at its code (0, 1–0, ½–½, the
new bye value): the pairing's scores and the TRF's points column differed from the standings
and the next round was paired on the wrong score groups. After every step the story's checks
(``checks.pairing_points_match``) compare the standings' VP with the TRF's column, our reader
and the Dutch engine's own score; here the arbiter also reads them where she would.
"""

import html
import random
from decimal import Decimal

from django.urls import reverse

from tests.scenarios import checks
from tests.scenarios.story import random_scores

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo", "Iris", "Jon", "Kai"]
LATE = "Nora Late"


def trf_lines(story) -> dict[str, str]:
    """The arbiter's TRF download: each player's ``001`` line by name, and the ``XXA`` lines
    by pairing number."""
    text = story.arbiter.client.get(reverse("arbiter_export_trf", args=[story.slug]))
    lines = {}
    for line in text.content.decode().splitlines():
        if line.startswith("001"):
            lines[line[14:47].strip()] = line
        elif line.startswith("XXA"):
            lines[f"XXA {int(line[4:8])}"] = line[9:]
    return lines


def test_late_entry_decision_and_bye_points_are_one_number_everywhere(story):
    rng = random.Random(36)
    arbiter = story.arbiter
    arbiter.creates_event("Points Cup", format="Swiss", rounds_planned=5, late_entry_vp="0.5")
    arbiter.enters_players(*NAMES)

    r1 = arbiter.pairs_next_round()
    arbiter.publishes_round(r1)
    slow, broken = arbiter.board(r1, 1), arbiter.board(r1, 2)
    arbiter.records_decision(r1, 1, "0.5", "0", "slow play: the win is worth ½",
                             scores=([18] * 6, [3] * 6))
    arbiter.records_decision(r1, 2, "1", "1", "the clock broke; both given the point")
    for board in arbiter.boards(r1)[2:]:
        if not board.is_bye:
            arbiter.enters_result(r1, board.number, random_scores(rng), random_scores(rng))
    bye = next(b.first for b in arbiter.boards(r1) if b.is_bye)

    # The bye is worth ½ from now on; round 1's bye keeps the full point it was given.
    arbiter.changes_settings(bye_vp="0.5", change_reason="the organisers' rule from round 2")
    assert ("VP for a bye from 1 to ½" in html.unescape(
        arbiter.page(arbiter.url("arbiter_settings")).html))  # the history keeps the change
    arbiter.enters_players(LATE)

    standings = {row["Name"]: Decimal(row["VP"]) for row in checks.standings_csv(story, 1)}
    assert standings[slow.first] == Decimal("0.5") and standings[slow.second] == 0
    assert standings[broken.first] == standings[broken.second] == 1
    assert standings[bye] == 1 and standings[LATE] == Decimal("0.5")

    # The TRF: the late entry's missed round is a half-point bye; each decision is coded by
    # the points each player scored (½–0 a draw and a loss, 1–1 two wins), so no engine needs
    # a correction (bbpPairings takes no negative one); the bye given a full point carries its
    # extra ½ on an XXA line; every points column is the standings' VP.
    lines = trf_lines(story)
    assert lines[LATE][91:99] == "0000 - H"
    for name, vp in standings.items():
        assert Decimal(lines[name][80:84]) == vp, (name, lines[name])
    number = {name: int(line[4:8]) for name, line in lines.items() if line.startswith("001")}
    codes = {name: lines[name][98] for name in (slow.first, slow.second, broken.first,
                                                 broken.second)}
    assert codes == {slow.first: "=", slow.second: "0", broken.first: "1", broken.second: "1"}
    assert lines[f"XXA {number[bye]}"] == " 0.0  0.5"
    assert [key for key in lines if key.startswith("XXA")] == [f"XXA {number[bye]}"]

    # Round 2 is paired on those points: the round page's "VP" columns are the standings'.
    r2 = arbiter.pairs_next_round()
    for board in arbiter.boards(r2):
        assert Decimal(board.cells[3].replace("½", ".5") or 0) == (
            standings[board.first]), board.cells
    arbiter.publishes_round(r2)
    arbiter.enters_round_results(r2, rng)
    arbiter.pairs_next_round()
