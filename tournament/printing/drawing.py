"""Drawing helpers for the forms players fill in by hand (scoresheets, slips).

Forms are drawn straight on the canvas rather than through platypus tables: their layout is
fixed, and drawing a ruled grid directly is several times faster than building a ``Table``
for each of a round's hundred sheets.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import qrcode
import qrcode.constants
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.common import BAND, BOLD, MUTED, RULE, SANS, draw_symbol, fit, text_width

QUIET_ZONE = 4
"""Light modules around the code, as the QR standard asks, so phones find its edges."""


@functools.lru_cache(maxsize=2048)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The dark/light modules of ``url``'s QR code (error correction M, no quiet zone).

    Encoded with the ``qrcode`` package (a runtime dependency already): it picks the mask
    about twice as fast as reportlab's ``QrCodeWidget`` encoder, which a round of 150
    scoresheets feels. Kept per address (immutable, so shared safely): a board's token, and
    so its code, outlives the reprints of its scoresheet, slip and card, and encoding takes
    most of the ~15 ms a code costs to draw.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(bool(cell) for cell in row) for row in code.modules)


def draw_qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code of ``url`` with its quiet zone, lower-left corner at (x, y), ``size`` wide.

    Modules are drawn as one path of horizontal runs: a graphics widget would build a shape
    object per run, many times slower.
    """
    modules = qr_modules(url)
    border = QUIET_ZONE
    box = size / (len(modules) + 2 * border)
    c.saveState()
    c.setFillColor(colors.white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    path = c.beginPath()
    top = y + size - border * box
    for row, cells in enumerate(modules):
        column = 0
        for dark, run in itertools.groupby(cells):
            length = len(list(run))
            if dark:
                path.rect(x + (border + column) * box, top - (row + 1) * box, length * box, box)
            column += length
    c.setFillColor(colors.black)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


def grid(c: Canvas, x: float, top: float, widths: Sequence[float], heights: Sequence[float],
         *, header_rows: int = 0, heavy_every: int = 0) -> tuple[list[float], list[float]]:
    """Rule a grid of cells from (x, top) down; returns the column lefts and row tops.

    The first ``header_rows`` rows get a light band; every ``heavy_every``-th body line is
    drawn heavier, which helps a player find row 25 of 45 with a pencil.
    """
    xs = [x]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [top]
    for h in heights:
        ys.append(ys[-1] - h)
    c.saveState()
    if header_rows:
        c.setFillColor(BAND)
        c.rect(x, ys[header_rows], xs[-1] - x, top - ys[header_rows], stroke=0, fill=1)
    c.setStrokeColor(RULE)
    c.setLineWidth(0.4)
    for index, y in enumerate(ys):
        body = index - header_rows
        heavy = index in (0, header_rows, len(ys) - 1) or (
            heavy_every and body > 0 and body % heavy_every == 0)
        c.setStrokeColor(colors.black if heavy else RULE)
        c.setLineWidth(0.8 if heavy else 0.4)
        c.line(x, y, xs[-1], y)
    c.setStrokeColor(RULE)
    c.setLineWidth(0.4)
    for cx in xs:
        c.line(cx, top, cx, ys[-1])
    c.restoreState()
    return xs, ys


def centred(c: Canvas, text: str, left: float, right: float, top: float, bottom: float,
            *, font: str = SANS, size: float = 9, colour=colors.black) -> None:
    """Write ``text`` centred in a cell, shortened with an ellipsis if it is too wide."""
    c.saveState()
    c.setFont(font, size)
    c.setFillColor(colour)
    text = fit(text, font, size, right - left - 4)
    c.drawCentredString((left + right) / 2, (top + bottom) / 2 - size * 0.35, text)
    c.restoreState()


def left_text(c: Canvas, text: str, left: float, right: float, top: float, bottom: float,
              *, font: str = SANS, size: float = 9, colour=colors.black) -> None:
    c.saveState()
    c.setFont(font, size)
    c.setFillColor(colour)
    text = fit(text, font, size, right - left - 6)
    c.drawString(left + 3, (top + bottom) / 2 - size * 0.35, text)
    c.restoreState()


def symbol_cell(c: Canvas, letter: str, left: float, right: float, top: float, bottom: float,
                radius: float | None = None) -> None:
    r = radius or min(right - left, top - bottom) * 0.36
    draw_symbol(c, letter, (left + right) / 2, (top + bottom) / 2, r)


def checkbox(c: Canvas, x: float, y: float, label: str, *, size: float = 9,
             font_size: float = 9) -> float:
    """An empty box to tick with its label; returns the x after the label."""
    c.saveState()
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.7)
    c.rect(x, y - 1, size, size, stroke=1, fill=0)
    c.setFont(SANS, font_size)
    c.drawString(x + size + 3, y, label)
    c.restoreState()
    return x + size + 3 + text_width(label, SANS, font_size) + 12


def signature_line(c: Canvas, x: float, y: float, width: float, label: str) -> None:
    """A line to sign on with a small caption under it."""
    c.saveState()
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.6)
    c.line(x, y, x + width, y)
    c.setFont(SANS, 7)
    c.setFillColor(MUTED)
    c.drawString(x, y - 9, label)
    c.restoreState()


def label_value(c: Canvas, x: float, y: float, label: str, value: str, *, size: float = 11,
                width: float = 300) -> None:
    """A muted caption followed by a bold value on one baseline ("First (A): Ada")."""
    c.saveState()
    c.setFont(SANS, size - 2)
    c.setFillColor(MUTED)
    c.drawString(x, y, label)
    offset = text_width(label, SANS, size - 2) + 5
    c.setFont(BOLD, size)
    c.setFillColor(colors.black)
    c.drawString(x + offset, y, fit(value, BOLD, size, width - offset))
    c.restoreState()
