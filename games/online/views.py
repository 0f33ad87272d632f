"""Pages of online games: a seat's game page (its personal link) and a spectator's page.

The pages render the current view into the HTML (the position shows before the socket
connects) and name the socket to open; ``static/js/online.js`` plays through it
(docs/online-protocol.md). Reading a page writes nothing.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from games.models import OnlineGame
from games.online import no_show
from games.online import play as online
from tournament.boards.tokens import TokenRefused
from tournament.permissions import visible_round


def _page(request, game: OnlineGame, seat: str | None, ws_path: str):
    board = game.board
    event = board.round.event
    is_arbiter = event.is_arbiter(request.user)
    standings = ""
    if event.publish_standings or is_arbiter:  # the standings after this round, at its end
        standings = f"{reverse('event_standings', args=[event.slug])}?round={board.round.number}"
    return render(request, "games/online.html", {
        "event": event, "board": board, "round": board.round, "seat": seat,
        "is_arbiter": is_arbiter, "ws_path": ws_path, "view": online.view(game, seat),
        "standings_url": standings,
    })


@never_cache
def online_play(request, token):
    """One player's game: the board, the own rack, both clocks (the personal link)."""
    try:
        game, seat = online.seat_for_token(token)
    except TokenRefused as error:
        return render(request, "games/refused.html",
                      {"message": str(error), "later": error.later, "seat_link": True},
                      status=403)
    return _page(request, game, seat, f"/ws/play/{token}/")


def online_watch(request, slug, number, board):
    """An online game live for anyone: board, scores and clocks, never a rack."""
    round_ = visible_round(slug, number, request.user, live=True)
    game = get_object_or_404(
        OnlineGame.objects.select_related("board__round__event", "board__first",
                                          "board__second"),
        board__round=round_, board__number=board)
    return _page(request, game, None, f"/ws/watch/{game.board_id}/")


def online_games(request, slug, number):
    """The online games of a published round as JSON, for programs (a spectators' client, a
    broadcast): each board's number, id and socket, its players, its page and how it stands.
    What the pairings page links, without scraping it; no personal link is ever listed."""
    round_ = visible_round(slug, number, request.user, live=True)
    games = (OnlineGame.objects.filter(board__round=round_)
             .select_related("board__first", "board__second", "record")
             .order_by("board__number"))
    return JsonResponse({"event": slug, "round": round_.number, "games": [{
        "board": game.board.number, "board_id": game.board_id,
        "players": {"A": game.board.first.name, "B": game.board.second.name},
        "socket": f"/ws/watch/{game.board_id}/",
        "page": reverse("online_watch", args=[slug, round_.number, game.board.number]),
        "moves": len(game.moves), "over": game.record_id is not None or bool(game.no_show),
        "result": game.record.summary.get("result") if game.record_id
        else no_show.result(game.no_show) if game.no_show else None,
    } for game in games]})
