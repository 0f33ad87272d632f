"""Names in every script print: Cyrillic, Hangul, accents, and a 100-character name (issue #14).

The fonts come from tournament/printing/fonts only (DejaVu, and Nanum Gothic for Hangul). Each
PDF is read back with poppler: pdftotext must find the names, and pdftoppm's rendering must show
Hangul glyphs rather than the identical empty boxes a font without them would draw.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tournament import services
from tournament.models import Board, Round
from tournament.printing import documents
from tournament.printing.common import BOLD, HANGUL, SANS, runs, text_width

pytestmark = pytest.mark.django_db
A4_WIDTH = 595.28

CYRILLIC = "Анна Ковалёва"
HANGUL_NAME = "김민준"
ACCENTED = "Åsa Ñúñez-Østergård"
LONG = ("Maximiliane Wolfeschlegelsteinhausenbergerdorff von Hohenzollern-Sigmaringen-"
        "Schaumburg-Lippe-Detmol")
GERMAN = "Jürgen Weiß"


def poppler():
    if not (shutil.which("pdftoppm") and shutil.which("pdftotext")):
        pytest.skip("pdftoppm and pdftotext (poppler-utils) read the PDFs back: "
                    "apt-get install poppler-utils")


@pytest.fixture
def scripts_event(db):
    """Round 1 played (so there are standings), round 2 paired: five names, one bye."""
    assert len(LONG) == 100
    event = services.create_event(name="Открытый 서울 Öppen", slug="scripts", rounds_planned=3)
    names = [CYRILLIC, HANGUL_NAME, ACCENTED, LONG, GERMAN]
    players = [services.add_player(event, name=name, club="클럽" if name == HANGUL_NAME else "")
               for name in names]
    one = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED)
    scores = dict(zip("RGBOYP", [9, 10, 11, 12, 13, 14], strict=True))
    low = dict(zip("RGBOYP", [5, 10, 11, 12, 13, 14], strict=True))
    for number, (a, b) in enumerate([(0, 1), (2, 3)], start=1):
        board = Board.objects.create(round=one, number=number, first=players[a],
                                     second=players[b])
        services.record_result(board, "played", first_scores=scores, second_scores=low)
    services.record_result(Board.objects.create(round=one, number=3, first=players[4]), "bye")
    two = Round.objects.create(event=event, number=2, status=Round.Status.PUBLISHED)
    Board.objects.create(round=two, number=1, first=players[1], second=players[3])
    Board.objects.create(round=two, number=2, first=players[4], second=players[0])
    Board.objects.create(round=two, number=3, first=players[2])
    return event


def text_of(pdf: bytes, tmp_path: Path) -> str:
    source = tmp_path / "doc.pdf"
    source.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(source), "-"], capture_output=True,
                         text=True, check=True)
    return out.stdout


def hangul_glyphs(pdf: bytes, tmp_path: Path, word: str) -> list[Image.Image]:
    """The rendered images of the first occurrence of ``word``, one per character.

    pdftotext -bbox gives the word's box in points; Nanum Gothic gives every syllable the
    same advance, so the box splits into equal slices, one per character.
    """
    source = tmp_path / "doc.pdf"
    source.write_bytes(pdf)
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(source), "-"],
                           capture_output=True, text=True, check=True).stdout
    found = re.search(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                      rf'yMax="([\d.]+)">{word}</word>', boxes)
    assert found, boxes[:2000]
    x0, y0, x1, y1 = (float(v) for v in found.groups())
    subprocess.run(["pdftoppm", "-r", "144", "-png", "-f", "1", "-l", "1", "-singlefile",
                    str(source), str(tmp_path / "page")], check=True)
    page = Image.open(tmp_path / "page.png").convert("L")
    scale = 144 / 72
    step = (x1 - x0) / len(word)
    return [page.crop((round((x0 + i * step) * scale), round(y0 * scale),
                       round((x0 + (i + 1) * step) * scale), round(y1 * scale)))
            for i in range(len(word))]


def inked(image: Image.Image) -> int:
    return sum(image.histogram()[:128])  # pixels darker than mid-grey


@pytest.mark.parametrize("document", ["pairings", "standings"])
def test_every_script_prints_and_reads_back(scripts_event, tmp_path, document):
    poppler()
    number = 2 if document == "pairings" else 1
    pdf = documents.render(scripts_event, document, number)
    text = text_of(pdf, tmp_path)
    for name in (CYRILLIC, HANGUL_NAME, ACCENTED, GERMAN, "Открытый 서울 Öppen"):
        assert name in text, (name, text)
    # The long name is cut with an ellipsis to its column, never spilling over the next one.
    assert re.search(r"Maximiliane Wolfe\w*…", text), text
    assert LONG not in text
    glyphs = hangul_glyphs(pdf, tmp_path, HANGUL_NAME)
    # Drawn, and each syllable differently: a font without Hangul draws the same empty box
    # for all three.
    assert all(inked(g) > 20 for g in glyphs)
    assert len({g.tobytes() for g in glyphs}) == len(glyphs)


def test_the_pdf_embeds_the_shipped_fonts(scripts_event, tmp_path):
    if not shutil.which("pdffonts"):
        pytest.skip("pdffonts (poppler-utils) lists the embedded fonts")
    source = tmp_path / "doc.pdf"
    source.write_bytes(documents.render(scripts_event, "pairings", 2))
    listing = subprocess.run(["pdffonts", str(source)], capture_output=True, text=True,
                             check=True).stdout
    assert "DejaVuSans" in listing and "NanumGothic" in listing
    for line in listing.splitlines()[2:]:
        name, *_rest = line.split()
        if "DejaVu" in name or "Nanum" in name:
            assert " yes yes " in line, line  # embedded and subset: no system font needed


def test_runs_give_each_script_a_font_that_has_it():
    assert runs("Åsa Ковалёва", SANS) == (("Åsa Ковалёва", SANS),)
    assert runs(f"Kim {HANGUL_NAME} (Öst)", SANS) == (
        ("Kim ", SANS), (f"{HANGUL_NAME} ", HANGUL), ("(Öst)", SANS))
    assert runs(HANGUL_NAME, BOLD)[0][1] == "NanumGothic-Bold"
    assert text_width(HANGUL_NAME, SANS, 10) > 3 * 8  # real syllables, not zero-width gaps


def test_record_explains_the_scoresheet_back_headings_are_not_struck_through(scripts_event,
                                                                            tmp_path):
    """"Points gained" and "Running total of that seat" each span six colour columns; no
    column rule may run through their row (a printed sheet had them struck through)."""
    poppler()
    pdf = documents.render(scripts_event, "scoresheets", 2, base_url="http://td.test")
    source = tmp_path / "sheets.pdf"
    source.write_bytes(pdf)
    scale = 2  # 144 dpi
    subprocess.run(["pdftoppm", "-r", str(72 * scale), "-f", "2", "-l", "2", "-gray", "-png",
                    str(source), str(tmp_path / "back")], check=True)
    page = Image.open(next(tmp_path.glob("back*.png"))).convert("L")
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "2", "-l", "2", str(source), "-"],
                           capture_output=True, text=True, check=True).stdout
    found = re.search(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">Points<', boxes)
    assert found
    rows = range(int(float(found.group(1)) * scale), int(float(found.group(2)) * scale))
    # the colour columns as the back form draws them: No., Seat, Tile, Cells, then 12 alike
    left, width = 36 + 22 + 26 + 40 + 70, (A4_WIDTH - 72 - 158) / 12

    def ruled(x: float) -> bool:
        return any(all(page.getpixel((px, y)) < 160 for y in rows)
                   for px in range(round(x * scale) - 1, round(x * scale) + 2))

    assert ruled(left + 6 * width)  # the heavy rule between the two blocks stays
    struck = [k for k in (*range(1, 6), *range(7, 12)) if ruled(left + k * width)]
    assert struck == []
