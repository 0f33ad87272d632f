"""What a seat's player plays next, for the end screen of an online game (issue #38, item 8).

Asked when the game ends, not when the page was opened: the next round may have been paired
and published meanwhile. Only what the personal link's holder may see: their own next board
and, when it is played online, their own seat's link, from a published round only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from games.models import OnlineGame
from tournament.models import Board, Player, Round
from tournament.permissions import published_rounds


def next_game(game: OnlineGame, seat: str) -> dict[str, Any]:
    """The player's next round: ``{"round": n}`` with, when known, ``starts_at`` (ISO),
    ``board``, ``opponent`` (None: a bye), ``first`` (plays first) and ``url`` (the next online
    seat). ``{}`` after the event's last planned round or when nothing is known yet."""
    board = game.board
    player: Player = board.first if seat == "A" else board.second
    event = board.round.event
    number = board.round.number + 1
    if event.rounds_planned and number > event.rounds_planned:
        return {}
    info: dict[str, Any] = {"round": number}
    round_ = published_rounds(event).filter(number=number).first()
    if round_ is None:
        return info
    if round_.starts_at is not None:
        info["starts_at"] = round_.starts_at.isoformat()
    mine = (Board.objects.filter(round=round_).filter(Q(first=player) | Q(second=player))
            .select_related("first", "second").first())
    if mine is None:
        return info
    info["board"] = mine.number
    info["first"] = mine.first_id == player.pk
    opponent = mine.second if info["first"] else mine.first
    info["opponent"] = opponent.name if opponent is not None else None
    online = OnlineGame.objects.filter(board=mine).first()
    if online is not None and round_.status == Round.Status.PUBLISHED:
        info["url"] = reverse("online_play", args=[online.token("A" if info["first"] else "B")])
    return info
