"""Check-in service: which round, open or closed, ticks, undo, marking the missing absent,
late arrivals, and the history entry when a round is paired with check-in open."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tournament import services
from tournament.models import Absence, CheckIn, Event, HistoryEntry
from tournament.services import checkin
from tournament.services.errors import ServiceError

CARD, KIOSK, ARBITER = CheckIn.Via.CARD, CheckIn.Via.KIOSK, CheckIn.Via.ARBITER


def _on(event, mode=Event.CheckIn.ONCE, **extra):
    Event.objects.filter(pk=event.pk).update(checkin=mode, **extra)
    event.refresh_from_db()
    return event


def _player(event, name):
    return event.players.get(name=name)


def test_off_means_no_round_and_refuses(event):
    assert checkin.checkin_round(event) is None
    assert not checkin.is_open(event)
    with pytest.raises(ServiceError, match="does not use check-in"):
        checkin.check_in(_player(event, "Ada"), CARD)


def test_once_is_for_round_one_until_it_is_paired(event, arbiter):
    _on(event)
    assert checkin.checkin_round(event) == 1 and checkin.is_open(event)
    services.pair_next_round(event, user=arbiter)
    assert checkin.checkin_round(event) is None
    assert not checkin.is_open(event)


def test_every_round_follows_the_next_round(played_event):
    event = _on(played_event, Event.CheckIn.EVERY_ROUND)
    assert checkin.checkin_round(event) == 4


def test_check_in_twice_is_harmless_and_summary_counts(event):
    _on(event)
    ada = _player(event, "Ada")
    row, created = checkin.check_in(ada, CARD)
    again, created_again = checkin.check_in(ada, KIOSK)
    assert created and not created_again and row.pk == again.pk and again.via == CARD
    state = checkin.summary(event)
    assert state.text() == "1 of 12 checked in"
    assert [p.name for p in state.checked] == ["Ada"]
    assert len(state.missing) == 11 and state.missing[0].name == "Ben"


def test_summary_leaves_out_withdrawn_late_and_requested_absences(event):
    _on(event)
    services.withdraw_player(_player(event, "Ben"), reason="ill")
    services.set_absence(_player(event, "Cy"), 1, reason="wedding")
    state = checkin.summary(event)
    names = {p.name for p in state.missing}
    assert "Ben" not in names and "Cy" not in names
    assert state.expected == 10


def test_withdrawn_player_is_refused_with_the_reason(event):
    _on(event)
    ben = _player(event, "Ben")
    services.withdraw_player(ben, reason="ill")
    with pytest.raises(ServiceError, match="Ben has withdrawn"):
        checkin.check_in(ben, ARBITER)
    assert not CheckIn.objects.exists()


def test_closed_refuses_phone_and_kiosk_but_not_the_arbiter(event, arbiter):
    _on(event)
    checkin.set_open(event, False)
    event.refresh_from_db()
    for via in (CARD, KIOSK):
        with pytest.raises(ServiceError, match="closed the check-in"):
            checkin.check_in(_player(event, "Ada"), via)
    assert not CheckIn.objects.exists()
    row, created = checkin.check_in(_player(event, "Ada"), ARBITER, user=arbiter)
    assert created and row.user == arbiter


def test_closing_time_passed_closes_and_reopening_clears_it(event):
    _on(event, checkin_closes_at=timezone.now() - timedelta(minutes=1))
    assert "closed at" in checkin.closed_reason(event)
    with pytest.raises(ServiceError):
        checkin.check_in(_player(event, "Ada"), KIOSK)
    checkin.set_open(event, True)
    event.refresh_from_db()
    assert event.checkin_closes_at is None and checkin.is_open(event)


def test_undo(event):
    _on(event)
    ada = _player(event, "Ada")
    checkin.check_in(ada, ARBITER)
    assert checkin.undo_check_in(ada) is True
    assert checkin.undo_check_in(ada) is False
    assert checkin.checked_in(ada) is None


def test_mark_missing_absent_and_unmark_a_late_arrival(event, arbiter):
    _on(event)
    Event.objects.filter(pk=event.pk).update(absence_vp=Decimal("0.5"))
    event.refresh_from_db()
    for name in ["Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]:
        checkin.check_in(_player(event, name), ARBITER)
    made = checkin.mark_missing_absent(event, user=arbiter)
    assert sorted(a.player.name for a in made) == ["Kim", "Lu"]
    assert all(a.vp == Decimal("0.5") and a.reason == "did not check in" for a in made)
    entry = HistoryEntry.objects.get(action=HistoryEntry.Action.CHECKIN_ABSENT)
    assert entry.details["names"] == ["Kim", "Lu"] and "Kim, Lu" in entry.summary
    state = checkin.summary(event)
    assert state.text() == "10 of 10 checked in" and len(state.marked) == 2
    with pytest.raises(ServiceError, match="Everyone has checked in"):
        checkin.mark_missing_absent(event)
    kim = state.marked[0]
    checkin.unmark_absent(kim, user=arbiter)
    assert not Absence.objects.filter(pk=kim.pk).exists()
    assert checkin.summary(event).text() == "11 of 11 checked in"


def test_marked_player_at_the_kiosk_is_sent_to_the_arbiter(event):
    _on(event)
    checkin.mark_missing_absent(event)
    with pytest.raises(ServiceError, match="marked absent"):
        checkin.check_in(_player(event, "Ada"), KIOSK)
    checkin.check_in(_player(event, "Ada"), ARBITER)
    assert not Absence.objects.filter(player__name="Ada").exists()


def test_mark_refuses_when_the_list_changed(event):
    _on(event)
    seen = [p.pk for p in checkin.summary(event).missing]
    checkin.check_in(_player(event, "Ada"), KIOSK)
    with pytest.raises(ServiceError, match="changed"):
        checkin.mark_missing_absent(event, expected=seen)
    assert not Absence.objects.exists()


def test_requested_absence_is_not_undone_by_check_in(event):
    _on(event)
    services.set_absence(_player(event, "Cy"), 1, reason="wedding")
    with pytest.raises(ServiceError, match="asked to be absent"):
        checkin.check_in(_player(event, "Cy"), ARBITER)
    with pytest.raises(ServiceError, match="asked for"):
        checkin.unmark_absent(Absence.objects.get())


def test_pairing_with_checkin_open_is_logged_and_not_blocked(event, arbiter):
    _on(event)
    checkin.check_in(_player(event, "Ada"), KIOSK)
    round_ = services.pair_next_round(event, user=arbiter)
    assert round_.number == 1
    entry = HistoryEntry.objects.get(action=HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN)
    assert entry.details["round"] == 1 and len(entry.details["names"]) == 11
    assert "1 of 12 checked in" in entry.summary


def test_pairing_with_checkin_closed_logs_nothing_and_reopens(event):
    _on(event)
    checkin.set_open(event, False)
    event.refresh_from_db()
    assert not checkin.is_open(event)
    services.pair_next_round(event)
    assert not HistoryEntry.objects.filter(
        action=HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN).exists()
    event.refresh_from_db()
    assert event.checkin_open


def test_marked_absent_players_are_not_paired(event):
    _on(event)
    for name in ["Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]:
        checkin.check_in(_player(event, name), ARBITER)
    checkin.mark_missing_absent(event)
    round_ = services.pair_next_round(event)
    seated = {n for b in round_.boards.all() for n in (b.first.name, b.second and b.second.name)}
    assert "Kim" not in seated and "Lu" not in seated
    entry = HistoryEntry.objects.get(action=HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN)
    assert entry.details["names"] == [] and "everyone had checked in" in entry.summary


def test_cards_reissue_and_revoke_are_logged(event, arbiter):
    from tournament.boards import player_codes

    ada = _player(event, "Ada")
    [(_, first)] = checkin.cards_for([ada])  # given when the player was entered
    new = checkin.reissue_card(ada, user=arbiter)
    assert new.key != first.key
    with pytest.raises(player_codes.CodeRefused, match="replaced"):
        player_codes.player_for_code(player_codes.code_for(first))
    assert checkin.revoke_card(ada, user=arbiter) == 1
    assert checkin.cards_for([ada]) == []  # revoked without a new one: no card to print
    assert HistoryEntry.objects.filter(action=HistoryEntry.Action.CARDS_ISSUED).count() == 2


def test_round_robin_marks_absent_with_zero_and_the_pairing_forfeits(arbiter):
    event = services.create_event(name="Small RR", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN)
    for name in ("Ada", "Ben", "Cy", "Di"):
        services.add_player(event, name=name)
    Event.objects.filter(pk=event.pk).update(checkin=Event.CheckIn.ONCE,
                                             absence_vp=Decimal("0.5"))
    event.refresh_from_db()
    for name in ("Ada", "Ben", "Cy"):
        checkin.check_in(_player(event, name), ARBITER)
    made, = checkin.mark_missing_absent(event)
    assert made.player.name == "Di" and made.vp == Decimal("0")
    round_ = services.pair_next_round(event)
    di_board = round_.boards.filter(first__name="Di").first() or round_.boards.filter(
        second__name="Di").first()
    assert di_board.results.get().kind in ("forfeit", "bye")
