"""Clock pages: the players' board clock, a spectator's view, the arbiters' hall.

The pages render the current snapshot into the HTML (so a board shows its times even before
the websocket connects) and name the socket to open; ``static/js/clock.js`` and
``static/js/hall.js`` take it from there (their texts come from the JavaScript catalog,
/jsi18n/). Changes only happen over the sockets.
"""

from __future__ import annotations

from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clocks import access, log_text, services
from clocks.models import Clock
from tournament.boards.tokens import TokenRefused, board_for_token
from tournament.models import Board, Event, Round
from tournament.permissions import arbiter_required, visible_round


def refused(request, reason: str, status: int = 403, *, later: bool = False):
    return render(request, "clocks/refused.html", {"reason": reason, "later": later},
                  status=status)


def _page(request, board: Board, *, mode: str, ws_path: str, template: str):
    event = board.round.event
    is_arbiter = event.is_arbiter(request.user)
    context = {
        "event": event, "is_arbiter": is_arbiter, "board": board, "round": board.round,
        "mode": mode, "ws_path": ws_path, "can_press": mode == "player" or is_arbiter,
        "snapshot": services.snapshot(board),
    }
    return render(request, template, context)


@cache
def _worker_script() -> bytes:
    with open(finders.find("js/board-worker.js"), "rb") as script:
        return script.read()


def board_worker(request):
    """The board page's service worker (``static/js/board-worker.js``), served under /b/ so
    that its scope covers the board pages: a reload without the network shows the clock."""
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@never_cache
def board_page(request, token):
    """The clock of the QR code's board, full screen, for the two players at the board."""
    try:
        board = board_for_token(token)
    except TokenRefused as error:
        return refused(request, str(error), later=error.later)
    if board.is_bye:
        return refused(request, _("This board is a bye: there is no game and no clock."))
    return _page(request, board, mode="player", ws_path=f"/ws/board/{board.token}/",
                 template="clocks/board.html")


def clock_spectate(request, slug, number, board):
    """A live, read-only clock for anyone (an arbiter also gets the controls)."""
    round_ = visible_round(slug, number, request.user, live=True)
    board_obj = get_object_or_404(
        Board.objects.select_related("round__event", "first", "second"),
        round=round_, number=board, second__isnull=False,
    )
    elsewhere = access.spectator_page(board_obj)  # an online game: the game with its clocks
    if elsewhere:
        return redirect(elsewhere)
    return _page(request, board_obj, mode="spectator", ws_path=f"/ws/spectate/{board_obj.pk}/",
                 template="clocks/spectate.html")


@arbiter_required
def clock_log(request, event: Event, board_id):
    """A board clock's log in words (who, when, what, why): the arbiter's commands with their
    reasons, the presses and what a device's dating was credited, the flags, the devices that
    kept the clock, a restart's time given back."""
    board = get_object_or_404(Board.objects.select_related("round", "first", "second"),
                              pk=board_id, round__event=event)
    clock = Clock.objects.filter(board=board).first()
    names = {"A": board.first.name, "B": board.second.name if board.second else ""}
    entries = clock.log_entries.order_by("id") if clock is not None else []
    return render(request, "clocks/log.html", {
        "event": event, "is_arbiter": True, "board": board, "round": board.round,
        "lines": log_text.lines(entries, names), "has_clock": clock is not None,
    })


@arbiter_required
def clock_hall(request, event: Event, number):
    """Every clock of a round at once, with round-wide and per-board controls."""
    round_ = get_object_or_404(Round, event=event, number=number)
    rows = []
    if round_.status != Round.Status.DRAFTED:
        snaps = {s["board"]: s for s in services.round_snapshots(round_)}
        boards = round_.boards.select_related("first", "second").filter(second__isnull=False)
        rows = [(b, snaps[b.pk]) for b in boards]
    return render(request, "clocks/hall.html", {
        "event": event, "is_arbiter": True, "round": round_, "rows": rows,
        "snapshots": [snap for _b, snap in rows],
        "ws_path": f"/ws/hall/{round_.pk}/", "feed": access.hall_feed(round_),
    })
