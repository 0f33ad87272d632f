"""The arbiter's check-in controls: open and close, tick a player, mark the missing absent
(after a confirmation page), un-mark a late arrival, unlock and lock kiosks, reissue and revoke
player cards, print the cards. Every view is ``arbiter_required`` and writes through
``tournament.services.checkin``.
"""

from __future__ import annotations

from csp.decorators import csp_exempt
from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.boards import player_codes
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Absence, Event, Player
from tournament.permissions import arbiter_required
from tournament.printing import cards as card_printing
from tournament.services import checkin
from tournament.services.errors import ServiceError
from tournament.site import site_address
from tournament.views.kiosk import unlock_cookie


def _back(request, event, default="arbiter_dashboard"):
    """Where the form came from (``next``, this site only), else the dashboard."""
    target = request.POST.get("next", "")
    if isinstance(target, str) and target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect(default, event.slug)


def _wants_json(request) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


@arbiter_required
@require_POST
def open_close(request, event, action):
    if action not in ("open", "close"):
        raise Http404(_("Unknown action."))
    try:
        checkin.set_open(event, action == "open")
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Check-in opened.") if action == "open"
                         else _("Check-in closed: players can no longer check in themselves."))
    return _back(request, event)


@arbiter_required
@require_POST
def tick(request, event, player_id):
    """Tick (``state=in``) or untick (``state=out``) a player; JSON for the page's script."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    state = request.POST.get("state")
    error = None
    if state not in ("in", "out"):
        error = _("Say whether the player is here (in) or not (out).")
    else:
        try:
            if state == "in":
                checkin.check_in(player, "arbiter", user=request.user)
            else:
                checkin.undo_check_in(player)
        except ServiceError as exc:
            error = str(exc)
    if _wants_json(request):
        summary = checkin.summary(event)
        return JsonResponse({
            "ok": error is None, "error": error,
            "checked_in": checkin.checked_in(player) is not None,
            "summary": summary.text() if summary.round else "",
        }, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return _back(request, event, default="arbiter_players")


@arbiter_required
@require_POST
def mark_absent(request, event):
    """Without ``confirm``: the page that lists who would be marked absent; with it: do it."""
    summary = checkin.summary(event)
    if request.POST.get("confirm") != "1":
        if summary.round is None or not summary.missing:
            messages.info(request, _("Nobody is missing."))
            return redirect("arbiter_dashboard", event.slug)
        return render(request, "tournament/checkin/mark_absent.html", {
            "event": event, "is_arbiter": True, "summary": summary,
            "vp": 0 if event.pairing_system == Event.PairingSystem.ROUND_ROBIN
            else event.absence_vp,
        }, status=409)
    ids = column_range(Player, "id")
    expected = [whole_number(v, label=_("Player"), column=ids)
                for v in request.POST.getlist("expected")[:1000]]
    try:
        made = checkin.mark_missing_absent(event, user=request.user, expected=expected)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, ngettext(
            "%(n)d player marked absent for round %(r)d.",
            "%(n)d players marked absent for round %(r)d.", len(made))
            % {"n": len(made), "r": summary.round})
    return redirect("arbiter_dashboard", event.slug)


@arbiter_required
@require_POST
def unmark(request, event, absence_id):
    absence = get_object_or_404(Absence, pk=absence_id, player__event=event)
    try:
        checkin.unmark_absent(absence, user=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(name)s is no longer absent and is checked in.")
                         % {"name": absence.player.name})
    return redirect("arbiter_dashboard", event.slug)


@arbiter_required
@require_POST
def kiosk_unlock(request, event):
    response = redirect("event_kiosk", event.slug)
    unlock_cookie(response, event, secure=request.is_secure())
    return response


@arbiter_required
@require_POST
def kiosk_lock_all(request, event):
    checkin.lock_kiosks(event)
    messages.success(request, _("Every kiosk of this event is locked; unlock each again on "
                                "the device itself."))
    return redirect("arbiter_dashboard", event.slug)


@arbiter_required
@require_POST
def card_action(request, event, player_id, action):
    player = get_object_or_404(Player, pk=player_id, event=event)
    if action == "reissue":
        checkin.reissue_card(player, user=request.user)
        messages.success(request, _("A new card for %(name)s: print it; the old one no longer "
                                    "works.") % {"name": player.name})
    elif action == "revoke":
        if checkin.revoke_card(player, user=request.user):
            messages.success(request, _("%(name)s's card no longer works.")
                             % {"name": player.name})
        else:
            messages.info(request, _("%(name)s has no card in use.") % {"name": player.name})
    else:
        raise Http404(_("Unknown action."))
    return redirect("arbiter_player_edit", event.slug, player.pk)


@csp_exempt()
@arbiter_required
def print_cards(request, event):
    """The player cards as a PDF (all players, or ``?player=ID``). Never cached: every card
    carries its player's secret code. (The same document, for every player, is ``cards`` in
    ``tournament.printing.documents``, for ``export_pdf``; this view adds the one-player
    card.)"""
    paper = request.GET.get("paper", "a4").lower()
    if paper not in ("a4", "letter"):
        raise Http404(_("Unknown paper %(paper)r; choose one of: a4, letter.") % {"paper": paper})
    players = event.players.order_by("name")
    one = whole_number(request.GET.get("player"), label=_("Player"),
                       column=column_range(Player, "id"), required=False)
    if one is not None:
        players = [get_object_or_404(Player, pk=one, event=event)]
        if player_codes.live_card(players[0]) is None:
            raise Http404(_("%(name)s's card was revoked; reissue it on the player's page to "
                            "print a new one.") % {"name": players[0].name})
    else:
        players = [p for p in players if p.withdrawn_after_round is None]
    pdf = card_printing.render(event, players, base_url=site_address.base_url(request),
                               paper=paper)
    response = HttpResponse(pdf, content_type="application/pdf")
    suffix = f"-{one}" if one is not None else ""
    response["Content-Disposition"] = f'inline; filename="{event.slug}-cards{suffix}.pdf"'
    return response
