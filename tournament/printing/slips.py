"""Result slips: what the players hand in (or type in via the QR code) after the game.

Four slips per page, cut apart along the dashed lines. Each has the twelve colour scores, the
VP, the way the game ended and both signatures; the arbiter types them in from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from io import BytesIO

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.common import (
    BOLD,
    COLOURS,
    MARGIN,
    MUTED,
    RULE,
    SANS,
    draw_footer,
    draw_header,
    fit,
    new_canvas,
    page_size,
)
from tournament.printing.data import BoardSheet
from tournament.printing.drawing import (
    centred,
    checkbox,
    draw_qr,
    grid,
    left_text,
    signature_line,
    symbol_cell,
)

PER_PAGE = 4
QR_SIZE = 62.0


def _slip(c: Canvas, sheet: BoardSheet, top: float, height: float, width: float) -> None:
    x = MARGIN
    c.setFont(BOLD, 15)
    c.drawString(x, top - 18, _("Board %(b)d") % {"b": sheet.board})
    c.setFont(SANS, 9.5)
    c.drawString(x + 90, top - 17, fit(
        _("Round %(r)d · result slip") % {"r": sheet.round} + " · " + sheet.event.name,
        SANS, 9.5, width - 90 - QR_SIZE - 10))
    draw_qr(c, sheet.url, x + width - QR_SIZE, top - QR_SIZE - 2, QR_SIZE)
    table_w = width - QR_SIZE - 10
    score_w = 30
    widths = [table_w - 6 * score_w - 2 * 40, *[score_w] * 6, 40, 40]
    xs, ys = grid(c, x, top - 28, widths, [16, 24, 24], header_rows=1)
    left_text(c, _("Player"), xs[0], xs[1], ys[0], ys[1], font=BOLD, size=8)
    for i, letter in enumerate(COLOURS):
        symbol_cell(c, letter, xs[i + 1], xs[i + 2], ys[0], ys[1], radius=5.5)
    centred(c, _("Lowest"), xs[7], xs[8], ys[0], ys[1], font=BOLD, size=7)
    centred(c, _("VP"), xs[8], xs[9], ys[0], ys[1], font=BOLD, size=8)
    for row, (seat, player, role) in enumerate(
        (("A", sheet.first, pgettext("plays first", "first")),
         ("B", sheet.second, pgettext("plays second", "second")))
    ):
        left_text(c, f"{seat} ({role}) {player.name}", xs[0], xs[1], ys[row + 1], ys[row + 2],
                  size=9.5)
    y = ys[-1] - 16
    c.setFont(BOLD, 8.5)
    c.drawString(x, y, _("Game:"))
    bx = x + 40
    for label in (_("played to the end"), _("resigned: seat ___"), _("forfeit: absent ___"),
                  _("flag fall: seat ___")):
        bx = checkbox(c, bx, y, label, size=8, font_size=8)
    half = (width - 16) / 2
    sign_y = max(top - height + 20, y - 34)
    signature_line(c, x, sign_y, half, _("Signature A (first)"))
    signature_line(c, x + half + 16, sign_y, half, _("Signature B (second)"))
    c.setFont(SANS, 6.5)
    c.setFillColor(MUTED)
    c.drawRightString(x + width, top - QR_SIZE - 10, _("or scan to enter it"))
    c.setFillColor(colors.black)


def build_slips(sheets: Iterable[BoardSheet], paper: str = "a4") -> bytes:
    """Every board's result slip, three to a page in board order."""
    size = page_size(paper)
    width = size[0] - 2 * MARGIN
    sheets = list(sheets)
    buffer = BytesIO()
    title = (_("Result slips · round %(r)d") % {"r": sheets[0].round} if sheets
             else _("Result slips"))
    c = new_canvas(buffer, size, title)
    area_top = size[1] - MARGIN - 46
    slot = (area_top - MARGIN - 4) / PER_PAGE
    if not sheets:
        c.setFont(SANS, 12)
        c.drawString(MARGIN, size[1] / 2, _("This round has no boards to play."))
        c.showPage()
    for start in range(0, len(sheets), PER_PAGE):
        chunk = sheets[start:start + PER_PAGE]
        draw_header(c, chunk[0].event, title, size)
        draw_footer(c, chunk[0].event, size)
        for i, sheet in enumerate(chunk):
            top = area_top - i * slot
            if i:
                c.saveState()
                c.setDash(4, 3)
                c.setStrokeColor(RULE)
                c.line(MARGIN - 20, top + 6, size[0] - MARGIN + 20, top + 6)
                c.restoreState()
            _slip(c, sheet, top - 6, slot - 12, width)
        c.showPage()
    c.save()
    return buffer.getvalue()
