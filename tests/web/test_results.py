"""Result versions: derived VP, idempotent re-entry, conflicts, corrections, races."""

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from tournament import services
from tournament.models import Board, Result

pytestmark = pytest.mark.django_db

A = {"R": 9, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14}   # lowest 9
B = {"R": 8, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18}   # lowest 8
SAME_LEVELS = {"R": 14, "G": 13, "B": 12, "O": 11, "Y": 10, "P": 9}


@pytest.fixture
def board(event):
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_.boards.filter(second__isnull=False).first()


def test_played_result_derives_vp_from_the_scores(board, arbiter):
    recorded = services.record_result(board, "played", user=arbiter, first_scores=A,
                                      second_scores=B)
    result = recorded.result
    assert (result.first_vp, result.second_vp) == (Decimal(1), Decimal(0))
    assert result.status == "accepted" and result.version == 1
    assert result.entered_by == arbiter


def test_the_arbiter_retyping_a_slip_corrects_it_without_a_dispute(arbiter_client, board,
                                                                   arbiter):
    """#23: one's own typo is corrected on the slip page (new version, who corrected it); the
    page shows what is stored; against a game record the same slip stays a conflict."""
    services.enter_slip(board, user=arbiter, first_scores=A, second_scores=B)
    url = reverse("arbiter_results", args=[board.round.event.slug, board.round.number])
    page = arbiter_client.get(url, {"board": board.pk}).content.decode()
    assert 'name="first_R" type="number"' in page and f'value="{A["R"]}"' in page
    assert 'name="expected_version" value="1"' in page
    data = {"board_id": board.pk, "expected_version": 1,
            **{f"first_{c}": v for c, v in B.items()}, **{f"second_{c}": v for c, v in A.items()}}
    response = arbiter_client.post(url, data, follow=True)
    assert b"corrected (version 2)" in response.content
    rows = {r.version: r for r in Result.objects.filter(board=board)}
    assert (rows[1].status, rows[2].status) == ("superseded", "accepted")
    assert rows[2].entered_by == arbiter and rows[2].reason == "retyped on the slip page"
    assert not Result.objects.filter(board=board, status="conflict").exists()
    stale = arbiter_client.post(url, {**data, "first_R": 0}, follow=True)
    assert b"changed by someone else" in stale.content


def test_a_slip_against_the_boards_own_record_is_a_dispute(board, arbiter):
    services.record_result(board, "played", source="record", first_scores=A, second_scores=B)
    recorded = services.enter_slip(board, user=arbiter, first_scores=B, second_scores=A)
    assert recorded.conflict and recorded.result.status == "conflict"


def test_equal_levels_in_any_colour_order_is_the_only_draw(board):
    result = services.record_result(board, "played", first_scores=A,
                                    second_scores=SAME_LEVELS).result
    assert (result.first_vp, result.second_vp) == (Decimal("0.5"), Decimal("0.5"))


def test_entering_the_same_result_twice_writes_nothing(board):
    first = services.record_result(board, "played", first_scores=A, second_scores=B)
    again = services.record_result(board, "played", first_scores=A, second_scores=B)
    assert again.created is False and again.result.pk == first.result.pk
    assert Result.objects.filter(board=board).count() == 1


def test_a_disagreeing_submission_is_kept_as_a_conflict(board):
    services.record_result(board, "played", first_scores=A, second_scores=B)
    other = services.record_result(board, "played", first_scores=B, second_scores=A)
    assert other.conflict and other.result.status == "conflict"
    assert services.current_result(board).first_scores == A
    # the same conflicting submission again is not stored twice
    assert services.record_result(board, "played", first_scores=B,
                                  second_scores=A).result.pk == other.result.pk
    assert Result.objects.filter(board=board).count() == 2


def test_accepting_a_conflict_makes_a_new_version_and_keeps_the_old(board, arbiter):
    services.record_result(board, "played", first_scores=A, second_scores=B)
    conflict = services.record_result(board, "played", first_scores=B, second_scores=A).result
    with pytest.raises(services.InvalidResult):
        services.resolve_conflict(conflict, accept=True, user=arbiter, reason=" ")
    accepted = services.resolve_conflict(conflict, accept=True, user=arbiter,
                                         reason="slip re-checked")
    assert accepted.version == 3 and accepted.first_scores == B
    statuses = list(Result.objects.filter(board=board).order_by("version")
                    .values_list("status", flat=True))
    assert statuses == ["superseded", "adopted", "accepted"]


def test_a_correction_needs_a_reason_and_supersedes(board, arbiter):
    services.record_result(board, "played", first_scores=A, second_scores=B)
    with pytest.raises(services.InvalidResult) as excinfo:
        services.record_result(board, "forfeit", loser_seat="first", correction=True)
    assert excinfo.value.field == "reason"
    fixed = services.record_result(board, "forfeit", loser_seat="first", correction=True,
                                   reason="first player arrived after the deadline",
                                   user=arbiter).result
    assert (fixed.first_vp, fixed.second_vp, fixed.first_scores) == (0, 1, None)
    assert Result.objects.get(board=board, version=1).status == "superseded"


def test_a_correction_based_on_a_stale_version_is_refused(board):
    services.record_result(board, "played", first_scores=A, second_scores=B)
    services.record_result(board, "played", first_scores=B, second_scores=A, correction=True,
                           reason="typo", expected_version=1)
    with pytest.raises(services.StaleResult):
        services.record_result(board, "double_forfeit", correction=True, reason="x",
                               expected_version=1)
    assert services.current_result(board).version == 2


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"first_scores": {**A, "R": 19}, "second_scores": B}, "first_scores"),
        ({"first_scores": {**A, "R": -1}, "second_scores": B}, "first_scores"),
        ({"first_scores": A, "second_scores": {"R": 1}}, "second_scores"),
        ({"first_scores": A, "second_scores": [1, 2, 3]}, "second_scores"),
    ],
)
def test_impossible_scores_are_refused_with_the_field_and_nothing_written(board, kwargs, field):
    with pytest.raises(services.InvalidResult) as excinfo:
        services.record_result(board, "played", **kwargs)
    assert excinfo.value.field == field
    assert not Result.objects.filter(board=board).exists()


def test_decisions_need_a_reason(board):
    with pytest.raises(services.InvalidResult):
        services.record_result(board, "decision", first_vp="0.5", second_vp="0")
    result = services.record_result(board, "decision", first_vp="0.5", second_vp="0",
                                    reason="both late; first player arrived first").result
    assert (result.first_vp, result.second_vp) == (Decimal("0.5"), Decimal(0))


def test_a_bye_board_takes_only_a_bye(event):
    for name in ["Mo"]:
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    bye = round_.boards.get(second__isnull=True)
    assert services.current_result(bye).first_vp == event.bye_vp
    with pytest.raises(services.InvalidResult):
        services.record_result(bye, "played", first_scores=A, second_scores=B)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="row locks across threads need PostgreSQL (CI's second pass)")
def test_two_arbiters_entering_at_once_cannot_lose_or_mix_a_result(event):
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    board = round_.boards.filter(second__isnull=False).first()
    barrier = threading.Barrier(2)
    outcomes = []

    def enter(first, second):
        from django.db import connection as thread_connection

        barrier.wait()
        try:
            outcomes.append(services.record_result(Board.objects.get(pk=board.pk), "played",
                                                   first_scores=first, second_scores=second))
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=enter, args=args) for args in ((A, B), (B, A))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = list(Result.objects.filter(board=board).order_by("version"))
    assert [r.version for r in rows] == [1, 2]
    assert sorted(r.status for r in rows) == ["accepted", "conflict"]
    assert {r.first_scores["R"] for r in rows} == {A["R"], B["R"]}
    assert len(outcomes) == 2
