"""The QR codes on scoresheets and slips open the board's own page, with its token."""

from __future__ import annotations

import pytest
from printing_helpers import decode_qr

from tournament.models import Board
from tournament.printing import documents

pytestmark = pytest.mark.django_db


def test_scoresheet_qr_opens_the_board_page(event, tmp_path):
    pdf = documents.render(event, "scoresheets", 1, base_url="https://td.example.org")
    boards = list(Board.objects.filter(round__event=event, round__number=1,
                                       second__isnull=False).order_by("number"))
    # Front pages of the first and the last board (rendering at 200 dpi is the slow part).
    for index in (0, len(boards) - 1):
        assert decode_qr(pdf, 2 * index + 1, tmp_path, top=0.3) == [
            f"https://td.example.org/b/{boards[index].token}/"]


def test_every_slip_has_its_own_board_code(event, tmp_path):
    pdf = documents.render(event, "slips", 2, base_url="http://127.0.0.1:8000/")
    expected = {
        f"http://127.0.0.1:8000/b/{token}/"
        for token in Board.objects.filter(round__event=event, round__number=2,
                                          second__isnull=False).values_list("token", flat=True)
    }
    assert set(decode_qr(pdf, 1, tmp_path, expect=len(expected))) == expected
