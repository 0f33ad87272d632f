"""Results the players confirm (issue #24): the service, worked examples."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from tournament import services
from tournament.models import Confirmation, Event, Result
from tournament.services import confirmations as conf
from tournament.services.errors import InvalidResult, ResultRefused

pytestmark = pytest.mark.django_db

A = {"R": 9, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14}   # lowest 9
B = {"R": 8, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18}   # lowest 8
C = {"R": 7, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18}   # lowest 7


@pytest.fixture
def board(board_players_confirm):
    return board_players_confirm


def _confirm(board, seat, first, second, via="card"):
    return conf.confirm(board, getattr(board, seat), first, second, via)


def _results(board, status):
    return list(board.results.filter(status=status).order_by("version"))


def test_option_follows_the_event():
    event = Event(player_results="with_checkin", checkin="off")
    assert not conf.players_confirm_results(event)
    event.checkin = "once"
    assert conf.players_confirm_results(event)
    event.player_results = "never"
    assert not conf.players_confirm_results(event)
    event.player_results, event.checkin = "always", "off"
    assert conf.players_confirm_results(event)


def test_both_agree_stores_the_result_from_the_players(board):
    assert conf.board_state(board) == conf.WAITING
    first = _confirm(board, "first", A, B)
    assert first.state == conf.ONE_CONFIRMED and first.recorded is None
    assert not board.results.exists()
    done = _confirm(board, "second", A, B, via="login")
    assert done.state == conf.CONFIRMED
    result = services.current_result(board)
    assert result.source == Result.Source.PLAYERS and result.status == "accepted"
    assert (result.first_vp, result.second_vp) == (Decimal(1), Decimal(0))
    label = result.entered_by_label
    assert board.first.name in label and board.second.name in label and " and " in label
    assert conf.board_state(board) == conf.CONFIRMED


def test_a_player_may_change_before_the_other_confirms(board):
    _confirm(board, "first", A, C)
    _confirm(board, "first", A, B)
    assert Confirmation.objects.get(board=board, seat="first").second_scores == B
    _confirm(board, "second", A, B)
    assert services.current_result(board).second_scores == B


def test_after_storing_the_same_is_idempotent_and_a_change_refused(board):
    _confirm(board, "first", A, B)
    _confirm(board, "second", A, B)
    again = _confirm(board, "first", A, B)
    assert again.state == conf.CONFIRMED and board.results.count() == 1
    with pytest.raises(ResultRefused) as refused:
        _confirm(board, "second", A, C)
    assert refused.value.code == "stored"
    assert board.results.count() == 1
    assert Confirmation.objects.get(board=board, seat="second").second_scores == B


def test_disagreement_is_two_conflicts_and_accepting_one_dismisses_the_other(board, arbiter):
    _confirm(board, "first", A, B)
    done = _confirm(board, "second", A, C)
    assert done.state == conf.CONFLICT
    assert services.current_result(board) is None
    conflicts = _results(board, "conflict")
    assert len(conflicts) == 2
    assert {c.second_scores["R"] for c in conflicts} == {8, 7}
    assert all(c.source == "players" for c in conflicts)
    labels = " ".join(c.entered_by_label for c in conflicts)
    assert board.first.name in labels and board.second.name in labels
    assert services.open_conflicts(board.round)
    services.resolve_conflict(conflicts[0], accept=True, user=arbiter, reason="scoresheet")
    accepted = services.current_result(board)
    assert accepted.second_scores == B and accepted.source == "arbiter"
    assert not services.open_conflicts(board.round)
    sibling = Result.objects.get(pk=conflicts[1].pk)
    assert sibling.status == "dismissed" and "arbiter accepted" in sibling.decision_reason
    assert conf.board_state(board) == conf.ARBITER
    with pytest.raises(ResultRefused) as refused:   # no reopening the decided dispute
        _confirm(board, "second", A, C)
    assert refused.value.code == "decided"
    assert not services.open_conflicts(board.round)


def test_after_a_disagreement_the_players_may_still_agree(board):
    _confirm(board, "first", A, B)
    _confirm(board, "second", A, C)
    done = _confirm(board, "second", A, B)
    assert done.state == conf.CONFIRMED
    assert services.current_result(board).source == "players"
    assert not _results(board, "conflict")


def test_a_changed_account_replaces_its_conflict(board):
    _confirm(board, "first", A, B)
    _confirm(board, "second", A, C)
    _confirm(board, "second", B, A)
    open_ = _results(board, "conflict")
    assert len(open_) == 2
    # (compared as sorted items: PostgreSQL's jsonb keeps no key order)
    assert {tuple(sorted(c.first_scores.items())) for c in open_} == {
        tuple(sorted(A.items())), tuple(sorted(B.items()))}


def test_arbiter_typed_first_then_players_differ_is_a_conflict(board, arbiter):
    services.enter_slip(board, user=arbiter, first_scores=A, second_scores=B)
    _confirm(board, "first", A, C)
    done = _confirm(board, "second", A, C)
    assert done.state == conf.CONFLICT
    assert services.current_result(board).source == "slip"
    assert [c.source for c in _results(board, "conflict")] == ["players"]


def test_arbiter_typed_first_then_players_agree_with_it_changes_nothing(board, arbiter):
    services.enter_slip(board, user=arbiter, first_scores=A, second_scores=B)
    _confirm(board, "first", A, B)
    _confirm(board, "second", A, B)
    assert board.results.count() == 1
    assert conf.board_state(board) == conf.ARBITER


def test_not_your_board_bye_option_never_and_a_closed_round_are_refused(board, event):
    stranger = event.players.exclude(pk__in=[board.first_id, board.second_id]).first()
    with pytest.raises(ResultRefused) as refused:
        conf.confirm(board, stranger, A, B, "card")
    assert refused.value.code == "not_your_board"
    bye = board.round.boards.filter(second__isnull=True).first()
    if bye is not None:
        with pytest.raises(ResultRefused):
            conf.confirm(bye, bye.first, A, B, "card")
    event.player_results = Event.PlayerResults.NEVER
    event.save()
    board.round.event.refresh_from_db()
    with pytest.raises(ResultRefused) as refused:
        _confirm(board, "first", A, B)
    assert refused.value.code == "not_enabled"
    event.player_results = Event.PlayerResults.ALWAYS
    event.token_grace_minutes = 0
    event.save()
    round_ = board.round
    round_.status, round_.closed_at = "closed", timezone.now() - datetime.timedelta(hours=1)
    round_.save()
    with pytest.raises(ResultRefused) as refused:
        _confirm(board, "first", A, B)
    assert refused.value.code == "round_closed"
    assert not Confirmation.objects.exists() and not board.results.exists()


def test_a_drafted_round_is_refused(event):
    event.player_results = Event.PlayerResults.ALWAYS
    event.save()
    round_ = services.pair_next_round(event)
    board = round_.boards.filter(second__isnull=False).first()
    with pytest.raises(ResultRefused) as refused:
        conf.confirm(board, board.first, A, B, "card")
    assert refused.value.code == "round_closed"


def test_a_result_from_the_record_needs_no_confirmation(board):
    services.record_result(board, "played", source=Result.Source.RECORD, first_scores=A,
                           second_scores=B)
    with pytest.raises(ResultRefused) as refused:
        _confirm(board, "first", A, B)
    assert refused.value.code == "record"
    assert conf.board_state(board) == conf.RECORD


def test_an_online_board_is_refused_by_the_guard(board):
    def online(b, source, reason):
        return ResultRefused("online_game", "online") if b.pk == board.pk else None
    services.register_result_guard("test online", online)
    try:
        with pytest.raises(ResultRefused) as refused:
            _confirm(board, "first", A, B)
        assert refused.value.code == "online_game"
    finally:
        from tournament.services.results import _result_guards
        _result_guards.pop("test online")
    assert not Confirmation.objects.exists()


@pytest.mark.parametrize("first, second, field", [
    ({**A, "R": 19}, B, "first_scores"),
    (A, {**B, "P": -1}, "second_scores"),
    ([1, 2, 3], B, "first_scores"),
    (A, {**B, "G": "many"}, "second_scores"),
    ("AAAA", B, "first_scores"),
])
def test_bad_scores_are_refused_with_the_field(board, first, second, field):
    with pytest.raises(InvalidResult) as bad:
        _confirm(board, "first", first, second)
    assert bad.value.field == field
    assert not Confirmation.objects.exists() and not board.results.exists()


def test_unknown_via_is_refused(board):
    with pytest.raises(InvalidResult):
        _confirm(board, "first", A, B, via="fax")
    assert not Confirmation.objects.exists()


def test_round_states_in_a_batch_without_n_plus_one(board, arbiter, django_assert_max_num_queries):
    round_ = board.round
    boards = list(round_.boards.filter(second__isnull=False).select_related("first", "second"))
    b1, b2, b3, b4, b5 = boards[:5]
    _confirm(b1, "first", A, B)                       # one confirmed
    _confirm(b2, "first", A, B)
    _confirm(b2, "second", A, B)                      # confirmed
    _confirm(b3, "first", A, B)
    _confirm(b3, "second", A, C)                      # conflict
    services.enter_slip(b4, user=arbiter, first_scores=A, second_scores=B)  # arbiter
    services.record_result(b5, "played", source="record", first_scores=A, second_scores=B)
    with django_assert_max_num_queries(4):
        states = conf.board_states(round_)
    keys = {pk: s.key for pk, s in states.items()}
    assert keys[b1.pk] == conf.ONE_CONFIRMED and keys[b2.pk] == conf.CONFIRMED
    assert keys[b3.pk] == conf.CONFLICT and keys[b4.pk] == conf.ARBITER
    assert keys[b5.pk] == conf.RECORD
    assert keys[boards[5].pk] == conf.WAITING
    for b in boards:
        assert conf.board_state(b) == keys[b.pk]
    summary = conf.round_summary(states)
    assert (summary.games, summary.confirmed, summary.conflicts) == (6, 1, 1)


def test_pairing_again_asks_before_removing_a_confirmation(board):
    _confirm(board, "first", A, B)
    with pytest.raises(services.NeedsConfirmation) as asked:
        services.repair_round(board.round, reason="wrong player list")
    assert any(a.kind == "confirmation" for a in asked.value.attachments)
    services.repair_round(board.round, reason="wrong player list", confirm=True)
    assert not Confirmation.objects.exists()
