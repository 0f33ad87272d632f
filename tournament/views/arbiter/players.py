"""Arbiter pages for the players: the list, editing, importing, withdrawals and absences.

Every view is ``arbiter_required`` and writes only through services.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament import services
from tournament.forms import (
    PlayerForm,
    PlayerImportForm,
    ReasonForm,
)
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Absence, Event, Player
from tournament.permissions import arbiter_required
from tournament.services import checkin, logins
from tournament.services.format import is_settled
from tournament.services.names import look_alike_warnings
from tournament.services.rounds import Withdrawal
from tournament.views.arbiter.common import context, fail


@arbiter_required
def players(request, event):
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(event, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error("name", str(exc))
        else:
            if is_settled(event):
                messages.success(request, _("%(name)s added with pairing number %(seed)d.")
                                 % {"name": player.name, "seed": player.seed})
            else:  # the number is the entry order until round 1 gives the pairing numbers
                messages.success(request, _("%(name)s added (entered %(seed)d.; the pairing "
                                            "numbers are given when round 1 is paired).")
                                 % {"name": player.name, "seed": player.seed})
            _warn_look_alikes(request, event, [player])
            return redirect("arbiter_players", event.slug)
    states = logins.login_states(event)
    state = checkin.summary(event) if event.checkin != Event.CheckIn.OFF else None
    ticked = {p.pk for p in state.checked} if state is not None else set()
    reinstatable = {p.pk for p in event.players.filter(withdrawn_after_round__isnull=False)
                    if services.can_reinstate(p)}
    return render(request, "tournament/arbiter/players.html", context(
        event, form=form, import_form=PlayerImportForm(), checkin=state, ticked=ticked,
        reinstatable=reinstatable,
        players=[(p, states.get(p.pk)) for p in event.players.prefetch_related("absences")],
        next_round=services.next_round_number(event), format=services.event_format(event),
        order=services.order_text(event),
    ))


@arbiter_required
def player_edit(request, event, player_id):
    player = get_object_or_404(Player, pk=player_id, event=event)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.update_player(player, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("Player saved."))
            _warn_look_alikes(request, event, [player])
            return redirect("arbiter_players", event.slug)
    return render(request, "tournament/arbiter/player_form.html", context(
        event, form=form, player=player, login=logins.login_states(event).get(player.pk),
        card=player.cards.filter(revoked_at__isnull=True).first()))


def _warn_look_alikes(request, event, players) -> None:
    for warning in look_alike_warnings(event, players):
        messages.warning(request, warning)


@arbiter_required
@require_POST
def players_import(request, event):
    form = PlayerImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            added = services.import_players(event, form.cleaned_data["csv_file"])
        except services.ServiceError as exc:
            fail(request, exc)
        else:
            messages.success(request, ngettext("%(n)d player imported.", "%(n)d players imported.",
                                               len(added)) % {"n": len(added)})
            ignored = services.ignored_columns(form.cleaned_data["csv_file"])
            if ignored:
                messages.warning(request, _("Columns not read: %(names)s (the import reads name, "
                                            "club, country and rating).")
                                 % {"names": ", ".join(ignored)})
            _warn_look_alikes(request, event, added)
    else:
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
    return redirect("arbiter_players", event.slug)


@arbiter_required
@require_POST
def player_withdraw(request, event, player_id):
    player = get_object_or_404(Player, pk=player_id, event=event)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Withdrawing a player needs a reason."))
    else:
        try:
            done = services.withdraw_player(player, reason=form.cleaned_data["reason"],
                                            user=request.user)
        except services.ServiceError as exc:
            fail(request, exc)
        else:
            messages.success(request, _("%(name)s withdrawn.") % {"name": player.name})
            _say_what_became_of_the_draft(
                request, done,
                repaired=_("Round %(n)d was a draft: it is paired again without %(name)s."),
                by_hand=_("Round %(n)d was a draft paired by hand: %(name)s's board is removed; "
                          "place their opponent on the round's page."))
    return redirect("arbiter_players", event.slug)


def _say_what_became_of_the_draft(request, done: Withdrawal, *, repaired: str,
                                  by_hand: str) -> None:
    """After a withdrawal or its undo: what it did to the round still a draft, if any."""
    if done.draft is None:
        return
    words = {"n": done.draft.number, "name": done.player.name}
    if done.repaired:
        messages.info(request, repaired % words)
    else:
        messages.warning(request, by_hand % words)


@arbiter_required
@require_POST
def player_reinstate(request, event, player_id):
    """The players page's undo of a withdrawal."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        done = services.reinstate_player(player, user=request.user)
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("%(name)s is back: paired again from the next round.")
                         % {"name": player.name})
        _say_what_became_of_the_draft(
            request, done,
            repaired=_("Round %(n)d was a draft: it is paired again with %(name)s."),
            by_hand=_("Round %(n)d was a draft paired by hand: place %(name)s on the round's "
                      "page."))
    return redirect("arbiter_players", event.slug)


@arbiter_required
@require_POST
def player_absence(request, event, player_id):
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        services.set_absence(player, whole_number(request.POST.get("round"), label=_("Round"),
                                                  column=column_range(Absence, "round_number")),
                             vp=request.POST.get("vp") or None,
                             reason=request.POST.get("reason", ""))
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Absence recorded."))
    return redirect("arbiter_players", event.slug)


@arbiter_required
@require_POST
def absence_cancel(request, event, absence_id):
    absence = get_object_or_404(Absence, pk=absence_id, player__event=event)
    try:
        services.cancel_absence(absence)
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Absence cancelled."))
    return redirect("arbiter_players", event.slug)
