"""The six colour symbols tell the colours apart without ink (black-and-white copies)."""

from __future__ import annotations

import io
import shutil
import subprocess
from itertools import combinations

import pytest
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.common import COLOURS, draw_symbol

CELL, DPI = 80, 72


def test_unknown_colour_is_refused():
    with pytest.raises(ValueError, match="unknown colour 'W'"):
        draw_symbol(Canvas(io.BytesIO()), "W", 0, 0, 10)


def _masks(tmp_path) -> list[set[tuple[int, int]]]:
    """Each symbol drawn 30 pt wide, printed in grey, as the set of its dark-ish pixels."""
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(CELL * 6, CELL))
    for i, letter in enumerate(COLOURS):
        draw_symbol(c, letter, CELL * i + CELL / 2, CELL / 2, 30)
    c.showPage()
    c.save()
    (tmp_path / "s.pdf").write_bytes(buffer.getvalue())
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-singlefile", str(tmp_path / "s.pdf"),
                    str(tmp_path / "s")], check=True)
    data = (tmp_path / "s.pgm").read_bytes()
    header = data.split(maxsplit=4)  # P5 width height maxval pixels
    width, height = int(header[1]), int(header[2])
    pixels = data[len(data) - width * height:]
    masks: list[set[tuple[int, int]]] = [set() for _ in COLOURS]
    for y in range(height):
        for x in range(width):
            if pixels[y * width + x] < 200:
                masks[x // CELL].add((x % CELL, y))
    return masks


def test_symbols_differ_in_black_and_white(tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is needed: apt-get install poppler-utils")
    masks = _masks(tmp_path)
    assert all(masks)
    for (a, mask_a), (b, mask_b) in combinations(zip(COLOURS, masks, strict=True), 2):
        differing = len(mask_a ^ mask_b) / len(mask_a | mask_b)
        assert differing > 0.1, f"{a} and {b} look alike in grey ({differing:.0%} differ)"
