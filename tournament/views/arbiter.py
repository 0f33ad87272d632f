"""Arbiter pages: every view is ``arbiter_required`` and writes only through services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.engine.board import COLOURS
from tournament import services
from tournament.boards import links, tokens
from tournament.bridges import standings_bridge
from tournament.bridges.standings_bridge import inconsistencies, reading_notes, tiebreak_registry
from tournament.forms import (
    EventForm,
    OtherResultForm,
    PlayerForm,
    PlayerImportForm,
    ReasonForm,
    SlipForm,
)
from tournament.inputs.request_input import column_range, date_time, whole_number
from tournament.models import Absence, Board, Event, Player, Result, Round
from tournament.permissions import arbiter_required
from tournament.services import checkin, confirmations, logins
from tournament.services.names import look_alike_warnings
from tournament.texts import event_texts
from tournament.texts.tiebreak_texts import texts
from tournament.views import result_versions


def _ctx(event, **extra):
    return {"event": event, "is_arbiter": True, **extra}


def _fail(request, exc) -> None:
    messages.error(request, getattr(exc, "message", None) or str(exc))


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
    return render(request, "tournament/arbiter/dashboard.html", _ctx(
        event, rounds=rounds, current=current, missing=missing, conflicts=conflicts,
        next_action=next_action, no_shows=no_shows,
        players=event.players.count(), format=services.event_format(event),
        order=services.order_text(event), problems=inconsistencies(event),
        checkin=checkin.summary(event) if event.checkin != Event.CheckIn.OFF else None,
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
        _fail(request, exc)
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
                                  rounds_reason=form.cleaned_data.get("rounds_reason", ""))
        except services.ServiceError as exc:
            form.add_error("rounds_planned" if settled else None, str(exc))
        else:
            messages.success(request, _("Settings saved."))
            warning = services.event_format(event).warning
            if warning:
                messages.warning(request, warning)
            return redirect("arbiter_settings", event.slug)
    event.refresh_from_db()
    return render(request, "tournament/arbiter/event_form.html", _ctx(
        event, form=form, tiebreaks=texts(tiebreak_registry().values()),
        format=services.event_format(event), order=services.order_text(event),
        history=[(h, event_texts.summary(h)) for h in event.history.all()[:50]],
        readings=reading_notes(event),
    ))


@arbiter_required
def players(request, event):
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(event, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("%(name)s added with pairing number %(seed)d.")
                             % {"name": player.name, "seed": player.seed})
            _warn_look_alikes(request, event, [player])
            return redirect("arbiter_players", event.slug)
    states = logins.login_states(event)
    state = checkin.summary(event) if event.checkin != Event.CheckIn.OFF else None
    ticked = {p.pk for p in state.checked} if state is not None else set()
    return render(request, "tournament/arbiter/players.html", _ctx(
        event, form=form, import_form=PlayerImportForm(), checkin=state, ticked=ticked,
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
    return render(request, "tournament/arbiter/player_form.html", _ctx(
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
            _fail(request, exc)
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
            _fail(request, exc)
        else:
            messages.success(request, _("%(name)s withdrawn.") % {"name": player.name})
            if done.draft is not None and done.repaired:
                messages.info(request, _("Round %(n)d was a draft: it is paired again without "
                                         "%(name)s.") % {"n": done.draft.number,
                                                         "name": player.name})
            elif done.draft is not None:
                messages.warning(request, _(
                    "Round %(n)d was a draft paired by hand: %(name)s's board is removed; "
                    "place their opponent on the round's page.") % {
                    "n": done.draft.number, "name": player.name})
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
        _fail(request, exc)
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
        _fail(request, exc)
    else:
        messages.success(request, _("Absence cancelled."))
    return redirect("arbiter_players", event.slug)


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
        _fail(request, exc)
        return redirect("arbiter_dashboard", event.slug)
    messages.success(request, _("Round %(n)d paired: check and publish.") % {"n": round_.number})
    return redirect("arbiter_round", event.slug, round_.number)


def _round_page(request, event, round_, *, confirm=None, status=200):
    before = standings_bridge.vp_before(event, round_.number)
    states = confirmations.board_states(round_)
    boards = [(board, result, before.get(board.first_id, 0),
               before.get(board.second_id, 0) if board.second_id else None,
               states.get(board.pk))
              for board, result in services.boards_with_results(round_)]
    players_confirm = confirmations.players_confirm_results(event) or any(
        state.confirmations for state in states.values())
    return render(request, "tournament/arbiter/round.html", _ctx(
        event, round=round_, boards=boards, not_paired=services.not_paired(round_),
        players_confirm=players_confirm, summary=confirmations.round_summary(states),
        warnings=services.pairing_warnings(round_), players=event.players.all(),
        confirm=confirm,
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
        _fail(request, exc)
    return redirect("arbiter_round", event.slug, number)


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
    return render(request, "tournament/arbiter/result_entry.html", _ctx(
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
    return render(request, "tournament/arbiter/board_result.html", _ctx(
        event, board=board, form=form, accepted=accepted, scores_form=scores_form,
        history=[(r, origins.get(r.pk)) for r in history],
        accounts=[(c, getattr(board, c.seat)) for c in held],
        versions=result_versions.dispute(board, accepted, conflicts, held),
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
        _fail(request, exc)
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
        _fail(request, exc)
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
