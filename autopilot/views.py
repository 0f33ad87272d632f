"""The pages of a self-running event: the arbiter's (settings, pause and resume, waiting
registrations, the log of automatic steps), the registration page, a player's absence and
the state My games polls. Every change goes through ``autopilot.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from autopilot import core, runner
from autopilot import services as autopilot
from autopilot.forms import AutopilotForm, RegistrationForm
from autopilot.models import Registration
from clocks import services as clock_services
from tournament.forms import SignupForm
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Event, HistoryEntry, PlayerLogin
from tournament.permissions import arbiter_required
from tournament.services import ServiceError
from tournament.texts import event_texts, formatting
from tournament.views.logins import PASSWORD_BACKEND
from tournament.views.public import _event


def _next(pilot, event: Event) -> str:
    """What the automation does next, in words, for the arbiter's page."""
    if pilot.finished_at is not None:
        return _("The event is over: the final standings are published.")
    now = clock_services.now_ms()
    step = core.next_step(runner.plan_of(pilot), runner.state_of(pilot, now), now)
    if step.kind is core.Kind.WAIT and step.at_ms is not None:
        when = runner.moment(step.at_ms)
        if step.round and not event.rounds.filter(number=step.round).exists():
            return _("Round %(n)d is paired, published and started at %(at)s.") % {
                "n": step.round, "at": formatting.moment(when)}
        return _("No-shows of round %(n)d are forfeited at %(at)s.") % {
            "n": step.round, "at": formatting.moment(when)}
    if step.kind is core.Kind.WAIT:
        return _("Round %(n)d is being played: it closes when its last game ends.") % {
            "n": step.round}
    if step.kind is core.Kind.BLOCKED:
        return pilot.waiting_for
    return _("Due now: the server does it within a few seconds.")


@arbiter_required
def settings_page(request, event: Event):
    pilot = autopilot.pilot_of(event)
    form = AutopilotForm(request.POST or None, instance=pilot)
    if request.method == "POST" and form.is_valid():
        try:
            autopilot.configure(event, {f: form.cleaned_data[f] for f in autopilot.SETTINGS},
                                user=request.user)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Saved: the event runs itself.") if pilot is None
                             else _("Saved."))
            return redirect("autopilot_settings", event.slug)
    entries = event.history.filter(action__in=[HistoryEntry.Action.AUTOMATIC,
                                               HistoryEntry.Action.PLAYER_REGISTERED])[:200]
    return render(request, "autopilot/settings.html", {
        "event": event, "is_arbiter": True, "pilot": pilot, "form": form,
        "next": _next(pilot, event) if pilot else "",
        "waiting": Registration.objects.filter(event=event,
                                               status=Registration.Status.WAITING),
        "log": [(entry, event_texts.summary(entry)) for entry in entries],
        "door": autopilot.door(event, pilot) if pilot else None,
    }, status=400 if form.errors else 200)


@arbiter_required
@require_POST
def action(request, event: Event, what: str):
    """Pause (with a reason), resume, accept or refuse a waiting registration."""
    try:
        if what == "pause":
            autopilot.pause(event, reason=request.POST.get("reason", ""), user=request.user)
            messages.success(request, _("The automation is paused: nothing happens by itself "
                                        "until you resume it. The clocks run on."))
        elif what == "resume":
            autopilot.resume(event, user=request.user)
            messages.success(request, _("The automation is running again."))
        elif what in ("accept", "refuse"):
            registration = get_object_or_404(Registration, event=event, pk=whole_number(
                request.POST.get("registration"), label=_("Registration"),
                column=column_range(Registration, "id")))
            autopilot.decide(registration, accept=what == "accept", user=request.user)
            messages.success(request, (_("%(name)s is entered.") if what == "accept"
                                       else _("%(name)s's registration is refused."))
                             % {"name": registration.name})
        else:
            messages.error(request, _("Unknown action %(action)r.") % {"action": what})
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("autopilot_settings", event.slug)


@never_cache
def register(request, slug: str):
    """A player's own registration: with the login they have, or a new one made here."""
    event = _event(request, slug)
    pilot = autopilot.pilot_of(event)
    door = autopilot.door(event, pilot)
    form = RegistrationForm(request.POST or None)
    signup = SignupForm(request.POST or None, prefix="new", request=request) \
        if not request.user.is_authenticated else None
    error = None
    if request.method == "POST":
        ready = form.is_valid() and (signup is None or signup.is_valid())
        if ready:
            try:
                with transaction.atomic():
                    account = request.user if signup is None else signup.save()
                    autopilot.register(event, account, **form.cleaned_data)
            except ServiceError as exc:
                error = str(exc)
            else:
                if signup is not None:
                    auth_login(request, account, backend=PASSWORD_BACKEND)
                messages.success(request, _("You are registered for %(event)s. My games shows "
                                            "your next round.") % {"event": event.name}
                                 if not pilot.approval else
                                 _("Your registration for %(event)s waits for the organiser's "
                                   "approval.") % {"event": event.name})
                return redirect("my_games")
    status = 409 if error else 429 if signup is not None and signup.throttled \
        else 400 if request.method == "POST" else 200
    return render(request, "autopilot/register.html", {
        "event": event, "pilot": pilot, "door": door, "form": form, "signup": signup,
        "error": error or (None if door.open else door.why),
    }, status=status)


@login_required
@require_POST
def absence(request, slug: str, number: int):
    """The logged-in player asks to miss round ``number`` (or takes it back: ``cancel``)."""
    event = get_object_or_404(Event, slug=slug)
    login = PlayerLogin.objects.filter(user=request.user, event=event,
                                       withdrawn_at__isnull=True).select_related("player").first()
    if login is None or autopilot.pilot_of(event) is None:
        messages.error(request, _("You do not play in %(event)s with this login.")
                       % {"event": event.name})
        return redirect("my_games")
    try:
        if request.POST.get("cancel"):
            autopilot.cancel_absence(login.player, number)
            messages.success(request, _("You play in round %(n)d after all.") % {"n": number})
        else:
            autopilot.ask_absence(login.player, number)
            messages.success(request, _("You will not be paired in round %(n)d.") % {"n": number})
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("my_games")
