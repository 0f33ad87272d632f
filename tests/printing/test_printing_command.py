"""``manage.py export_pdf``: writes the document, refuses clearly what it cannot print."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from printing_helpers import A4, LETTER, decode_qr, pdf_pages, pdf_sizes

from tournament.models import Board

pytestmark = pytest.mark.django_db


def test_writes_each_document(event, tmp_path):
    for document, extra in (("pairings", ["--round", "1"]), ("standings", []),
                            ("crosstable", ["--round", "2"]), ("slips", ["--round", "2"])):
        out = tmp_path / f"{document}.pdf"
        call_command("export_pdf", "print-open", document, *extra, "-o", str(out))
        assert out.read_bytes().startswith(b"%PDF")
    assert "Standings after round 2" in pdf_pages((tmp_path / "standings.pdf").read_bytes())[0]


@override_settings(PUBLIC_BASE_URL="https://td.example.org")
def test_scoresheets_on_letter_with_the_public_address(event, tmp_path):
    out = tmp_path / "sheets.pdf"
    call_command("export_pdf", "print-open", "scoresheets", "--round", "1", "--paper", "letter",
                 "-o", str(out))
    pdf = out.read_bytes()
    assert pdf_sizes(pdf) == [LETTER] * 6
    board = Board.objects.get(round__event=event, round__number=1, number=1)
    assert decode_qr(pdf, 1, tmp_path, top=0.3) == [f"https://td.example.org/b/{board.token}/"]


@pytest.mark.parametrize(("args", "message"), [
    (["nope", "standings"], "No event 'nope'. Known events: print-open"),
    (["print-open", "minutes"], "Unknown document 'minutes'; choose one of: pairings"),
    (["print-open", "pairings"], "Say which round to print"),
    (["print-open", "scoresheets", "--round", "7"], "Round 7 has not been paired"),
    (["print-open", "standings", "--round", "x"], "'x' is not a round number"),
])
def test_clear_errors(event, tmp_path, args, message):
    out = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match=message):
        call_command("export_pdf", *args, "-o", str(out))
    assert not out.exists()


def test_default_paper_is_a4(event, tmp_path):
    out = tmp_path / "p.pdf"
    call_command("export_pdf", "print-open", "pairings", "--round", "2", "-o", str(out))
    assert set(pdf_sizes(out.read_bytes())) == {A4}
