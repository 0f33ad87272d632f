"""Results the players confirm: the confirmation panel and the two ways to post it.

``confirm_panel(player, via, action_url)`` is the panel's context: the personal page
(``/card/<code>/``) and "My games" include ``tournament/confirm/_confirm_panel.html`` with it.
The two POST views answer the panel: ``/card/<code>/confirm/`` (the player card's code) and
``/my-games/confirm/<board_id>/`` (a logged-in player's login); both also show the panel as a
page of its own on GET. Posts redirect back (PRG) with a message; a refused input re-renders
the panel with the reason and a 4xx, and nothing is stored. Every write is
``tournament.services.confirmations.confirm``.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from games.engine.board import COLOURS
from tournament.forms import SlipForm
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Board, Confirmation, Player, PlayerLogin, Result
from tournament.permissions import published_rounds
from tournament.services import ServiceError, current_result
from tournament.services import confirmations as service
from tournament.services.errors import InvalidResult, ResultRefused
from tournament.views.arbiter import versions


def current_board(player: Player) -> Board | None:
    """The player's board in the event's latest published round (None: not paired in it)."""
    round_ = published_rounds(player.event).order_by("number").last()
    if round_ is None:
        return None
    return (round_.boards.filter(Q(first=player) | Q(second=player))
            .select_related("round__event", "first", "second").first())


def _hhmm(at: datetime.datetime) -> str:
    return timezone.localtime(at).strftime("%H:%M")


def confirm_panel(player: Player, via: str, action_url: str, *, board: Board | None = None,
                  data=None, error: str = "", next_url: str = "") -> dict:
    """The context of ``tournament/confirm/_confirm_panel.html`` for ``player``'s board (the
    current one unless ``board`` is given): its state in words, the slip table pre-filled
    (the player's own account, else the opponent's, else the stored result), and whether the
    form is shown. ``data`` and ``error`` re-show a refused post; ``next_url`` is where the
    post returns to (the page that includes the panel)."""
    board = board if board is not None else current_board(player)
    panel = {"player": player, "board": board, "via": via, "action_url": action_url,
             "next_url": next_url, "error": error, "colours": COLOURS, "can_submit": False,
             "text": "", "note": "", "state": "", "rows": [], "stored": None, "versions": []}
    if board is None:
        panel["text"] = _("You have no game in the current round.")
        return panel
    seat = service.seat_of(board, player)
    other_seat = "second" if seat == "first" else "first"
    opponent = getattr(board, other_seat) if seat else None
    try:
        service.check_can_confirm(board, player)
    except ResultRefused as refused:
        panel["state"] = "record" if refused.code in ("online_game", "record") else refused.code
        panel["text"] = (_("From the game record: nothing to confirm.")
                         if refused.code in ("online_game", "record") else refused.message)
        panel["stored"] = current_result(board) if refused.code != "not_your_board" else None
        return panel
    detail = service.board_detail(board)
    accounts = {c.seat: c for c in detail.confirmations}
    mine, theirs = accounts.get(seat), accounts.get(other_seat)
    accepted = current_result(board)
    panel.update(state=detail.key, stored=accepted, can_submit=True)
    name = opponent.name
    shown: dict | None = None
    if detail.key == service.CONFIRMED:
        panel.update(text=_("Confirmed by both: stored."), can_submit=False)
    elif detail.key == service.CONFLICT:
        # every version side by side, the differing cells marked, as the arbiter sees them
        panel["versions"] = versions.dispute(
            board, accepted, list(board.results.filter(status=Result.Status.CONFLICT)),
            list(detail.confirmations))
        if mine and theirs and (mine.first_scores, mine.second_scores) == (
                theirs.first_scores, theirs.second_scores) and accepted is not None \
                and _matches(accepted, mine):
            panel["text"] = _("You and %(name)s confirmed the same scores; the arbiter "
                              "entered others: the arbiter decides.") % {"name": name}
        elif mine and theirs and (mine.first_scores, mine.second_scores) == (
                theirs.first_scores, theirs.second_scores):
            panel["text"] = _("You and %(name)s confirmed the same scores, but they differ "
                              "from the result already stored: the arbiter decides.") % {
                "name": name}
        elif mine and theirs:
            panel["text"] = _("You and %(name)s disagree: the arbiter decides.") % {
                "name": name}
        elif mine and accepted is None:
            panel["text"] = _("The arbiter entered other scores than yours: the arbiter "
                              "decides.")
        elif mine:
            panel["text"] = _("Your scores differ from the result already stored: the "
                              "arbiter decides.")
        else:
            panel["text"] = _("The arbiter is settling a dispute about this result.")
        panel["note"] = _("You can still change your scores until the arbiter decides.")
    elif detail.key == service.ARBITER:
        panel["text"] = _("Entered by the arbiter.")
        if mine and not _matches(accepted, mine):
            panel["text"] = _("Your confirmation differs from the result the arbiter "
                              "stored.")
        panel["note"] = _("If these scores are wrong, confirm the right ones: the arbiter "
                          "then decides.")
    elif mine:
        panel["text"] = _("You confirmed at %(at)s; waiting for %(name)s.") % {
            "at": _hhmm(mine.at), "name": name}
        panel["note"] = _("You can change your scores until %(name)s confirms.") % {
            "name": name}
    elif theirs:
        panel["text"] = _("%(name)s entered these scores: accept or change.") % {"name": name}
    else:
        panel["text"] = _("Waiting for your confirmation.")
        panel["note"] = _("Enter both players' scores, as on your scoresheet.")
    if mine:
        shown = {"first": mine.first_scores, "second": mine.second_scores}
    elif theirs:
        shown = {"first": theirs.first_scores, "second": theirs.second_scores}
    elif accepted is not None and accepted.first_scores:
        shown = {"first": accepted.first_scores, "second": accepted.second_scores}
    shown = shown or {}
    # answering the opponent's account: a cell changed from it is marked, and the button says
    # that this sends the player's own version (static/js/slip.js)
    was = ({"first": theirs.first_scores, "second": theirs.second_scores}
           if theirs and not mine else {})
    panel["button"] = (_("Accept these scores") if theirs and not mine
                       else _("Change my confirmation") if mine else _("Confirm the scores"))
    panel["send_own"] = _("Send my version") if was else ""
    panel["stored_differs"] = (accepted is not None and mine is not None
                               and not _matches(accepted, mine))
    panel["rows"] = [
        (s, getattr(board, s),
         [(f"{s}_{c}", data.get(f"{s}_{c}") if data is not None
           else (shown.get(s) or {}).get(c), (was.get(s) or {}).get(c)) for c in COLOURS])
        for s in ("first", "second")
    ]
    return panel


def _matches(result, confirmation: Confirmation) -> bool:
    """Whether a stored result says what a player confirmed."""
    return (result.first_scores == confirmation.first_scores
            and result.second_scores == confirmation.second_scores)


def post_confirmation(request, player: Player, board: Board, via: str):
    """Carry out a confirmation post: None when stored (the message is set), else the error
    text and the status to re-render with."""
    form = SlipForm(request.POST)
    if not form.is_valid():
        errors = [f"{form.fields[name].label}: {' '.join(errs)}" if name in form.fields
                  else " ".join(errs) for name, errs in form.errors.items()]
        return " ".join(errors), 400
    try:
        done = service.confirm(board, player, form.scores("first"), form.scores("second"), via)
    except InvalidResult as exc:
        return exc.message, 400
    except ResultRefused as exc:
        return exc.message, 403 if exc.code == "not_your_board" else 409
    except ServiceError as exc:
        return str(exc), 409
    if done.state == service.CONFIRMED:
        messages.success(request, _("Both players confirmed the same scores: the result is "
                                    "stored."))
    elif done.state == service.CONFLICT:
        messages.warning(request, _("The scores differ: the arbiter decides."))
    else:
        messages.success(request, _("Your confirmation is saved."))
    return None


def safe_next(request, default: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


def confirmation_page(request, panel: dict, status: int = 200):
    return render(request, "tournament/confirm/page.html",
                  {"panel": panel, "event": panel["player"].event}, status=status)


def posted_board(request, player: Player) -> Board:
    board_id = whole_number(request.POST.get("board_id"), label=_("Board"),
                            column=column_range(Board, "id"))
    return get_object_or_404(Board.objects.select_related("round__event", "first", "second"),
                             pk=board_id, round__event=player.event)


def _login_player(user, board: Board) -> Player:
    """The account's player seated at ``board``, else 403."""
    login = PlayerLogin.objects.filter(user=user, event=board.round.event_id,
                                       withdrawn_at__isnull=True).select_related("player").first()
    if login is None or service.seat_of(board, login.player) is None:
        raise PermissionDenied(_("You do not play on this board."))
    return login.player


@never_cache
@login_required
def my_games_confirm(request, board_id):
    """A logged-in player's confirmation of one board: the panel as a page, and its post."""
    board = get_object_or_404(Board.objects.select_related("round__event", "first", "second"),
                              pk=board_id)
    player = _login_player(request.user, board)
    action = reverse("my_games_confirm", args=[board.pk])
    if request.method == "POST":
        failed = post_confirmation(request, player, board, Confirmation.Via.LOGIN)
        if failed is None:
            return redirect(safe_next(request, action))
        error, status = failed
        return confirmation_page(request, confirm_panel(
            player, Confirmation.Via.LOGIN, action, board=board, data=request.POST,
            error=error, next_url=request.POST.get("next", "")), status)
    return confirmation_page(request, confirm_panel(player, Confirmation.Via.LOGIN, action,
                                                    board=board))


__all__ = [
    "confirm_panel",
    "confirmation_page",
    "current_board",
    "my_games_confirm",
    "post_confirmation",
    "posted_board",
    "safe_next",
]
