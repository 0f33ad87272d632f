"""Board tokens: the secret in a board's QR code that lets its players act without a login.

A token opens its own board only, from the moment its round is published until the round is
closed plus the event's grace period; the arbiter can revoke it (and issue a new one).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Board, Round, new_board_token


class TokenRefused(Exception):
    """A token that does not (or no longer) open a board; the message says why. ``later``:
    the same link works once its round is published (no new link is needed)."""

    def __init__(self, message: str, *, later: bool = False) -> None:
        super().__init__(message)
        self.later = later


def board_for_token(token: str, now: datetime.datetime | None = None) -> Board:
    """The board a valid token opens, or ``TokenRefused`` with the reason."""
    now = now or timezone.now()
    board = (
        Board.objects.select_related("round__event", "first", "second")
        .filter(token=token).first()
        if isinstance(token, str) and 10 <= len(token) <= 64 else None
    )
    if board is None:
        raise TokenRefused(_("This board link is not valid."))
    if board.token_revoked_at is not None:
        raise TokenRefused(_("This board link was withdrawn by the arbiter."))
    check_round_open(board.round, now)
    return board


def check_round_open(round_: Round, now: datetime.datetime) -> None:
    """``TokenRefused`` unless a link of this round works at ``now``: from publication until
    the round is closed plus the event's grace period (board links and the online players'
    seat links alike)."""
    if round_.status == Round.Status.DRAFTED:
        raise TokenRefused(_("Round %(n)d is not published yet.") % {"n": round_.number},
                           later=True)
    if round_.status == Round.Status.CLOSED and round_.closed_at is not None:
        grace = datetime.timedelta(minutes=round_.event.token_grace_minutes)
        if now > round_.closed_at + grace:
            raise TokenRefused(_("Round %(n)d is closed; this board link has expired.")
                               % {"n": round_.number})


@transaction.atomic
def reissue_token(board: Board) -> Board:
    """Revoke a board's token by giving it a new one (a new QR code must be printed)."""
    board = Board.objects.select_for_update().get(pk=board.pk)
    board.token = new_board_token()
    board.token_revoked_at = None
    board.save(update_fields=["token", "token_revoked_at"])
    return board


@transaction.atomic
def revoke_token(board: Board) -> Board:
    """Close a board's link without issuing a new one (until ``reissue_token``)."""
    board = Board.objects.select_for_update().get(pk=board.pk)
    board.token_revoked_at = timezone.now()
    board.save(update_fields=["token_revoked_at"])
    return board
