"""A logged-in player's page, "My games": for every event the account plays, where
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
from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from tournament.boards import links, player_codes, seats
from tournament.boards.seats import Seat
from tournament.models import Confirmation, PlayerCard, PlayerLogin
from tournament.services.confirmations import players_confirm_results
from tournament.views.confirm import confirm_panel


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
        "seats": [seat_context(seat, cards.get(seat.player.pk), schedules.get(seat.player.pk),
                               now) for seat in seats],
        "withdrawn": [login for login in held if login.withdrawn_at is not None],
        "server_ms": time.time_ns() // 1_000_000,
    })


def seat_context(seat: Seat, card_code: str | None, schedule, now: datetime.datetime) -> dict:
    """What ``tournament/_my_seat.html`` shows of one event (My games, the event page)."""
    item = seats.news(seat.player.event, [seat.player.pk], now)[seat.player.pk]
    return {"seat": seat, "card_code": card_code, "schedule": schedule, "news": item,
            "news_key": seats.news_key(item)}


def _seats_of(logins: list[PlayerLogin], now: datetime.datetime) -> list[Seat]:
    """Where each login's player sits now, with the personal link of an online game."""
    return seats.with_personal_links([seats.current_seat(login.player, now) for login in logins])


@never_cache
@login_required
def my_games_state(request):
    """What My games reads when its socket cannot open (``static/js/news.js``; the socket,
    ``ws/news/``, brings the same news as it happens): per event the account plays, what the
    player's open pages follow (``tournament.boards.seats.news``)."""
    return JsonResponse({"server_ms": time.time_ns() // 1_000_000,
                         "events": account_news(request.user)})


def account_news(user) -> dict[str, dict]:
    """The news of every event a login plays in (not withdrawn), by event slug."""
    now = timezone.now()
    held = PlayerLogin.objects.filter(user=user, withdrawn_at__isnull=True) \
        .select_related("player__event")
    by_event: dict[int, tuple] = {}
    for login in held:
        event = login.player.event
        by_event.setdefault(event.pk, (event, []))[1].append(login.player_id)
    found = {}
    for event, player_ids in by_event.values():
        for item in seats.news(event, player_ids, now).values():
            found[event.slug] = item
    return found
