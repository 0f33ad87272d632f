"""The cheap token re-check of every press (``clocks.access``) against the full check."""

import datetime

import pytest
from django.utils import timezone

from bench.events import create_clock_event
from clocks import access
from tournament.boards.tokens import TokenRefused, reissue_token, revoke_token
from tournament.models import Round


@pytest.fixture
def board(db):
    return create_clock_event(2, slug="access-open").boards.get(number=1)


def test_a_valid_token_passes_with_one_query(board, django_assert_num_queries):
    with django_assert_num_queries(1):
        access.recheck(board.pk, board.token)


def test_a_revoked_token_is_refused_with_the_reason(board):
    revoke_token(board)
    assert not access.still_open(board.pk, board.token)
    with pytest.raises(TokenRefused, match="withdrawn"):
        access.recheck(board.pk, board.token)


def test_a_reissued_token_refuses_the_old_one(board):
    old = board.token
    reissue_token(board)
    with pytest.raises(TokenRefused, match="not valid"):
        access.recheck(board.pk, old)


def test_a_closed_round_takes_the_full_check_for_its_grace_period(board):
    now = timezone.now()
    Round.objects.filter(pk=board.round_id).update(status=Round.Status.CLOSED, closed_at=now)
    assert not access.still_open(board.pk, board.token)
    access.recheck(board.pk, board.token)  # within the grace period: still valid
    long_ago = now - datetime.timedelta(days=1)
    Round.objects.filter(pk=board.round_id).update(closed_at=long_ago)
    with pytest.raises(TokenRefused, match="expired"):
        access.recheck(board.pk, board.token)
