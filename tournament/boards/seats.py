"""Where a player sits now, and what their open pages must follow: the news of an event.

A player's pages (My games, the event page, an online game's seat and its end screen) all ask
the same questions: which board in the current round (the latest one published), against whom,
the link to play it, when the next round starts, whether the event is paused, the player
withdrawn, the event over. ``current_seat`` answers for one player; ``news`` answers for many
players of one event at once (a handful of queries, however many players), because it is
sent to every player of an event each time the event moves on (``games.news``).

The personal link of an online game and a self-running event's schedule belong to the apps
above; they are asked through ``tournament.boards.links``, as everywhere in the event app.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from tournament.boards import links
from tournament.boards.tokens import TokenRefused, check_round_open
from tournament.models import Board, Event, Player, Round
from tournament.permissions import published_rounds
from tournament.services import format as event_format


@dataclass(frozen=True)
class Seat:
    """Where a player sits in their event's current round (the latest one published)."""

    player: Player
    round: Round | None
    board: Board | None
    board_page: bool
    """Whether the board's own page (the scoresheet's QR code) opens now and is shown (not for
    an online game, whose seat link is the way to play)."""
    personal: links.Link | None = None
    """The player's own seat's link of an online game (``links.personal_links``)."""
    panel: dict | None = None
    """The result confirmation panel (``tournament.views.confirm.confirm_panel``) where the
    event's players confirm their results and the board has a game to confirm."""

    @property
    def game(self) -> tuple[int, int] | None:
        """The key ``personal_links`` knows the seat by (None: a bye or not paired)."""
        if self.board is None or self.board.is_bye:
            return None
        return self.board.pk, self.player.pk


def links_open(round_: Round, now: datetime.datetime) -> bool:
    try:
        check_round_open(round_, now)
    except TokenRefused:
        return False
    return True


def current_seat(player: Player, now: datetime.datetime) -> Seat:
    """Where ``player`` sits in the latest published round (My games, the personal page)."""
    # the player's own board, also where the event keeps its pairings to itself
    round_ = published_rounds(player.event).order_by("number").last()
    board = None
    if round_ is not None:
        board = (round_.boards.filter(Q(first=player) | Q(second=player))
                 .select_related("first", "second").first())
    board_page = (board is not None and board.token_revoked_at is None
                  and links_open(round_, now))
    return Seat(player, round_, board, board_page)


def with_personal_links(seats: list[Seat]) -> list[Seat]:
    """The seats with the personal link of their online game, where there is one. An online
    game's board shows its seat link only: the board page (the scoresheet's shared token) is
    no way to play it."""
    personal = links.personal_links.links(seat.game for seat in seats if seat.game)
    return [replace(seat, personal=personal[seat.game], board_page=False)
            if seat.game in personal else seat for seat in seats]


def news(event: Event, player_ids: list[int] | None = None,
         now: datetime.datetime | None = None) -> dict[int, dict[str, Any]]:
    """What each player of ``event`` (or those of ``player_ids``) sees on their open pages,
    by player id: the current round (the latest published), their board in it, the link to
    play it online, the next round and its start, a pause, a withdrawal, the final standings.

    Read for every player at once: the latest round's boards, the personal links and the
    schedules each in bulk."""
    now = now or timezone.now()
    players = list(event.players.all() if player_ids is None
                   else event.players.filter(pk__in=player_ids))
    round_ = published_rounds(event).order_by("number").last()
    boards: dict[int, Board] = {}
    if round_ is not None:
        for board in round_.boards.select_related("first", "second"):
            for player_id in (board.first_id, board.second_id):
                if player_id is not None:
                    boards[player_id] = board
    open_ = round_ is not None and links_open(round_, now)
    seats = with_personal_links([
        Seat(player, round_, boards.get(player.pk),
             open_ and player.pk in boards and boards[player.pk].token_revoked_at is None)
        for player in players])
    schedules = links.player_schedules.links(player.pk for player in players)
    final = _final_standings(event, round_)
    found = {}
    for seat in seats:
        player, board = seat.player, seat.board
        schedule = schedules.get(player.pk)
        first = board is not None and board.first_id == player.pk
        opponent = None if board is None else (board.second if first else board.first)
        found[player.pk] = {
            "event": event.slug,
            "round": round_.number if round_ is not None else None,
            "round_starts_ms": int(round_.starts_at.timestamp() * 1000)
            if round_ is not None and round_.starts_at else None,
            "board": board.number if board is not None and not board.is_bye else None,
            "bye": board is not None and board.is_bye,
            "opponent": opponent.name if opponent is not None else None,
            "first": first if board is not None and not board.is_bye else None,
            "seat": seat.personal.url if seat.personal else None,
            "next_round": schedule.number if schedule else None,
            "starts_ms": int(schedule.starts_at.timestamp() * 1000)
            if schedule and schedule.starts_at else None,
            "starts_words": schedule.words if schedule and not schedule.starts_at else "",
            "absent": bool(schedule and schedule.absent),
            "paused": bool(schedule and schedule.paused),
            "paused_reason": schedule.paused_reason if schedule else "",
            "withdrawn": player.withdrawn_after_round is not None,
            "final": final,
        }
    return found


#: What a player's page shows of the news, in the order ``news_key`` joins it.
SHOWN = ("round", "round_starts_ms", "board", "opponent", "first", "seat", "next_round",
         "starts_ms", "starts_words", "absent", "paused", "paused_reason", "withdrawn", "final")


def news_key(item: dict[str, Any]) -> str:
    """A page's record of the news it was made from (``static/js/news.js`` computes the same
    from the news the socket brings: a different key means the page is out of date)."""
    def text(value) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    return "|".join(text(item.get(name)) for name in SHOWN)


def _final_standings(event: Event, latest: Round | None) -> str | None:
    """The final standings' page once the event's last planned round is closed (and the
    standings are public), else None."""
    if (latest is None or latest.status != Round.Status.CLOSED or not event.publish_standings
            or latest.number < event_format.planned_rounds(event)):
        return None
    return reverse("event_standings", args=[event.slug])
