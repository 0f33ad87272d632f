"""A small known event for the printing tests: 7 players (one bye a round), 2 rounds played.

Rounds and boards are written directly (not by the pairing engine) so the boards are known;
results go through ``services.record_result`` like any result entered at the desk.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from printing_helpers import COLOURS, GAMES, PLAYERS

from tournament import services
from tournament.models import Board, Round


@pytest.fixture
def arbiter(db):
    return get_user_model().objects.create_user("print-arbiter", password="pw-print-1")


@pytest.fixture
def event(db, arbiter):
    """The known event: both rounds published, every result in."""
    event = services.create_event(
        name="Print Open", slug="print-open", arbiter=arbiter, venue="Hall 2",
        start_date=datetime.date(2025, 6, 14), rounds_planned=5,
    )
    players = {name: services.add_player(event, name=name, club=club) for name, club in PLAYERS}
    rounds = {}
    for number, board_no, first, second, a, b in GAMES:
        if number not in rounds:
            rounds[number] = Round.objects.create(event=event, number=number,
                                                  status=Round.Status.PUBLISHED)
        board = Board.objects.create(round=rounds[number], number=board_no,
                                     first=players[first],
                                     second=players[second] if second else None)
        if second is None:
            services.record_result(board, "bye")
        else:
            services.record_result(board, "played", first_scores=dict(zip(COLOURS, a, strict=True)),
                                   second_scores=dict(zip(COLOURS, b, strict=True)))
    return event
