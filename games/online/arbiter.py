"""The arbiter's pages of online play: the switch that runs a round online, the personal links
of every seat with their new-link buttons, the clocks' start, and the players' printable slips.

Every change goes through ``games.online.play`` (the only writer); a refusal is shown as a message.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clocks import services as clock_services
from clocks.services import ClockRefused
from games.models import OnlineGame
from games.online import no_show, presence
from games.online import play as online
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Board, Event, Round
from tournament.permissions import arbiter_required
from tournament.printing.svg import qr_svg
from tournament.site import site_address
from tournament.views.confirm import safe_next


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


def _moment(ms: int | None) -> datetime.datetime | None:
    return None if ms is None else datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def _seats(request, round_: Round, *, presence_shown: bool = False) -> list[dict]:
    """Per board: the game, and per seat the player, the personal link and the watch link.
    ``presence_shown``: also whether each seat is connected now (``games.online.presence``)
    and has appeared, the lowest colours, and whether a no-show can be recorded now or from
    when (``games.online.no_show``; one read of the game and its clock per board)."""
    games = (OnlineGame.objects.filter(board__round=round_)
             .select_related("board__first", "board__second", "board__round__event")
             .order_by("board__number"))
    rows = []
    now = clock_services.now_ms()
    for game in games:
        board = game.board
        seen = no_show.appeared(game, game.moves)
        heard = presence.seats(game.pk, now) if presence_shown else {}
        seats = [{"seat": seat, "player": player, "opponent": other, "seen": game.seen(seat),
                  "appeared": seen[seat], "live": (heard.get(seat) or {}).get("live"),
                  "heard_at": _moment((heard.get(seat) or {}).get("at")),
                  "url": site_address.absolute_url(request, reverse("online_play",
                                                                      args=[game.token(seat)]))}
                 for seat, player, other in (("A", board.first, board.second),
                                             ("B", board.second, board.first))]
        row = {"game": game, "board": board, "seats": seats, "moves": len(game.moves),
               "watch": reverse("online_watch", args=[round_.event.slug, round_.number,
                                                      board.number])}
        if presence_shown:
            view = online.view(game, None)  # the position and the clock, read once
            row["lowest"] = {seat: min(view["scores"][seat].values()) for seat in ("A", "B")}
            for entry in seats:
                entry["lowest"] = row["lowest"][entry["seat"]]
            if game.record_id is None and not game.no_show and not all(seen.values()):
                row["absent"] = [s["player"].name for s in seats if not s["appeared"]]
                row["no_show_refusal"] = no_show.refusal(
                    game, view["clock"], no_show.absent(game, game.moves), None,
                    round_.event.no_show_minutes, view["players"])
        rows.append(row)
    return rows


@arbiter_required
def online_round(request, event: Event, number: int):
    """The round's online play: the switch, or the seats' links and the clocks' start."""
    round_ = _round(event, number)
    rows = _seats(request, round_, presence_shown=True)
    is_online = online.is_online(round_)
    games = online.boards_to_play(round_).count()
    return render(request, "games/online_round.html", {
        "event": event, "is_arbiter": True, "round": round_, "online": is_online,
        "rows": rows, "undealt": games - len(rows) if is_online else 0,
        "event_online": online.is_event_online(event),
    })


@arbiter_required
@require_POST
def online_event_action(request, event: Event, action: str):
    """The event's switch (``mark``: every round online from now on; ``stop``: later rounds
    over the board again), from a round's online page, which it returns to."""
    if action == "mark":
        numbers = online.mark_event_online(event, user=request.user)
        text = _("Every round of this event is played online as it is published.")
        if numbers:
            text += " " + ngettext("Online now: round %(rounds)s.",
                                   "Online now: rounds %(rounds)s.", len(numbers)) % {
                "rounds": ", ".join(map(str, numbers))}
        messages.success(request, text)
    elif action == "stop":
        online.stop_event_online(event)
        messages.success(request, _("Later rounds are played over the board; rounds online "
                                    "already stay online."))
    else:
        messages.error(request, _("Unknown action %(action)r.") % {"action": action})
    number = whole_number(request.POST.get("round"), label=_("Round"),
                          column=column_range(Round, "number"), required=False)
    if number is not None and event.rounds.filter(number=number).exists():
        return redirect("online_round", event.slug, number)
    return redirect("arbiter_dashboard", event.slug)


@arbiter_required
@require_POST
def online_round_action(request, event: Event, number: int, action: str):
    round_ = _round(event, number)
    user = request.user
    try:
        if action == "mark":
            games = online.mark_online(round_, user=user)
            messages.success(request, ngettext(
                "Round %(n)d is played online: %(count)d game dealt.",
                "Round %(n)d is played online: %(count)d games dealt.", len(games))
                % {"n": round_.number, "count": len(games)})
        elif action == "start":
            count = online.start_round(round_, who=user.get_username(), user=user)
            messages.success(request, ngettext("%(count)d clock started.",
                                               "%(count)d clocks started.", count)
                             % {"count": count})
        elif action == "no_show":
            game = get_object_or_404(OnlineGame, board__round=round_, board__number=whole_number(
                request.POST.get("board"), label=_("Board"), column=column_range(Board, "number")))
            online.claim_no_show(game, seat=None, user=user)
            messages.success(request, _("Board %(b)d: the forfeit for not appearing is "
                                        "recorded.") % {"b": game.board.number})
        elif action == "reissue":
            game = get_object_or_404(OnlineGame, board__round=round_, board__number=whole_number(
                request.POST.get("board"), label=_("Board"), column=column_range(Board, "number")))
            seat = request.POST.get("seat")
            if seat not in ("A", "B"):
                raise online.OnlineRefused(_("Seat must be A or B."))
            online.reissue_seat_token(game, seat)
            messages.success(request, _("New link for board %(b)d, seat %(s)s: the old one no "
                                        "longer works.") % {"b": game.board.number, "s": seat})
        else:
            raise online.OnlineRefused(_("Unknown action %(action)r.") % {"action": action})
    except (online.OnlineRefused, ClockRefused) as error:
        messages.error(request, str(error))
    # back where the command came from: the online page, or the hall's no-show button
    return redirect(safe_next(request, reverse("online_round", args=[event.slug, round_.number])))


def hall_feed(round_: Round) -> str | None:
    """The hall's feed of an online round (``clocks.access.hall_feed``)."""
    if not online.is_online(round_):
        return None
    return reverse("online_round_feed", args=[round_.event.slug, round_.number])


@arbiter_required
def online_round_feed(request, event: Event, number: int):
    """What the hall of clocks shows beside each online board's clock, read every few seconds
    (``static/js/hall.js``): per seat connected or since when not, whether it has appeared,
    its lowest colour; the moves and the last one's time; whether a no-show can be recorded."""
    round_ = _round(event, number)
    boards = {}
    for row in _seats(request, round_, presence_shown=True):
        game = row["game"]
        boards[row["board"].pk] = {
            "number": row["board"].number, "moves": row["moves"],
            "over": game.record_id is not None or bool(game.no_show),
            "last_move": game.updated_at.isoformat() if row["moves"] else None,
            "no_show_due": bool(row.get("absent")) and not row.get("no_show_refusal"),
            "seats": {s["seat"]: {"live": bool(s["live"]), "appeared": s["appeared"],
                                  "heard": s["heard_at"].isoformat() if s["heard_at"] else None,
                                  "lowest": s["lowest"]} for s in row["seats"]},
        }
    return JsonResponse({"boards": boards,
                         "page": reverse("online_round", args=[event.slug, number]),
                         "no_show": reverse("online_round_action",
                                            args=[event.slug, number, "no_show"])})


@arbiter_required
def online_slips(request, event: Event, number: int):
    """One slip per player: board, opponent, who plays first, the personal link and its QR
    code. Printed and handed out, or cut up; a slip opens that player's seat only."""
    round_ = _round(event, number)
    slips = [{**seat, "board": row["board"], "qr": qr_svg(seat["url"])}
             for row in _seats(request, round_) for seat in row["seats"]]
    slips.sort(key=lambda slip: slip["player"].name.casefold())
    return render(request, "games/online_slips.html", {
        "event": event, "is_arbiter": True, "round": round_, "slips": slips,
    })
