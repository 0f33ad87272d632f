"""A board clock's log, readable by the arbiter: who paused, adjusted or handed the clock over,
when and why, reachable from the hall and the board's result page, and printed in the record
of the round."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from bench.events import create_clock_event
from clocks import services
from tests.printing.printing_helpers import pdf_pages

pytestmark = pytest.mark.django_db


def test_record_explains_the_clock_log_with_the_arbiters_reasons(clock_time):
    arbiter = get_user_model().objects.create_user("desk", password="pw-desk-39")
    round_ = create_clock_event(1, arbiter=arbiter, slug="clock-log")
    board = round_.boards.get()
    services.start_round(round_, who="desk", user=arbiter)
    clock_time.advance(5_000)
    services.press(board, "A", 0, who="player A")
    clock_time.advance(2_000)
    services.pause(board, who="desk", user=arbiter)
    services.adjust(board, "B", "add", 30_000, reason="a spectator's question", who="desk",
                    user=arbiter)
    services.resume(board, who="desk", user=arbiter)
    desk = Client()
    desk.force_login(arbiter)
    slug = round_.event.slug
    page = desk.get(reverse("clock_log", args=[slug, board.pk])).content.decode()
    assert "Player 0002: 30.0 s added" in page and "a spectator&#x27;s question" in page
    assert "Player 0001 pressed (press 1)" in page
    assert page.count(">desk<") >= 3  # the start, the pause, the adjustment, the resume
    hall = desk.get(reverse("clock_hall", args=[slug, 1])).content.decode()
    assert reverse("clock_log", args=[slug, board.pk]) in hall
    assert reverse("arbiter_dashboard", args=[slug]) in hall
    result = desk.get(reverse("arbiter_board", args=[slug, board.pk])).content.decode()
    assert reverse("clock_log", args=[slug, board.pk]) in result
    # the printed record of the round carries the log with the reason, and the result
    pdf = desk.get(reverse("print_document", args=[slug, "record"]), {"round": 1})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(pdf_pages(pdf.content)).split())
    assert "Record of round 1" in text and "Board 1: Player 0001 – Player 0002" in text
    assert "Player 0002: 30.0 s added" in text and "a spectator's question" in text
    assert "Player 0001 pressed (press 1)" in text
    # another event's arbiter reads nothing
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("other", password="pw-ot-39"))
    assert stranger.get(reverse("clock_log", args=[slug, board.pk])).status_code in (403, 404)
    assert stranger.get(reverse("print_document", args=[slug, "record"]),
                        {"round": 1}).status_code in (403, 404)
