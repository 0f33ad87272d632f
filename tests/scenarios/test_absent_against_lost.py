"""Scenario: a player who lost three games against two who never sat at a board (#36, item 11).

The walkthrough that found it: with unplayed rounds adding nothing to the colour tiebreaks, a
player who played three games and lost them (difference −4) finished below two players who
were absent throughout (difference 0). By the default rule an unplayed round counts as a game
by its VP with the widest margin, so the player who played ranks first of the three; the
arbiter can switch the event to the earlier rule (and back), and the standings page, CSV and
PDF follow the setting and say which rule counts.
"""

import io
import random
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.scenarios import checks
from tests.scenarios.story import random_scores, text

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo", "Lou", "Max", "Nia", "Omar"]
ABSENT = ("Max", "Nia")
WIDEST_NOTE = "count as a game by their VP"
NOTHING_NOTE = "add nothing to the colour tiebreaks"


def _lost_scores(rng: random.Random) -> tuple[list[int], list[int]]:
    """A loser's and a winner's six scores: the winner's lowest colour one higher."""
    winner = random_scores(rng)
    low = min(winner)
    if low == 0:
        winner = [s + 1 for s in winner]
        low = 1
    loser = [low - 1 if s == low else s for s in winner]
    return loser, winner


def _bottom(story) -> list[str]:
    """The names on 0 VP, in the standings CSV's order, with their difference."""
    return [row["Name"] for row in checks.standings_csv(story) if row["VP"] == "0.0"]


def _pdf_text(story) -> str:
    pdf = story.public.get(reverse("print_document", args=[story.slug, "standings"])).content
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))


# the ranking is the standings core's, the same on either database; on PostgreSQL the points,
# absence and withdrawal stories take the same pages' paths
@pytest.mark.long_story
def test_a_player_who_lost_ranks_above_players_who_never_played(story):
    rng = random.Random(11)
    arbiter = story.arbiter
    arbiter.creates_event("Fair Tiebreaks Open", format="Swiss", rounds_planned=3)
    arbiter.enters_players(*NAMES)
    for number in (1, 2, 3):
        for name in ABSENT:
            arbiter.grants_absence(name, number, vp="0", reason="away all weekend")
        assert arbiter.pairs_next_round() == number
        arbiter.publishes_round(number)
        lou = arbiter.board_of(number, "Lou")
        loser, winner = _lost_scores(rng)
        first, second = (loser, winner) if lou.first == "Lou" else (winner, loser)
        arbiter.enters_result(number, lou.number, first, second)
        arbiter.enters_round_results(number, rng)
        arbiter.closes_round(number)

    rows = {row["Name"]: row for row in checks.standings_csv(story)}
    assert rows["Lou"]["VP"] == rows["Max"]["VP"] == rows["Nia"]["VP"] == "0.0"
    assert rows["Max"]["Diff"] == rows["Nia"]["Diff"] == "-54"
    bottom = _bottom(story)
    assert bottom.index("Lou") < bottom.index("Max") and bottom.index("Lou") < bottom.index("Nia")
    page = text(story.public.page(reverse("event_standings", args=[story.slug])).html)
    assert WIDEST_NOTE in page
    assert WIDEST_NOTE in _pdf_text(story)

    # The arbiter switches the event to the earlier rule: the two who never played move
    # above Lou, and every page says so; then back.
    arbiter.changes_settings(unplayed_colours="nothing")
    rows = {row["Name"]: row for row in checks.standings_csv(story)}
    assert rows["Max"]["Diff"] == rows["Nia"]["Diff"] == "0"
    bottom = _bottom(story)
    assert bottom[-1] == "Lou", bottom
    page = text(story.public.page(reverse("event_standings", args=[story.slug])).html)
    assert NOTHING_NOTE in page and WIDEST_NOTE not in page
    assert NOTHING_NOTE in _pdf_text(story)

    arbiter.changes_settings(unplayed_colours="widest")
    bottom = _bottom(story)
    assert bottom.index("Lou") < bottom.index("Max")
