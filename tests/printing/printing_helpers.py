"""Known data and PDF helpers shared by the printing tests (text, page sizes, QR codes)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

PLAYERS = [
    ("Ada Lovelace", "London"), ("Blaise Pascal", "Paris"), ("Carl Gauss", "Göttingen"),
    ("Dorothy Vaughan", "Hampton"), ("Émile Borel", "Saint-Affrique"),
    ("Florence Nightingale", "London"), ("Grace Hopper", "New York"),
]
# (round, board, first, second, first scores, second scores); second None = bye.
GAMES = [
    (1, 1, "Ada Lovelace", "Blaise Pascal", [12, 10, 9, 14, 11, 13], [8, 15, 7, 12, 10, 9]),
    (1, 2, "Carl Gauss", "Dorothy Vaughan", [6, 9, 11, 10, 8, 12], [7, 10, 11, 9, 13, 12]),
    (1, 3, "Émile Borel", "Florence Nightingale", [10, 10, 10, 10, 10, 10],
     [10, 10, 10, 10, 10, 10]),
    (1, 0, "Grace Hopper", None, None, None),
    (2, 1, "Dorothy Vaughan", "Ada Lovelace", [5, 8, 9, 7, 6, 10], [9, 11, 8, 12, 10, 9]),
    (2, 2, "Florence Nightingale", "Grace Hopper", [14, 13, 12, 11, 16, 18],
     [9, 9, 10, 11, 8, 7]),
    (2, 3, "Blaise Pascal", "Carl Gauss", [4, 6, 8, 5, 7, 9], [6, 7, 5, 8, 9, 10]),
    (2, 0, "Émile Borel", None, None, None),
]
COLOURS = "RGBOYP"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)



def pdf_pages(pdf: bytes) -> list[str]:
    """The text of every page, whitespace runs folded to one space."""
    reader = PdfReader(io.BytesIO(pdf))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


def pdf_sizes(pdf: bytes) -> list[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(pdf))
    return [(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in reader.pages]


def decode_qr(pdf: bytes, page: int, tmp_path: Path, *, top: float = 1.0,
              expect: int = 0) -> list[str]:
    """Render one page (1-based) at 200 dpi and return every QR code zbarimg finds on it.

    ``top`` < 1 renders only that upper fraction of the page (where a scoresheet has its
    code), which makes decoding several times faster. ``expect``: how many codes the page
    holds. zbar now and then misses a sound code at one raster (once in CI, 7 of 8 cards at
    200 dpi; 1,200 cards drawn the same way all decoded, and so did that test in every later
    run), so a page that gives fewer is read again at 300 dpi, as another camera would see it.
    """
    if not (shutil.which("pdftoppm") and shutil.which("zbarimg")):
        pytest.skip("pdftoppm (poppler-utils) and zbarimg (zbar-tools) are needed to decode "
                    "QR codes: apt-get install poppler-utils zbar-tools")
    source = tmp_path / "doc.pdf"
    source.write_bytes(pdf)
    size = pdf_sizes(pdf)[page - 1]
    found = _decode(source, size, page, top, 200)
    if len(found) < expect:
        found += [url for url in _decode(source, size, page, top, 300) if url not in found]
    return found


def _decode(source: Path, size: tuple[float, float], page: int, top: float,
            dpi: int) -> list[str]:
    width, height = size
    crop = ["-x", "0", "-y", "0", "-W", str(round(width / 72 * dpi)),
            "-H", str(round(height / 72 * dpi * top))]
    image = source.with_name(f"page-{dpi}")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(page), "-l", str(page),
                    *crop, "-singlefile", str(source), str(image)], check=True)
    found = subprocess.run(["zbarimg", "--raw", "-q", f"{image}.png"],
                           capture_output=True, text=True, check=False)
    return [line for line in found.stdout.splitlines() if line]
