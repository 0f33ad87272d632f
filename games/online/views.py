"""Pages of online games: a seat's game page (its personal link) and a spectator's page.

The pages render the current view into the HTML (the position shows before the socket
connects) and name the socket to open; ``static/js/online.js`` plays through it
(docs/online-protocol.md). Reading a page writes nothing.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from games.models import OnlineGame
from games.online import play as online
from tournament.boards.tokens import TokenRefused
from tournament.permissions import visible_round


def _page(request, game: OnlineGame, seat: str | None, ws_path: str):
    board = game.board
    event = board.round.event
    return render(request, "games/online.html", {
        "event": event, "board": board, "round": board.round, "seat": seat,
        "is_arbiter": event.is_arbiter(request.user), "ws_path": ws_path,
        "view": online.view(game, seat),
    })


@never_cache
def online_play(request, token):
    """One player's game: the board, the own rack, both clocks (the personal link)."""
    try:
        game, seat = online.seat_for_token(token)
    except TokenRefused as error:
        return render(request, "games/refused.html", {"message": str(error)}, status=403)
    return _page(request, game, seat, f"/ws/play/{token}/")


def online_watch(request, slug, number, board):
    """An online game live for anyone: board, scores and clocks, never a rack."""
    round_ = visible_round(slug, number, request.user, live=True)
    game = get_object_or_404(
        OnlineGame.objects.select_related("board__round__event", "board__first",
                                          "board__second"),
        board__round=round_, board__number=board)
    return _page(request, game, None, f"/ws/watch/{game.board_id}/")
