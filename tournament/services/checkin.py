"""Check-in: players say "I am here" before a round is paired (``Event.checkin``).

The only code that writes check-ins, opens and closes the check-in, and marks the players who
did not check in absent. Which round a check-in is for: with ``once``, round 1 while it is not
paired; with ``every_round``, the next round to be paired. It is open while the mode is on, the
arbiter has not closed it (``Event.checkin_open``), its closing time (``checkin_closes_at``) has
not passed and that round is not paired yet. A closed check-in refuses the player's phone and
the kiosk; the arbiter can still tick a player.

Pairing a round while its check-in is open is allowed (the arbiter decides), but kept in the
history with the names of who had not checked in (``note_pairing``, called by
``tournament.services.rounds``). Pairing then opens the check-in for the next round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.boards import player_codes
from tournament.models import Absence, Board, CheckIn, Event, HistoryEntry, Player, PlayerCard
from tournament.services import format as event_format
from tournament.services.errors import ServiceError
from tournament.services.events import _current_round_number
from tournament.services.history import log_change
from tournament.services.validation import checked
from tournament.texts.formatting import NO_CHECKIN_REASON, name_key

#: The reason stored on an absence made by ``mark_missing_absent``: how the dashboard tells
#: these apart from absences the players asked for (and offers the one-click un-mark).
#: The reason of an absence or a withdrawal the arbiter chose for a player who never appeared
#: (``rounds.decide_no_shows``), before the round after the check-in.
NO_SHOW_REASON = "never appeared"


def checkin_round(event: Event) -> int | None:
    """The round players check in for now, or ``None`` (check-in off, or nothing left to pair)."""
    if event.checkin == Event.CheckIn.OFF:
        return None
    paired = _current_round_number(event)
    if event.checkin == Event.CheckIn.ONCE:
        return 1 if paired == 0 else None
    number = paired + 1
    return number if number <= event_format.planned_rounds(event) else None


def closed_reason(event: Event, now: datetime | None = None) -> str | None:
    """Why players cannot check in themselves now, or ``None`` when they can."""
    if checkin_round(event) is None:
        return (_("This event does not use check-in.") if event.checkin == Event.CheckIn.OFF
                else _("There is no round left to check in for."))
    if not event.checkin_open:
        return _("The arbiter has closed the check-in.")
    now = now or timezone.now()
    if event.checkin_closes_at is not None and now >= event.checkin_closes_at:
        return _("The check-in closed at %(time)s.") % {
            "time": timezone.localtime(event.checkin_closes_at).strftime("%H:%M")}
    return None


def is_open(event: Event, now: datetime | None = None) -> bool:
    return closed_reason(event, now) is None


@dataclass(frozen=True)
class Summary:
    """Where the check-in stands: "12 of 14 checked in" and who is missing.

    ``expected`` are the players who play the round: not withdrawn, already joined, without an
    absence for it. ``marked`` are the absences ``mark_missing_absent`` made (un-marked in one
    click while the round is not paired)."""

    round: int | None
    open: bool
    closed_reason: str | None
    checked: list[Player] = field(default_factory=list)
    missing: list[Player] = field(default_factory=list)
    marked: list[Absence] = field(default_factory=list)

    @property
    def expected(self) -> int:
        return len(self.checked) + len(self.missing)

    def text(self) -> str:
        return _("%(n)d of %(total)d checked in") % {"n": len(self.checked),
                                                    "total": self.expected}


def summary(event: Event, now: datetime | None = None) -> Summary:
    number = checkin_round(event)
    reason = closed_reason(event, now)
    if number is None:
        return Summary(None, False, reason)
    absences = list(Absence.objects.filter(player__event=event, round_number=number)
                    .select_related("player"))
    absent = {a.player_id for a in absences}
    done = set(CheckIn.objects.filter(player__event=event, round_number=number)
               .values_list("player_id", flat=True))
    expected = sorted((p for p in event.players.all()
                       if p.is_active_in(number) and p.pk not in absent),
                      key=lambda p: name_key(p.name))
    marked = sorted((a for a in absences if a.reason == NO_CHECKIN_REASON),
                    key=lambda a: name_key(a.player.name))
    return Summary(number, reason is None, reason,
                   checked=[p for p in expected if p.pk in done],
                   missing=[p for p in expected if p.pk not in done], marked=marked)


def never_appeared(event: Event, number: int) -> list[Player]:
    """The players to be paired in round ``number`` who never appeared: they never checked in
    and sat at no board of an earlier round (marked absent for not checking in, say), unless
    the arbiter said to keep them for this round (``rounds.decide_no_shows``). Only where the
    round has no check-in of its own (check-in once, before round 1): with a check-in every
    round, that round's check-in asks the same question."""
    if event.checkin == Event.CheckIn.OFF or number < 2 or checkin_round(event) == number:
        return []
    seen = set(CheckIn.objects.filter(player__event=event).values_list("player_id", flat=True))
    for first, second in Board.objects.filter(round__event=event, round__number__lt=number
                                              ).values_list("first_id", "second_id"):
        seen.update((first, second))
    kept = {pk for entry in event.history.filter(action=HistoryEntry.Action.NO_SHOWS_DECIDED)
            if entry.details.get("round") == number for pk in entry.details.get("kept", [])}
    absent = set(Absence.objects.filter(player__event=event, round_number=number)
                 .values_list("player_id", flat=True))
    return sorted((p for p in event.players.all()
                   if p.is_active_in(number) and p.joined_round < number
                   and p.pk not in seen | kept | absent),
                  key=lambda p: name_key(p.name))


def checked_in(player: Player) -> CheckIn | None:
    """The player's check-in for the round check-in is for now, if any."""
    number = checkin_round(player.event)
    if number is None:
        return None
    return CheckIn.objects.filter(player=player, round_number=number).first()


def _refuse_unless_playing(player: Player, number: int) -> None:
    if player.withdrawn_after_round is not None and player.withdrawn_after_round < number:
        raise ServiceError(_("%(name)s has withdrawn from the event and cannot check in.")
                           % {"name": player.name})
    if player.joined_round > number:
        raise ServiceError(_("%(name)s joins in round %(n)d: check in before that round.")
                           % {"name": player.name, "n": player.joined_round})


@transaction.atomic
def check_in(player: Player, via: str, *, user=None,
             now: datetime | None = None) -> tuple[CheckIn, bool]:
    """Check the player in for the check-in's round; ``(row, created)``. Twice is harmless.

    ``via`` is ``CheckIn.Via``: the player's phone (``card``) and the kiosk are refused while
    the check-in is closed, the arbiter is not. A player marked absent for not checking in is
    a late arrival: the absence goes. An absence the player asked for stays: the arbiter
    cancels it first.
    """
    if via not in CheckIn.Via.values:
        raise ServiceError(_("Unknown way of checking in."))
    event = Event.objects.select_for_update().get(pk=player.event_id)
    player = Player.objects.get(pk=player.pk)
    number = checkin_round(event)
    if number is None:
        raise ServiceError(closed_reason(event, now))
    _refuse_unless_playing(player, number)
    existing = CheckIn.objects.filter(player=player, round_number=number).first()
    if existing is not None:
        return existing, False
    if via != CheckIn.Via.ARBITER:
        reason = closed_reason(event, now)
        if reason is not None:
            raise ServiceError(reason + " " + _("Please see the arbiter."))
    absence = Absence.objects.filter(player=player, round_number=number).first()
    if absence is not None:
        if absence.reason != NO_CHECKIN_REASON:
            raise ServiceError(_("%(name)s asked to be absent in round %(n)d; the arbiter "
                                 "cancels the absence first.")
                               % {"name": player.name, "n": number})
        if via != CheckIn.Via.ARBITER:
            raise ServiceError(_("%(name)s was marked absent for round %(n)d. Please see the "
                                 "arbiter.") % {"name": player.name, "n": number})
        absence.delete()
    known_user = user if user is not None and getattr(user, "is_authenticated", False) else None
    row = checked(CheckIn(player=player, round_number=number, via=via, user=known_user),
                  exclude=["player", "user"])
    row.save()
    return row, True


@transaction.atomic
def undo_check_in(player: Player) -> bool:
    """Take back the player's check-in for the check-in's round (a slip of the arbiter's key);
    whether there was one."""
    event = Event.objects.select_for_update().get(pk=player.event_id)
    number = checkin_round(event)
    if number is None:
        raise ServiceError(closed_reason(event))
    deleted, _rows = CheckIn.objects.filter(player=player, round_number=number).delete()
    return bool(deleted)


@transaction.atomic
def set_open(event: Event, open_: bool) -> Event:
    """Open or close the check-in by hand. Opening it again also clears a closing time that has
    passed (otherwise it would stay closed)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.checkin == Event.CheckIn.OFF:
        raise ServiceError(_("This event does not use check-in: turn it on in the settings."))
    event.checkin_open = bool(open_)
    fields = ["checkin_open"]
    if open_ and event.checkin_closes_at is not None and event.checkin_closes_at <= timezone.now():
        event.checkin_closes_at = None
        fields.append("checkin_closes_at")
    event.save(update_fields=fields)
    return event


@transaction.atomic
def mark_missing_absent(event: Event, *, user=None,
                        expected: list[int] | None = None) -> list[Absence]:
    """An absence (the event's absence VP; 0 in a round robin) for every player who has not
    checked in for the check-in's round, with the reason "did not check in", and one history
    entry naming them.

    ``expected`` (the ids the arbiter saw when confirming) refuses when the list changed in
    between, so nobody is marked absent who was not on the confirmation page.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    state = summary(event)
    if state.round is None:
        raise ServiceError(closed_reason(event))
    if not state.missing:
        raise ServiceError(_("Everyone has checked in for round %(n)d.") % {"n": state.round})
    if expected is not None and sorted(expected) != sorted(p.pk for p in state.missing):
        raise ServiceError(_("Who is missing has changed since you looked: check the list "
                             "again."))
    info = event_format.event_format(event)
    vp = Decimal("0") if info.is_round_robin else event.absence_vp
    made = []
    for player in state.missing:
        absence = checked(Absence(player=player, round_number=state.round, vp=vp,
                                  reason=NO_CHECKIN_REASON), exclude=["player"])
        absence.save()
        made.append(absence)
    log_change(event, HistoryEntry.Action.CHECKIN_ABSENT, {
        "round": state.round, "names": [p.name for p in state.missing], "vp": str(vp)},
        user=user)
    return made


@transaction.atomic
def unmark_absent(absence: Absence, *, user=None) -> CheckIn:
    """A late arrival: the "did not check in" absence goes and the player is checked in."""
    absence = Absence.objects.select_related("player__event").get(pk=absence.pk)
    if absence.reason != NO_CHECKIN_REASON:
        raise ServiceError(_("This absence was asked for, not made by the check-in; cancel it "
                             "on the players page."))
    if absence.player.event.rounds.filter(number=absence.round_number).exists():
        raise ServiceError(_("Round %(n)d is already paired; its absences stand.")
                           % {"n": absence.round_number})
    return check_in(absence.player, CheckIn.Via.ARBITER, user=user)[0]


def note_pairing(event: Event, number: int, *, user=None) -> None:
    """Called by the pairing service inside its transaction, before round ``number`` is
    written: pairing while that round's check-in is open is kept in the history with the names
    of who had not checked in. Then the check-in opens for the next round."""
    if checkin_round(event) != number:
        return
    state = summary(event)
    if state.open:
        log_change(event, HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN, {
            "round": number, "checked": len(state.checked), "expected": state.expected,
            "names": [p.name for p in state.missing]}, user=user)
    fields = []
    if not event.checkin_open:
        event.checkin_open = True
        fields.append("checkin_open")
    if event.checkin_closes_at is not None and event.checkin_closes_at <= timezone.now():
        event.checkin_closes_at = None
        fields.append("checkin_closes_at")
    if fields:
        Event.objects.filter(pk=event.pk).update(**{f: getattr(event, f) for f in fields})


def cards_for(players) -> list:
    """``(player, card)`` for each player holding a card (every player is given one when
    entered; a card the arbiter revoked without a new one leaves its player out)."""
    live = {c.player_id: c for c in PlayerCard.objects.filter(
        player__in=[p.pk for p in players], revoked_at__isnull=True)}
    return [(p, live[p.pk]) for p in players if p.pk in live]


@transaction.atomic
def reissue_card(player: Player, *, user=None):
    """A new card for a lost one: the old code stops working at once."""
    card = player_codes.issue_card(player)
    log_change(player.event, HistoryEntry.Action.CARDS_ISSUED,
               {"player": player.name, "issued": True, "revoked": True}, user=user)
    return card


@transaction.atomic
def revoke_card(player: Player, *, user=None) -> int:
    """Revoke the player's card without a new one ("Reissue card" gives a new one)."""
    count = player_codes.revoke_card(player)
    if count:
        log_change(player.event, HistoryEntry.Action.CARDS_ISSUED,
                   {"player": player.name, "issued": False, "revoked": True}, user=user)
    return count


@transaction.atomic
def lock_kiosks(event: Event) -> Event:
    """Lock every kiosk of the event: their cookies carry the previous generation."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event.kiosk_generation += 1
    event.save(update_fields=["kiosk_generation"])
    return event
