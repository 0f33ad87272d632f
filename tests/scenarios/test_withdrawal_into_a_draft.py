"""Scenario: players withdraw while the next round is a draft (issue #36, item 6).

Eight players, round 1 played and round 2 paired as a draft. Two players withdraw before it is
published: as in Swiss Manager or Vega, a withdrawal before the pairing applies to the round
being paired, so the draft is paired again without them at once: six players on boards 1–3,
no warning, and the pairings page and PDF list them under "Not paired" as withdrawn after
round 1, their round 1 standing. In round 3 the arbiter pairs a board by hand before one more
player withdraws: pairing again would throw the hand-made board away, so only the withdrawn
player's board goes and the round page says whom to place. Every page and PDF is opened after
each step (``checks.ALWAYS``).
"""

from __future__ import annotations

import random

import pytest

from tests.scenarios.test_swiss_with_trouble import not_paired_in
from tournament.models import HistoryEntry

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo"]


def test_withdrawals_apply_to_the_round_being_paired(story):
    rng = random.Random(36)
    arbiter = story.arbiter
    arbiter.creates_event("Draft Open", format="Swiss", rounds_planned=4)
    arbiter.enters_players(*NAMES)
    arbiter.pairs_next_round()
    arbiter.publishes_round(1)
    arbiter.enters_round_results(1, rng)
    arbiter.pairs_next_round()  # round 2: a draft
    leaving = [row.first for row in arbiter.boards(2)[:2]]  # players of boards 1 and 2
    said = [arbiter.withdraws(name, "a family matter") for name in leaving]
    for name, page in zip(leaving, said, strict=True):
        assert f"Round 2 was a draft: it is paired again without {name}." in [
            text for _level, text in page.messages]

    rows = arbiter.boards(2)
    assert [row.number for row in rows] == [1, 2, 3]
    assert not any(row.has(name) for row in rows for name in leaving)
    round_page = arbiter.page(arbiter.url("arbiter_round", 2)).html
    assert "neither paired nor given the bye" not in round_page
    arbiter.publishes_round(2)
    not_paired_in(story, 2, {name: "withdrawn after round 1" for name in leaving})
    repaired = HistoryEntry.objects.filter(event=story.model(),
                                           action=HistoryEntry.Action.ROUND_REPAIRED)
    assert repaired.count() == 2  # once for each withdrawal, each with its reason
    assert all("withdrew" in entry.reason for entry in repaired)

    # round 3: a board paired by hand, then a withdrawal: the hand-made board stays
    arbiter.enters_round_results(2, rng)
    arbiter.pairs_next_round()
    one, _two, three = arbiter.boards(3)
    arbiter.edits_pairing(3, 1, one.second, one.first, reason="colours by hand")
    leaver = three.first
    said = arbiter.withdraws(leaver, "train home")
    assert any("paired by hand" in text for _level, text in said.messages)
    rows = arbiter.boards(3)
    assert [row.number for row in rows] == [1, 2]
    assert (rows[0].first, rows[0].second) == (one.second, one.first)  # still as edited
    assert not any(row.has(leaver) for row in rows)
    round_page = arbiter.page(arbiter.url("arbiter_round", 3)).html
    assert three.second in round_page and "neither paired nor given the bye" in round_page
