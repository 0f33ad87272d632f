"""Scenario: the arbiter's slip meets a player's confirmation (issue #36, items 1–3).

A four-player event whose players confirm their results. On board 1 one player confirms
1–0; the arbiter, on the slip page, sees what she confirmed, types the slip with a typo that
makes it 0–1, and is told: both versions are kept for the arbiter to decide, nothing is
stored, and round 2 cannot be paired. The board's page shows the two versions side by side
with the one differing score marked; the arbiter accepts the player's. On board 2 the slip
agrees with the confirmation and is stored at once. In round 2 one player confirms and the
other never does: the arbiter accepts the confirmation in one click, the missing one noted.
Then the other way round: a slip stored first, and a player who confirms other scores: her
page shows the stored result and says it is not hers, and the arbiter sees the dispute. A
correction opens with the stored scores in the slip's twelve boxes. Every page and PDF is
opened after each step (``checks.ALWAYS``).
"""

from __future__ import annotations

import pytest

from tournament.models import Result

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ada Byron", "Ben Okafor", "Chloé Martin", "Dmitri Volkov"]
WIN = ([10, 11, 12, 13, 14, 9], [8, 9, 10, 11, 12, 7])  # the first player's lowest 9 > 7


def scores_of(result: Result) -> tuple[list[int], list[int]]:
    return ([result.first_scores[c] for c in "RGBOYP"],
            [result.second_scores[c] for c in "RGBOYP"])


def results(story, number: int, board: int, status: str | None = None) -> list[Result]:
    found = Result.objects.filter(board__round__event=story.model(),
                                  board__round__number=number, board__number=board)
    return list(found.filter(status=status) if status else found)


def test_the_slip_and_a_players_confirmation_never_overrule_each_other(story, tmp_path):
    arbiter = story.arbiter
    arbiter.creates_event("Seam Open", format="Swiss", player_results="always")
    arbiter.enters_players(*NAMES)
    cards = arbiter.prints_player_cards(tmp_path)
    arbiter.pairs_next_round()
    arbiter.publishes_round(1)
    one, two = arbiter.boards(1)

    # board 1: the first player confirms 1-0; the arbiter's slip has a typo that makes 0-1
    page = story.player(one.first).confirms(cards[one.first], *WIN)
    assert f"waiting for {one.second}" in page.html
    slip = arbiter.page(arbiter.url("arbiter_results", 1) + f"?board={one.pk}").html
    assert "What the players confirmed" in slip and f"Accept {one.first}'s confirmation" in slip
    typo = ([10, 11, 12, 13, 14, 9], [8, 9, 10, 11, 12, 17])  # 7 typed as 17: now 0-1
    arbiter.enters_result(1, one.number, *typo)
    assert results(story, 1, one.number, Result.Status.ACCEPTED) == []  # nothing stored
    assert {r.source for r in results(story, 1, one.number, Result.Status.CONFLICT)} == {
        Result.Source.PLAYERS, Result.Source.SLIP}
    assert "conflict" in " ".join(arbiter.board(1, one.number).cells).lower()
    page = story.player(one.first).page(cards[one.first])
    assert "The arbiter entered other scores than yours" in page.html
    # the versions side by side, the one differing score marked in each
    versions = arbiter.versions(1, one.number)
    assert [title for title, _marked in versions] == [
        "Version 1: one player's confirmation", "Version 2: result slip"]
    assert [marked for _title, marked in versions] == [["7"], ["17"]]

    # board 2: the slip agrees with the confirmation: stored at once
    story.player(two.second).confirms(cards[two.second], *WIN)
    arbiter.enters_result(1, two.number, *WIN)
    (stored,) = results(story, 1, two.number, Result.Status.ACCEPTED)
    assert stored.source == Result.Source.SLIP and scores_of(stored) == WIN
    assert results(story, 1, two.number, Result.Status.CONFLICT) == []

    assert arbiter.next_action() == "disputes"  # round 2 waits for the decision
    arbiter.resolves_conflict(1, one.number, accept=True,
                              reason="the player's scoresheet; the slip had 17 for 7")
    (decided,) = results(story, 1, one.number, Result.Status.ACCEPTED)
    assert scores_of(decided) == WIN and decided.first_vp == 1
    assert results(story, 1, one.number, Result.Status.CONFLICT) == []
    assert arbiter.next_action() == "pair"
    arbiter.closes_round(1)

    # round 2: one player confirms, the other never does; one click stores it
    arbiter.pairs_next_round()
    arbiter.publishes_round(2)
    three, four = arbiter.boards(2)
    story.player(three.second).confirms(cards[three.second], *WIN)
    arbiter.accepts_confirmation(2, three.number)
    (accepted,) = results(story, 2, three.number, Result.Status.ACCEPTED)
    assert scores_of(accepted) == WIN and accepted.source == Result.Source.ARBITER
    assert (f"{three.second}'s confirmation of" in accepted.reason
            and f"{three.first} did not confirm" in accepted.reason)

    # the other way round: the slip first, then a player who confirms other scores
    arbiter.enters_result(2, four.number, *WIN)
    theirs = ([10, 11, 12, 13, 14, 9], [8, 9, 10, 11, 12, 13])  # she says 9-8 on purple
    page = story.player(four.second).confirms(cards[four.second], *theirs)
    assert "Your scores differ from the result already stored" in page.html
    assert "not what you confirmed" in page.html
    (held,) = results(story, 2, four.number, Result.Status.CONFLICT)
    assert held.source == Result.Source.PLAYERS and scores_of(held) == theirs
    assert arbiter.next_action() == "disputes"
    assert [m for _t, m in arbiter.versions(2, four.number)] == [["7"], ["13"]]
    arbiter.resolves_conflict(2, four.number, accept=False, reason="her scoresheet says 7")

    # a correction opens with the stored scores in the slip's twelve boxes
    board_page = arbiter.page(arbiter.url("arbiter_board", four.pk))
    form = next(f for f in board_page.forms if "first_R" in f.names())
    data = form.data({})
    assert [int(data[f"first_{c}"]) for c in "RGBOYP"] == WIN[0]
    assert [int(data[f"second_{c}"]) for c in "RGBOYP"] == WIN[1]
