"""Arbiter pages for a round: pairing it, its page, and its actions (publish, close, pair
again, schedule, change a pairing).

Every view is ``arbiter_required`` and writes only through services.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament import services
from tournament.bridges import pairing_bridge, pairing_check, standings_bridge
from tournament.bridges.reading import one_reading
from tournament.inputs.request_input import column_range, date_time, whole_number
from tournament.models import Board, Event, Round
from tournament.permissions import arbiter_required
from tournament.services import checkin, confirmations
from tournament.views.arbiter.common import context, fail
from tournament.views.confirm import safe_next


@arbiter_required
@require_POST
def round_pair(request, event):
    try:
        if request.POST.get("manual") == "1":
            round_ = services.start_manual_round(event, reason=request.POST.get("reason", ""),
                                                 user=request.user)
        else:
            before = checkin.summary(event) if event.checkin != Event.CheckIn.OFF else None
            round_ = services.pair_next_round(
                event, user=request.user, over_disputes=request.POST.get("over_disputes", ""))
            if before is not None and before.open and before.round == round_.number \
                    and before.missing:
                messages.warning(request, ngettext(
                    "Paired with the check-in open: %(names)s had not checked in (kept in "
                    "the history).",
                    "Paired with the check-in open: %(n)d players had not checked in (kept "
                    "in the history): %(names)s.", len(before.missing))
                    % {"n": len(before.missing),
                       "names": ", ".join(p.name for p in before.missing)})
    except services.ServiceError as exc:
        fail(request, exc)
        return redirect("arbiter_dashboard", event.slug)
    messages.success(request, _("Round %(n)d paired: check and publish.") % {"n": round_.number})
    return redirect("arbiter_round", event.slug, round_.number)


def _round_page(request, event, round_, *, confirm=None, status=200):
    """The round as its arbiter checks it; a draft's warnings, check and VP read the event
    once (``reading.one_reading``)."""
    with one_reading():
        return _round_page_read(request, event, round_, confirm=confirm, status=status)


def _round_page_read(request, event, round_, *, confirm, status):
    before = standings_bridge.vp_as_paired(round_)
    states = confirmations.board_states(round_)
    boards = [(board, result, before.get(board.first_id),
               before.get(board.second_id) if board.second_id else None,
               states.get(board.pk))
              for board, result in services.boards_with_results(round_)]
    warnings, notes = services.pairing_review(round_)
    players_confirm = confirmations.players_confirm_results(event) or any(
        state.confirmations for state in states.values())
    return render(request, "tournament/arbiter/round.html", context(
        event, round=round_, boards=boards, not_paired=services.not_paired(round_),
        players_confirm=players_confirm, summary=confirmations.round_summary(states),
        warnings=warnings, notes=notes, players=event.players.all(),
        confirm=confirm, paired_by=pairing_bridge.paired_by_text(round_.paired_by),
        check=pairing_check.check_round(round_),
    ), status=status)


@arbiter_required
def round_detail(request, event, number):
    return _round_page(request, event, get_object_or_404(Round, event=event, number=number))


def _round_change(request, round_, action: str) -> str:
    """Carry out one round action; the success message, or a ServiceError."""
    post, confirm, number = request.POST, request.POST.get("confirm") == "1", round_.number
    if action == "publish":
        services.publish_round(round_)
        return _("Round %(n)d published.") % {"n": number}
    if action == "close":
        services.close_round(round_)
        return _("Round %(n)d closed.") % {"n": number}
    if action == "repair":
        services.repair_round(round_, reason=post.get("reason", ""), confirm=confirm,
                              user=request.user)
        return _("Round %(n)d paired again.") % {"n": number}
    if action == "schedule":
        services.schedule_round(round_, date_time(post.get("starts_at"), label=_("Start")))
        return _("Start time saved.")
    players, boards = column_range(Board, "first"), column_range(Board, "number")
    services.edit_pairing(
        round_, first_id=whole_number(post.get("first"), label=_("First"), column=players),
        second_id=whole_number(post.get("second"), label=_("Second"), column=players,
                               required=False),
        board_number=whole_number(post.get("board"), label=_("Board"), column=boards),
        reason=post.get("reason", ""), confirm=confirm, user=request.user,
    )
    return _("Pairing changed.")


ROUND_ACTIONS = ("publish", "close", "repair", "schedule", "edit")


@arbiter_required
@require_POST
def round_action(request, event, number, action):
    round_ = get_object_or_404(Round, event=event, number=number)
    if action not in ROUND_ACTIONS:
        raise Http404(_("Unknown action."))
    try:
        messages.success(request, _round_change(request, round_, action))
    except services.NeedsConfirmation as exc:
        fields = [(k, v) for k, v in request.POST.items()
                  if k not in ("csrfmiddlewaretoken", "confirm")]
        return _round_page(request, event, round_, status=409, confirm={
            "action": action, "message": str(exc), "fields": fields})
    except services.ServiceError as exc:
        fail(request, exc)
    # back to the page the action came from (the online round page publishes too)
    return redirect(safe_next(request, reverse("arbiter_round", args=[event.slug, number])))
