"""A logged-in player's page, "My games" (issue #15): for every event the account plays, where
the player sits in the current round and the links to play.

The page is the event app's: players, rounds, boards, pairings and standings are its own. Only
the personal link of an online game belongs to ``games``, and the page asks for it through
``tournament.boards.links.personal_links`` (as the pairings page asks ``board_pages`` for the
spectators' pages), because the event app never imports the apps above it
(docs/architecture.md). Putting the page in ``games`` instead would have moved the event app's
own question, "where does this player sit now", up a layer, for one link.

Everything is read per request and nothing is stored: after a re-pairing the page shows the
new board and its new link at its next load.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, replace

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from tournament.boards import links, player_codes
from tournament.boards.tokens import TokenRefused, check_round_open
from tournament.models import Board, Confirmation, Player, PlayerCard, PlayerLogin, Round
from tournament.permissions import published_rounds
from tournament.services.confirmations import players_confirm_results
from tournament.views.confirm import confirm_panel


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


def _links_open(round_: Round, now: datetime.datetime) -> bool:
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
                  and _links_open(round_, now))
    return Seat(player, round_, board, board_page)


def _panel(seat: Seat) -> dict | None:
    """The confirmation panel of a seat's current game (none for an online game, a bye, or an
    event whose arbiter enters every result)."""
    if seat.game is None or seat.personal is not None \
            or not players_confirm_results(seat.player.event):
        return None
    board = seat.board
    return confirm_panel(seat.player, Confirmation.Via.LOGIN,
                         reverse("my_games_confirm", args=[board.pk]), board=board,
                         next_url=reverse("my_games"))


@never_cache
@login_required
def my_games(request):
    """The account's events, the newest first; withdrawn logins are named, nothing more."""
    now = timezone.now()
    held = list(PlayerLogin.objects.filter(user=request.user)
                .select_related("player__event")
                .order_by("-player__event__start_date", "-player__event__created_at"))
    seats = _seats_of([login for login in held if login.withdrawn_at is None], now)
    # The personal page of the player's card (every player has one unless the arbiter revoked
    # it): the same page the card's QR code opens, for check-in and confirming results.
    cards = {card.player_id: player_codes.code_for(card) for card in PlayerCard.objects.filter(
        player__in=[seat.player for seat in seats], revoked_at__isnull=True)}
    seats = [replace(seat, panel=_panel(seat)) for seat in seats]
    # an event that runs itself says when the next round starts (``links.player_schedules``)
    schedules = links.player_schedules.links(seat.player.pk for seat in seats)
    return render(request, "tournament/my_games.html", {
        "seats": [(seat, cards.get(seat.player.pk), schedules.get(seat.player.pk))
                  for seat in seats],
        "withdrawn": [login for login in held if login.withdrawn_at is not None],
        "server_ms": time.time_ns() // 1_000_000,
    })


def _seats_of(logins: list[PlayerLogin], now: datetime.datetime) -> list[Seat]:
    """Where each login's player sits now, with the personal link of an online game."""
    seats = [current_seat(login.player, now) for login in logins]
    personal = links.personal_links.links(seat.game for seat in seats if seat.game)
    # An online game's board shows its seat link only: the board page (the scoresheet's shared
    # token) is no way to play it, and its record form takes no result for it.
    return [replace(seat, personal=personal[seat.game], board_page=False)
            if seat.game in personal else seat for seat in seats]


@never_cache
@login_required
def my_games_state(request):
    """What My games polls (``static/js/my-games.js``): per event, the current round, the seat's
    link of its online game (null: none now) and when the next round starts, so that the page
    counts down and becomes the seat of the new game when its round starts, without a reload."""
    now = timezone.now()
    seats = _seats_of(list(PlayerLogin.objects.filter(
        user=request.user, withdrawn_at__isnull=True).select_related("player__event")), now)
    schedules = links.player_schedules.links(seat.player.pk for seat in seats)
    events = {}
    for seat in seats:
        schedule = schedules.get(seat.player.pk)
        events[seat.player.event.slug] = {
            "round": seat.round.number if seat.round else None,
            "seat": seat.personal.url if seat.personal else None,
            "next_round": schedule.number if schedule else None,
            "starts_ms": int(schedule.starts_at.timestamp() * 1000)
            if schedule and schedule.starts_at else None,
            "withdrawn": seat.player.withdrawn_after_round is not None,
        }
    return JsonResponse({"server_ms": time.time_ns() // 1_000_000, "events": events})
