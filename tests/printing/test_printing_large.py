"""Large fields, built as plain data (no database): page breaks and repeated headings."""

from __future__ import annotations

import random

from printing_helpers import A4, pdf_pages, pdf_sizes

from tournament.printing.crosstable import build_crosstable
from tournament.printing.data import (
    CrossLine,
    CrosstableDoc,
    EventInfo,
    PairingLine,
    PairingsDoc,
    Seat,
    StandingLine,
    StandingsDoc,
    TiebreakColumn,
)
from tournament.printing.pairings import build_pairings
from tournament.printing.standings import build_standings

INFO = EventInfo("Big Swiss", "14 June 2025", "Hall 1", stamp="printed today")


def crosstable(players: int, rounds: int) -> CrosstableDoc:
    rng = random.Random(players)
    rows = tuple(
        CrossLine(str(i), f"Player {i:03d}", str(rounds - i % rounds),
                  tuple(f"{rng.randint(1, players)}{rng.choice('fs')} {rng.choice('10½')}"
                        for _ in range(rounds)), rounds // 2, rounds - rounds // 2)
        for i in range(1, players + 1)
    )
    return CrosstableDoc(INFO, rounds, rows)


def test_sixty_players_span_pages_with_the_heading_repeated():
    doc = crosstable(60, 7)
    pages = pdf_pages(build_crosstable(doc))
    assert len(pages) >= 2
    heading = "Place Name R1 R2 R3 R4 R5 R6 R7 VP 1st–2nd"
    assert all(heading in page for page in pages)
    assert all("Big Swiss" in page and "14 June 2025" in page for page in pages)
    text = " ".join(pages)
    for line in doc.rows:  # every player once, with all their cells, in order
        assert f"{line.place} {line.name} {' '.join(line.cells)} {line.vp}" in text
    assert f"page {len(pages)} of {len(pages)}" in pages[-1]
    assert set(pdf_sizes(build_crosstable(doc))) == {(A4[1], A4[0])}


def test_ten_players_fit_one_page():
    pages = pdf_pages(build_crosstable(crosstable(10, 9)))
    assert len(pages) == 1
    assert "Player 010" in pages[0]


def test_long_standings_and_pairings_run_over_pages():
    columns = (TiebreakColumn("a", "Diff", "one"), TiebreakColumn("b", "Level", "two"))
    rows = tuple(StandingLine(str(i), f"Player {i:03d}", "Club", "3", ("+1", "20"))
                 for i in range(1, 151))
    pages = pdf_pages(build_standings(StandingsDoc(INFO, 5, columns, rows)))
    assert len(pages) > 1
    assert all("Place Name Club VP Diff Level" in p and "Diff: one" in p for p in pages)
    assert "150 Player 150 Club 3 +1 20" in pages[-1]

    boards = tuple(PairingLine(b, Seat(f"First {b}"), Seat(f"Second {b}"))
                   for b in range(1, 76))
    pages = pdf_pages(build_pairings(PairingsDoc(INFO, 4, boards)))
    assert len(pages) >= 4  # by board and by name, each on more than one page
    assert "75 First 75 0 Second 75 0" in " ".join(pages)


def test_very_long_names_are_shortened_not_overlapping():
    long = "Maximiliane Wilhelmina von Hohenzollern-Sigmaringen-Ostpreußen der Dritte"
    doc = CrosstableDoc(INFO, 1, (CrossLine("1", long, "1", ("2f 1",), 1, 0),))
    (text,) = pdf_pages(build_crosstable(doc))
    assert "Maximiliane" in text and "…" in text
    assert long not in text
