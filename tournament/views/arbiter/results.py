"""Arbiter pages for results: the fast slip entry, a board's page (results, corrections,
disputes, accepting a player's confirmation) and its links.

Every view is ``arbiter_required`` and writes only through services.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine.board import COLOURS
from tournament import services
from tournament.boards import links, tokens
from tournament.forms import (
    OtherResultForm,
    SlipForm,
)
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Board, Result, Round
from tournament.permissions import arbiter_required
from tournament.services import confirmations
from tournament.views.arbiter import versions
from tournament.views.arbiter.common import context, fail


def _refused_status(error: services.ServiceError) -> int:
    """409 for a board that takes no result this way (an online game's), else the form's 200."""
    return 409 if isinstance(error, services.ResultRefused) else 200


@arbiter_required
def result_entry(request, event, number):
    """Keyboard-fast slip entry: board number, twelve scores, Enter."""
    round_ = get_object_or_404(Round, event=event, number=number)
    form = SlipForm(request.POST or None)
    board = None
    status = 200
    if request.method == "POST":
        board_id = whole_number(request.POST.get("board_id"), label=_("Board"),
                                column=column_range(Board, "id"))
        board = get_object_or_404(Board, round=round_, pk=board_id)
        if form.is_valid():
            try:
                recorded = services.enter_slip(
                    board, user=request.user, first_scores=form.scores("first"),
                    second_scores=form.scores("second"),
                    expected_version=form.cleaned_data["expected_version"],
                )
            except services.ServiceError as exc:
                form.add_error(None, str(exc))
                status = _refused_status(exc)
            else:
                if recorded.disputed_by:
                    messages.warning(request, _(
                        "Board %(b)d: this differs from what %(names)s confirmed; both are "
                        "kept for you to decide on the board's page.") % {
                        "b": board.number, "names": ", ".join(recorded.disputed_by)})
                elif recorded.conflict:
                    messages.warning(request, _("Board %(b)d: this differs from the result "
                                                "already entered; kept as a conflict.")
                                     % {"b": board.number})
                elif recorded.created and recorded.result.version > 1:
                    messages.success(request, _("Board %(b)d corrected (version %(v)d).")
                                     % {"b": board.number, "v": recorded.result.version})
                elif recorded.created:
                    messages.success(request, _("Board %(b)d saved.") % {"b": board.number})
                else:
                    messages.info(request, _("Board %(b)d: same result as before, nothing "
                                             "changed.") % {"b": board.number})
                nxt = services.next_board_without_result(round_, after=board)
                url = request.path + (f"?board={nxt.pk}" if nxt else "")
                return redirect(url)
    boards = services.boards_with_results(round_)
    if board is None:
        chosen = request.GET.get("board")
        board = next((b for b, _r in boards if str(b.pk) == chosen), None) or next(
            (b for b, r in boards if r is None and not b.is_bye), None
        )
    stored = next((r for b, r in boards if board is not None and b.pk == board.pk), None)
    shown = ({"first": stored.first_scores, "second": stored.second_scores}
             if stored is not None and stored.first_scores else {})
    detail = confirmations.board_detail(board) if board is not None else None
    slip_rows = [
        (seat, getattr(board, seat),
         [(f"{seat}_{c}", form.data.get(f"{seat}_{c}", shown.get(seat, {}).get(c)), None)
          for c in COLOURS])
        for seat in ("first", "second")
    ] if board else []
    return render(request, "tournament/arbiter/result_entry.html", context(
        event, round=round_, boards=boards, board=board, form=form, colours=COLOURS,
        slip_rows=slip_rows, stored=stored, detail=detail,
        accounts=[(c, getattr(board, c.seat)) for c in detail.confirmations] if detail else [],
    ), status=status)


@arbiter_required
def board_result(request, event, board_id):
    """Forfeits, decisions, resignations and corrections of one board, with its history: a
    dispute's versions side by side, and a correction of the scores in the slip's twelve
    boxes, filled with the stored ones."""
    board = get_object_or_404(Board.objects.select_related("round", "first", "second"),
                              pk=board_id, round__event=event)
    accepted = services.current_result(board)
    if request.method == "POST" and request.POST.get("form") == "scores":
        return _correct_scores(request, event, board, accepted)
    form = OtherResultForm(request.POST or None, initial={
        "expected_version": accepted.version if accepted else None})
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            recorded = services.record_result(
                board, data["kind"], user=request.user, source=Result.Source.ARBITER,
                first_scores=data["first_scores"], second_scores=data["second_scores"],
                loser_seat=data["loser_seat"], first_vp=data["first_vp"] or None,
                second_vp=data["second_vp"] or None, reason=data["reason"],
                correction=accepted is not None, expected_version=data["expected_version"],
            )
        except services.InvalidResult as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
            status = _refused_status(exc)
        else:
            messages.success(request, _("Result saved (version %(v)d).")
                             % {"v": recorded.result.version})
            return redirect("arbiter_board", event.slug, board.pk)
    return _board_page(request, event, board, accepted, form, status=status)


def _board_page(request, event, board, accepted, form, *, scores_form=None, status=200):
    history = list(board.results.select_related("entered_by"))
    origins = links.result_sources.links(r.pk for r in history)
    held = list(board.confirmations.all())
    conflicts = [r for r in history if r.status == Result.Status.CONFLICT]
    stored = ({"first": accepted.first_scores, "second": accepted.second_scores}
              if accepted is not None and accepted.first_scores else {})
    data = scores_form.data if scores_form is not None else {}
    return render(request, "tournament/arbiter/board_result.html", context(
        event, board=board, form=form, accepted=accepted, scores_form=scores_form,
        history=[(r, origins.get(r.pk)) for r in history],
        accounts=[(c, getattr(board, c.seat)) for c in held],
        versions=versions.dispute(board, accepted, conflicts, held),
        can_accept=len(held) == 1 and accepted is None and not conflicts,
        colours=COLOURS, slip_rows=[
            (seat, getattr(board, seat),
             [(f"{seat}_{c}", data.get(f"{seat}_{c}", stored.get(seat, {}).get(c)), None)
              for c in COLOURS]) for seat in ("first", "second")] if board.second else [],
    ), status=status)


def _correct_scores(request, event, board, accepted):
    """The twelve scores corrected (or entered) on the board's page, with a reason: the stored
    result's kind is kept (a resignation stays one), its scores replaced."""
    form = SlipForm(request.POST)
    reason = request.POST.get("reason", "")
    if form.is_valid():
        kind = accepted.kind if accepted is not None and accepted.first_scores else \
            Result.Kind.PLAYED
        try:
            recorded = services.record_result(
                board, kind, user=request.user, source=Result.Source.ARBITER,
                first_scores=form.scores("first"), second_scores=form.scores("second"),
                loser_seat=accepted.loser_seat if accepted is not None else "",
                reason=reason, correction=accepted is not None,
                expected_version=form.cleaned_data["expected_version"])
        except services.ServiceError as exc:
            form.add_error(None, getattr(exc, "message", None) or str(exc))
        else:
            messages.success(request, _("Result saved (version %(v)d).")
                             % {"v": recorded.result.version})
            return redirect("arbiter_board", event.slug, board.pk)
    other = OtherResultForm(initial={"expected_version": accepted.version if accepted else None})
    return _board_page(request, event, board, accepted, other, scores_form=form, status=400)


@arbiter_required
@require_POST
def accept_confirmation(request, event, board_id, seat):
    """One player's confirmation accepted by the arbiter in one click (the other player's
    missing one noted), from the slip page or the board's page."""
    board = get_object_or_404(Board, pk=board_id, round__event=event)
    if seat not in ("first", "second"):
        raise Http404
    try:
        confirmations.accept_confirmation(board, seat, user=request.user)
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Board %(b)d: %(name)s's confirmation accepted.") % {
            "b": board.number, "name": getattr(board, seat).name})
    target = request.POST.get("next", "")
    if target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect("arbiter_board", event.slug, board.pk)


@arbiter_required
@require_POST
def conflict_resolve(request, event, result_id):
    conflict = get_object_or_404(Result, pk=result_id, board__round__event=event)
    try:
        services.resolve_conflict(conflict, accept=request.POST.get("accept") == "1",
                                  user=request.user, reason=request.POST.get("reason", ""))
    except services.ServiceError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Conflict resolved."))
    return redirect("arbiter_board", event.slug, conflict.board_id)


@arbiter_required
@require_POST
def board_token(request, event, board_id, action):
    """Revoke a board's link, or issue a new one (the old QR code stops working)."""
    board = get_object_or_404(Board, pk=board_id, round__event=event)
    if action == "revoke":
        tokens.revoke_token(board)
        messages.success(request, _("The board link is withdrawn."))
    elif action == "reissue":
        tokens.reissue_token(board)
        messages.success(request, _("A new board link is issued: print a new scoresheet."))
    else:
        messages.error(request, _("Unknown action."))
    return redirect("arbiter_board", event.slug, board.pk)
