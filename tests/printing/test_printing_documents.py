"""Every document of the known event: the right text, page counts and page sizes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from printing_helpers import A4, GAMES, LETTER, PLAYERS, pdf_pages, pdf_sizes

from tournament import services
from tournament.bridges import standings_bridge
from tournament.printing import documents
from tournament.printing.cards import Card, build_cards
from tournament.texts.formatting import name_key

pytestmark = pytest.mark.django_db


def test_pairings_by_board_then_by_name(event):
    pdf = documents.render(event, "pairings", 2)
    by_board, by_name = pdf_pages(pdf)
    assert "Print Open" in by_board and "June 14, 2025" in by_board
    assert "Pairings round 2 · by board" in by_board
    # board, then each side's pairing number, name and VP before the round (no ratings in
    # this event: no rating columns)
    assert "Board No. First VP No. Second VP" in by_board
    assert "1 4 Dorothy Vaughan 1 1 Ada Lovelace 1" in by_board
    assert "2 6 Florence Nightingale ½ 7 Grace Hopper 1" in by_board
    assert "3 2 Blaise Pascal 0 3 Carl Gauss 0" in by_board
    assert "– 5 Émile Borel ½ bye" in by_board
    assert "Pairings round 2 · by name" in by_name
    # alphabetical, accents ignored: each name is followed by the start of its club
    alphabetical = sorted(PLAYERS, key=lambda player: name_key(player[0]))
    assert alphabetical[4][0] == "Émile Borel"
    where = [by_name.index(f"{name} {club[:5]}") for name, club in alphabetical]
    assert where == sorted(where)
    assert "Ada Lovelace London 1 Dorothy Vaughan second" in by_name
    assert re.search(r"Émile Borel Saint-Af\S* – bye", by_name)
    assert "page 1 of 2" in by_board and "page 2 of 2" in by_name


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_paper_sizes(event, paper, size):
    for name in ("pairings", "scoresheets", "slips", "standings"):
        assert set(pdf_sizes(documents.render(event, name, 1, paper=paper))) == {size}
    landscape = (size[1], size[0])
    assert set(pdf_sizes(documents.render(event, "crosstable", 2, paper=paper))) == {landscape}


def test_standings_show_every_row_with_its_tiebreaks(event):
    table = standings_bridge.standings(event, 2)
    (text,) = pdf_pages(documents.render(event, "standings", 2))
    assert "Standings after round 2" in text
    assert "Place Name Club VP H2H Diff Level" in text
    for row in table.rows:
        values = " ".join(v.display for v in row.tiebreaks if v.display)
        assert f"{row.place} {row.name} {row.club} {row.vp_display} {values}" in text
    # Worked by hand from the fixture: Ada won both games, lowest colours 9 vs 7 and 8 vs 5.
    assert "1 Ada Lovelace London 2 +5 17" in text
    assert "7 Blaise Pascal Paris 0" in text
    for tiebreak in table.tiebreaks:  # the footer defines each tiebreak
        assert f"{tiebreak.label}: {tiebreak.definition}" in text


def test_standings_after_round_one_and_shared_places(event):
    (text,) = pdf_pages(documents.render(event, "standings", 1))
    assert "Standings after round 1" in text
    # Émile and Florence drew with identical scores: still tied after every tiebreak.
    emile = re.search(r"(\d–\d) Émile Borel", text)
    assert emile is not None
    assert f"{emile.group(1)} Florence Nightingale" in text


def test_crosstable_rows_and_cells(event):
    table, rows = standings_bridge.crosstable(event, 2)
    (text,) = pdf_pages(documents.render(event, "crosstable", 2))
    assert "Crosstable · Standings after round 2" in text
    assert "Place Name R1 R2 VP 1st–2nd" in text
    ada = next(r for r in rows if r.name == "Ada Lovelace")
    blaise_rank = next(r.rank for r in rows if r.name == "Blaise Pascal")
    dorothy_rank = next(r.rank for r in rows if r.name == "Dorothy Vaughan")
    assert (ada.rank, ada.vp_display, ada.firsts, ada.seconds) == (1, "2", 1, 1)
    assert f"1 Ada Lovelace {blaise_rank}f 1 {dorothy_rank}s 1 2 1–1" in text
    assert "Grace Hopper bye 1" in text
    assert len(rows) == len(table.rows) == 7


def test_scoresheets_one_sheet_per_board_front_and_back(event):
    pdf = documents.render(event, "scoresheets", 2, base_url="http://td.test")
    pages = pdf_pages(pdf)
    boards = [g for g in GAMES if g[0] == 2 and g[3] is not None]
    assert len(pages) == 2 * len(boards)
    for index, (_r, board, first, second, _a, _b) in enumerate(boards):
        front, back = pages[2 * index], pages[2 * index + 1]
        assert f"Scoresheet · round 2 · board {board}" in front
        assert f"Board {board}" in front and "Round 2" in front
        assert f"A · plays first: {first}" in front
        assert f"B · plays second: {second}" in front
        assert "Time control: 10 min per player" in front
        assert f"A (first): {first}" in back and f"B (second): {second}" in back
        assert "Points gained" in back and "Running total of that seat" in back
        assert f"page {2 * index + 1} of {len(pages)}" in front
    # every one of the 91 cells is named on the diagram
    words = set(pages[0].split())
    rows = {"a": range(1, 7), "b": range(1, 8), "c": range(1, 9), "d": range(1, 10),
            "e": range(1, 11), "f": range(1, 12), "g": range(2, 12), "h": range(3, 12),
            "i": range(4, 12), "j": range(5, 12), "k": range(6, 12)}
    cells = {f"{row}{n}" for row, numbers in rows.items() for n in numbers}
    assert len(cells) == 91
    assert cells <= words
    assert "45" in pages[1].split()  # the placement table runs to row 45


def test_slips_four_to_a_page(event):
    pdf = documents.render(event, "slips", 1)
    (text,) = pdf_pages(pdf)
    for board, first, second in ((1, "Ada Lovelace", "Blaise Pascal"),
                                 (2, "Carl Gauss", "Dorothy Vaughan"),
                                 (3, "Émile Borel", "Florence Nightingale")):
        assert f"Board {board}" in text
        assert f"A (first) {first}" in text and f"B (second) {second}" in text
    assert "Grace Hopper" not in text  # the bye needs no slip
    assert text.count("Signature A (first)") == 3


def test_unknown_document_and_paper_are_refused(event):
    from tournament.printing.data import PrintError

    with pytest.raises(PrintError, match=r"Unknown document 'minutes'.*pairings, standings"):
        documents.render(event, "minutes", 1)
    with pytest.raises(PrintError, match="Unknown paper 'a3'"):
        documents.render(event, "pairings", 1, paper="a3")


def test_fonts_are_embedded(event):
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(documents.render(event, "standings", 2)))
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None:
                descriptor = descriptor.get_object()
                assert "/FontFile2" in descriptor, font["/BaseFont"]
            fonts.add(str(font["/BaseFont"]))
    assert any("DejaVuSans" in f for f in fonts)


def test_scoresheet_shows_the_round_start_and_long_names_fit(event):
    import datetime as dt

    from django.utils import timezone

    from tournament.models import Player, Round

    Round.objects.filter(event=event, number=2).update(
        starts_at=dt.datetime(2025, 6, 14, 14, 30, tzinfo=timezone.get_current_timezone()))
    Player.objects.filter(event=event, name="Ada Lovelace").update(
        name="Augusta Ada King, Countess of Lovelace, née Byron, of Ockham Park, Surrey")
    front = pdf_pages(documents.render(event, "scoresheets", 2))[0]
    assert "Round 2 · starts 06/14/2025 2:30 p.m." in front
    assert "B · plays second: Augusta Ada King, Countess of" in front
    assert "Surrey" not in front  # shortened with an ellipsis rather than running off the page


def test_the_page_and_the_pdf_list_pairings_by_name_in_the_same_order(client, arbiter):
    """One sort key for names: the page used to sort Émile after Zed, the PDF among the Es."""
    event = services.create_event(name="Accents", arbiter=arbiter)
    for name in ("Zed", "Émile", "adam", "Eve"):
        services.add_player(event, name=name)
    services.publish_round(services.pair_next_round(event))
    page = client.get(reverse("event_pairings_by_name", args=[event.slug])).content.decode()
    names = ["adam", "Émile", "Eve", "Zed"]
    assert [page.index(f">{n}<") for n in names] == sorted(page.index(f">{n}<") for n in names)
    text = pdf_pages(documents.render(event, "pairings", 1))[1]
    assert [text.index(n) for n in names] == sorted(text.index(n) for n in names)


def test_pairings_show_ratings_when_the_event_has_them(event):
    """A rated event's pairings by board carry each side's rating, beside pairing number and
    VP before the round (issue #36, item 14)."""
    event.players.filter(name="Dorothy Vaughan").update(rating=1875)
    by_board = pdf_pages(documents.render(event, "pairings", 2))[0]
    assert "Board No. First Rtg VP No. Second Rtg VP" in by_board
    assert "1 4 Dorothy Vaughan 1875 1 1 Ada Lovelace 1" in by_board


def test_a_card_prints_a_long_name_whole_where_the_qr_code_leaves_room():
    """#36, item 14: the name line sits above the QR code, so it takes the card's width (and
    a smaller size before any cut); only the pairing number line shares the QR code's."""
    names = ["Grzegorz Wiśniewski-Kowalczyk", "Maximiliane Wolfeschlegelsteinhausenbergerdorff"]
    cards = [Card("Mind Sports Olympiad · Ingenious Open 2026", name, 12, "ABCDEFGHJKLMNPQR",
                  "http://192.168.1.20:8000/card/ABCD/") for name in names]
    text = pdf_pages(build_cards(cards))[0]
    assert "Grzegorz Wiśniewski-Kowalczyk" in text
    assert "Scan: check in, your board, your results." in text
    assert "Mind Sports Olympiad · Ingenious Open 2026" in text
    assert "Maximiliane Wolfeschlegel" in text and "…" in text
