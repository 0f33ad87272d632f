"""The organiser's and the players' side of a self-running event: its settings, pausing and
resuming, the players' own registrations and absences. Every change is one transaction,
checked here whatever page or command it comes from; a refusal is a ``ServiceError`` with the
reason, and changes nothing.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from autopilot import runner
from autopilot.models import Autopilot, Registration
from clocks import services as clock_services
from games import news
from games.online import play as online
from tournament import services
from tournament.inputs.names import skeleton
from tournament.models import Absence, Event, HistoryEntry, Player, PlayerLogin
from tournament.services import ServiceError
from tournament.services.history import log_change
from tournament.services.validation import checked

#: The settings an organiser gives (the form's fields, the order they are shown in).
SETTINGS = ("first_round_at", "schedule", "minutes", "registration",
            "registration_closes_at", "approval", "late_until_round", "missed_games_limit")


def pilot_of(event: Event) -> Autopilot | None:
    return Autopilot.objects.filter(event=event).first()


def _now() -> datetime.datetime:
    """The server's time as the clocks read it (so that tests move both together)."""
    return runner.moment(clock_services.now_ms())


@transaction.atomic
def configure(event: Event, values: dict, *, user=None) -> Autopilot:
    """Make ``event`` run itself with ``values`` (``SETTINGS``), or change its settings.

    The event is played online from now on (``games.online.play.mark_event_online``). Refused
    with the reason: a check-in (players appear by opening their game), registration closing
    after round 1's start, round 1 in the past while nothing is paired yet.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    pilot = pilot_of(event)
    created = pilot is None
    if created:
        pilot = Autopilot(event=event)
    elif pilot.finished_at is not None:
        raise ServiceError(_("The event is over: its automation has nothing left to do."))
    before = {field: _shown(pilot, field) for field in SETTINGS} if not created else {}
    for field in SETTINGS:
        if field in values:
            setattr(pilot, field, values[field])
    checked(pilot, exclude=["event"])
    if event.checkin != Event.CheckIn.OFF:
        raise ServiceError(_("Turn the check-in off first: in an event that runs itself, "
                             "players show they are here by opening their game."))
    if pilot.registration and pilot.registration_closes_at is None:
        raise ServiceError(_("Registration closes at: give a time (at round 1's start at the "
                             "latest)."))
    if pilot.registration and pilot.registration_closes_at > pilot.first_round_at:
        raise ServiceError(_("Registration must close at round 1's start at the latest."))
    paired = event.rounds.exists()
    if not paired and pilot.first_round_at < _now() - datetime.timedelta(minutes=1) \
            and (created or "first_round_at" in values):
        raise ServiceError(_("Round 1's start is in the past: give a time to come."))
    pilot.save()
    online.mark_event_online(event, user=user)
    if created:
        log_change(event, HistoryEntry.Action.AUTOMATIC, {
            "step": "enabled", "first_round": timezone.localtime(pilot.first_round_at)
            .strftime("%Y-%m-%d %H:%M")}, user=user)
    changes = [[_label(field), before[field], _shown(pilot, field)] for field in SETTINGS
               if not created and before[field] != _shown(pilot, field)]
    if changes:  # written in the history and in "What happened by itself"
        log_change(event, HistoryEntry.Action.AUTOMATIC, {
            "step": "settings", "by": user.get_username() if user else "", "changes": changes},
            user=user)
    news.changed(event.pk)
    return pilot


def _shown(pilot: Autopilot, field: str):
    """A setting's value as the history keeps it: a time in the server's zone, a choice by its
    value, a yes/no, a number."""
    value = getattr(pilot, field)
    if isinstance(value, datetime.datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")
    return value


def _label(field: str) -> str:
    """The setting's name as the message catalogue knows it (translated when shown)."""
    with translation.override("en"):
        return str(Autopilot._meta.get_field(field).verbose_name)


def _locked(event: Event) -> Autopilot:
    pilot = Autopilot.objects.select_for_update().filter(event=event).first()
    if pilot is None:
        raise ServiceError(_("This event does not run itself."))
    return pilot


@transaction.atomic
def pause(event: Event, *, reason: str, user) -> Autopilot:
    pilot = _locked(event)
    if not pilot.running:
        raise ServiceError(_("The automation is paused already."))
    reason = " ".join(reason.split())
    checked_reason = checked(HistoryEntry(event=event, action=HistoryEntry.Action.AUTOMATIC,
                                          summary="-", reason=reason), exclude=["event", "user"])
    runner.pause(pilot, reason=checked_reason.reason, by=user.get_username())
    return pilot


@transaction.atomic
def resume(event: Event, *, user) -> Autopilot:
    pilot = _locked(event)
    if pilot.running:
        raise ServiceError(_("The automation is running already."))
    if pilot.finished_at is not None:
        raise ServiceError(_("The event is over: its automation has nothing left to do."))
    pilot.running, pilot.paused_at, pilot.paused_by, pilot.paused_reason = True, None, "", ""
    pilot.save(update_fields=["running", "paused_at", "paused_by", "paused_reason"])
    log_change(event, HistoryEntry.Action.AUTOMATIC,
               {"step": "resumed", "by": user.get_username()}, user=user)
    news.changed(event.pk)
    return pilot


# --- registration ----------------------------------------------------------------------


@dataclass(frozen=True)
class Door:
    """Whether a player may register now, and if not why; ``joins`` the round they would
    join; ``closes_at`` when registration for round 1 closes."""

    open: bool
    why: str = ""
    joins: int = 1
    closes_at: datetime.datetime | None = None


def door(event: Event, pilot: Autopilot | None, now: datetime.datetime | None = None) -> Door:
    now = now or _now()
    if pilot is None or not pilot.registration:
        return Door(False, _("Players do not register themselves for this event: the "
                             "organiser enters them."))
    if pilot.finished_at is not None:
        return Door(False, _("The event is over."))
    paired = services.next_round_number(event) - 1
    if paired == 0:
        if now >= pilot.registration_closes_at:
            return Door(False, _("Registration closed at %(at)s.") % {
                "at": timezone.localtime(pilot.registration_closes_at).strftime(
                    "%Y-%m-%d %H:%M")}, closes_at=pilot.registration_closes_at)
        return Door(True, joins=1, closes_at=pilot.registration_closes_at)
    if paired < pilot.late_until_round:
        if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
            return Door(False, _("A round robin takes no late entries: registration closed "
                                 "when round 1 was paired."))
        return Door(True, joins=paired + 1)
    return Door(False, _("Registration is closed: the event has begun.") if not
                pilot.late_until_round else _("Late registration ended when round %(n)d was "
                                              "paired.") % {"n": pilot.late_until_round})


def _check_account(event: Event, account) -> None:
    if event.is_arbiter(account):
        raise ServiceError(_("You are an arbiter of this event: an arbiter does not play in "
                             "it. Log in with a player's account to register."))
    login = PlayerLogin.objects.filter(user=account, event=event, withdrawn_at__isnull=True) \
        .select_related("player").first()
    if login is not None:
        raise ServiceError(_("You are registered already, as %(name)s: see My games.")
                           % {"name": login.player.name})
    if Registration.objects.filter(event=event, user=account,
                                   status=Registration.Status.WAITING).exists():
        raise ServiceError(_("Your registration is waiting for the organiser's approval."))


def _enter(registration: Registration, now: datetime.datetime) -> Player:
    """The registration's player, entered now with the account's login."""
    event = registration.event
    player = services.add_player(event, name=registration.name, club=registration.club,
                                 country=registration.country, rating=registration.rating)
    PlayerLogin.objects.create(player=player, event=event, user=registration.user,
                               attached_at=now)
    registration.player, registration.decided_at = player, now
    registration.status = Registration.Status.ACCEPTED
    return player


@transaction.atomic
def register(event: Event, account, *, name: str, club: str = "", country: str = "",
             rating: int | None = None) -> Registration:
    """``account`` registers as a player of ``event`` (entered now, or waiting for approval).
    Refused with the reason: registration closed, an arbiter's account, an account already
    registered, a name another player has, a field too long."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    pilot = pilot_of(event)
    now = _now()
    state = door(event, pilot, now)
    if not state.open:
        raise ServiceError(state.why)
    _check_account(event, account)
    registration = checked(Registration(
        event=event, user=account, name=" ".join(name.split()), club=club.strip(),
        country=country.strip(), rating=rating), exclude=["event", "user", "player"])
    if not registration.name:
        raise ServiceError(_("A player needs a name."))
    if event.players.filter(name__iexact=registration.name).exists() or \
            Registration.objects.filter(event=event, status=Registration.Status.WAITING,
                                        name__iexact=registration.name).exists():
        raise ServiceError(_("There is already a player called %(name)s.")
                           % {"name": registration.name})
    _refuse_look_alike(event, registration.name)
    details = {"name": registration.name, "account": account.get_username()}
    if pilot.approval:
        registration.save()
        log_change(event, HistoryEntry.Action.PLAYER_REGISTERED, {**details, "waiting": True},
                   user=account)
        return registration
    player = _enter(registration, now)
    registration.save()
    log_change(event, HistoryEntry.Action.PLAYER_REGISTERED,
               {**details, "round": player.joined_round}, user=account)
    return registration


def _refuse_look_alike(event: Event, name: str) -> None:
    """A name that looks like another player's ("Аda First" with a Cyrillic А beside "Ada
    First") is refused on the registration form: there nobody checks who is who, and a
    look-alike is how one player passes for another in the pairings and the standings. The
    organiser may still enter such a player by hand, warned (``services.names``)."""
    look = skeleton(name)
    taken = [*event.players.values_list("name", flat=True),
             *Registration.objects.filter(event=event, status=Registration.Status.WAITING)
             .values_list("name", flat=True)]
    alike = [other for other in taken if skeleton(other) == look]
    if alike:
        raise ServiceError(_("%(name)s looks like %(other)s, already entered: write your name "
                             "as it is written on your papers, in one alphabet, or ask the "
                             "organiser to enter you.") % {"name": name, "other": alike[0]})


@transaction.atomic
def decide(registration: Registration, *, accept: bool, user) -> Registration:
    """The arbiter accepts (the player is entered now) or refuses a waiting registration."""
    registration = Registration.objects.select_for_update().select_related("event", "user") \
        .get(pk=registration.pk)
    if registration.status != Registration.Status.WAITING:
        raise ServiceError(_("%(name)s's registration was decided already.")
                           % {"name": registration.name})
    event = registration.event
    now = _now()
    details = {"name": registration.name, "account": registration.user.get_username()}
    if accept:  # the registration's closing does not bind the arbiter: the entry rules do
        player = _enter(registration, now)
        details["round"] = player.joined_round
    else:
        registration.status, registration.decided_at = Registration.Status.REFUSED, now
        details["refused"] = True
    registration.save()
    log_change(event, HistoryEntry.Action.PLAYER_REGISTERED, details, user=user)
    return registration


# --- absences asked for by the player --------------------------------------------------


def next_round(event: Event) -> int:
    return services.next_round_number(event)


@transaction.atomic
def ask_absence(player: Player, round_number: int) -> Absence:
    """The player will miss ``round_number``, not paired yet (the event's absence VP)."""
    if player.event.rounds.filter(number=round_number).exists():
        raise ServiceError(_("Round %(n)d is already paired: it is too late to ask for an "
                             "absence.") % {"n": round_number})
    return services.set_absence(player, round_number, reason=_("asked by the player"))


@transaction.atomic
def cancel_absence(player: Player, round_number: int) -> None:
    absence = Absence.objects.filter(player=player, round_number=round_number).first()
    if absence is None:
        raise ServiceError(_("No absence is asked for round %(n)d.") % {"n": round_number})
    services.cancel_absence(absence)
