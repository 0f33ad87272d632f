"""Arbiter pages for the event: creating it, the dashboard, the players who never
appeared, the settings.

Every view is ``arbiter_required`` and writes only through services.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import services
from tournament.boards import links
from tournament.bridges import pairing_bridge
from tournament.bridges.standings_bridge import inconsistencies, reading_notes, tiebreak_registry
from tournament.forms import (
    EventForm,
)
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Event, Player, Result
from tournament.permissions import arbiter_required
from tournament.services import checkin
from tournament.texts import event_texts
from tournament.texts.tiebreak_texts import texts
from tournament.views.arbiter.common import context, fail


@login_required
@permission_required("tournament.add_event", raise_exception=True)
def event_create(request):
    """Organisers only (the ``add_event`` permission, given in the admin): 403 for others."""
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.changes()
        event = services.create_event(name=data.pop("name"), arbiter=request.user, **data)
        messages.success(request, _("Event created. Add the players next."))
        return redirect("arbiter_players", event.slug)
    return render(request, "tournament/arbiter/event_form.html",
                  {"form": form, "tiebreaks": texts(tiebreak_registry().values())})


#: The dashboard's next steps while a round is being played.
ROUND_IN_PLAY = frozenset({"publish", "results", "conflicts", "close"})


@arbiter_required
def dashboard(request, event):
    rounds = list(event.rounds.all())
    current = rounds[-1] if rounds else None
    missing = services.missing_results(current) if current else []
    conflicts = (
        Result.objects.filter(board__round__event=event, status=Result.Status.CONFLICT)
        .select_related("board__round", "board__first", "board__second")
    )
    next_action = services.next_action(event)
    no_shows = (checkin.never_appeared(event, services.next_round_number(event))
                if next_action and next_action[0] == "no_shows" else [])
    return render(request, "tournament/arbiter/dashboard.html", context(
        event, rounds=rounds, current=current, missing=missing, conflicts=conflicts,
        next_action=next_action, no_shows=no_shows,
        players=event.players.count(), format=services.event_format(event),
        order=services.order_text(event), problems=inconsistencies(event),
        checkin=checkin.summary(event) if event.checkin != Event.CheckIn.OFF else None,
        # while a round is played the next round's check-in is only counted: its decisions
        # (close it, mark the missing absent) come once the round is over
        round_in_play=bool(next_action) and next_action[0] in ROUND_IN_PLAY,
        engine_missing=pairing_bridge.engine_missing(event),
        other_rules=pairing_bridge.other_rules_text(current.paired_by) if current else "",
        automation=links.automations.links([event.pk]).get(event.pk),
    ))


@arbiter_required
@require_POST
def no_shows(request, event):
    """The dashboard's answer about the players who never appeared, one choice each."""
    decisions = {}
    for key, value in request.POST.items():
        if key.startswith("player-"):
            pk = whole_number(key.removeprefix("player-"), label=_("Player"),
                              column=column_range(Player, "id"))
            decisions[pk] = value
    try:
        services.decide_no_shows(event, decisions, user=request.user)
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Noted: round %(n)d can be paired.")
                         % {"n": services.next_round_number(event)})
    return redirect("arbiter_dashboard", event.slug)


@arbiter_required
def event_settings(request, event):
    settled = event.rounds.exists()
    form = EventForm(request.POST or None, instance=event, settled=settled)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(event, form.changes(), user=request.user,
                                  reason=form.cleaned_data.get("change_reason", ""))
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Settings saved."))
            warning = services.event_format(event).warning
            if warning:
                messages.warning(request, warning)
            return redirect("arbiter_settings", event.slug)
    event.refresh_from_db()
    return render(request, "tournament/arbiter/event_form.html", context(
        event, form=form, tiebreaks=texts(tiebreak_registry().values()),
        format=services.event_format(event), order=services.order_text(event),
        history=[(h, event_texts.summary(h)) for h in event.history.all()[:50]],
        readings=reading_notes(event),
    ))
