"""Scoresheets: one sheet per board, printed both sides, for both players together.

Front: who plays whom and who plays first, the time control, the QR code that opens the
board's page (clock, move entry), a named board diagram for writing cells, the final scores,
swaps and flags, the result and signatures. Back: one row per placement for a whole game (a
two-player game has at most 42 placements; bonus plays take their own rows) with the points
gained and the seat's running total per colour. A round's sheets are one PDF with two pages
per board, so duplex printing puts each board on one sheet of paper.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.board_diagram import draw_board, side_for
from tournament.printing.common import (
    BAND,
    BOLD,
    COLOURS,
    HEADER_H,
    MARGIN,
    MONO,
    MUTED,
    RULE,
    SANS,
    draw_footer,
    draw_header,
    draw_symbol,
    fit,
    new_canvas,
    page_size,
    text_width,
)
from tournament.printing.data import BoardSheet, EventInfo
from tournament.printing.drawing import (
    centred,
    checkbox,
    draw_qr,
    grid,
    label_value,
    left_text,
    signature_line,
    symbol_cell,
)

PLACEMENT_ROWS = 45
QR_SIZE = 96.0
SCORES_H, SWAPS_H, RESULT_H = 64.0, 58.0, 62.0
FRONT_FORM, BACK_FORM = "scoresheet-front", "scoresheet-back"


def colour_name(letter: str) -> str:
    names = {"R": _("red"), "G": _("green"), "B": _("blue"), "O": _("orange"),
             "Y": _("yellow"), "P": _("purple")}
    return names[letter]


def sheet_title(sheet: BoardSheet) -> str:
    return _("Scoresheet · round %(r)d · board %(b)d") % {"r": sheet.round, "b": sheet.board}


def _players_block(c: Canvas, sheet: BoardSheet, top: float, width: float) -> None:
    board = _("Board %(b)d") % {"b": sheet.board}
    c.setFont(BOLD, 24)
    c.drawString(MARGIN, top - 24, board)
    board_w = text_width(board, BOLD, 24) + 14
    round_text = _("Round %(r)d") % {"r": sheet.round}
    if sheet.starts_at:
        round_text += " · " + _("starts %(when)s") % {"when": sheet.starts_at}
    c.setFont(SANS, 11)
    c.drawString(MARGIN + board_w, top - 22, fit(round_text, SANS, 11, width - board_w))
    for offset, seat, player, role in (
        (48, "A", sheet.first, _("plays first")),
        (68, "B", sheet.second, _("plays second")),
    ):
        label = f"{seat} · {role}:"
        name = player.name + (f"  ({player.club})" if player.club else "")
        label_value(c, MARGIN, top - offset, label, name, size=12, width=width)
    details = [_("Time control: %(tc)s") % {"tc": sheet.event.time_control}]
    if sheet.event.rules:
        details.append(_("Rules: %(rules)s") % {"rules": sheet.event.rules})
    c.setFont(SANS, 8.5)
    c.setFillColor(MUTED)
    c.drawString(MARGIN, top - 86, fit(" · ".join(details), SANS, 8.5, width))
    c.setFillColor(colors.black)


def _qr_block(c: Canvas, sheet: BoardSheet, top: float, page_width: float) -> None:
    x = page_width - MARGIN - QR_SIZE
    draw_qr(c, sheet.url, x, top - QR_SIZE + 4, QR_SIZE)
    c.setFont(SANS, 6.5)
    c.setFillColor(MUTED)
    c.drawRightString(x - 4, top - 30, _("Scan: clock and"))
    c.drawRightString(x - 4, top - 39, _("game entry for"))
    c.drawRightString(x - 4, top - 48, _("this board only"))
    c.setFillColor(colors.black)


def _legend(c: Canvas, x: float, y: float) -> None:
    """The six symbols with their colour names on one line, above the diagram."""
    c.setFont(BOLD, 8)
    c.drawString(x, y, _("Colours:"))
    x += 46
    for letter in COLOURS:
        draw_symbol(c, letter, x + 6, y + 3, 6)
        c.setFont(SANS, 8.5)
        label = f"{letter} {colour_name(letter)}"
        c.drawString(x + 15, y, label)
        x += 15 + text_width(label, SANS, 8.5) + 14


def _final_scores(c: Canvas, top: float, width: float) -> None:
    """The grid for the twelve final scores, lowest colour and VP (names are added per sheet)."""
    player_w, end_w = width - 6 * 34 - 2 * 48, 48
    widths = [player_w, *[34] * 6, end_w, end_w]
    xs, ys = grid(c, MARGIN, top, widths, [16, 24, 24], header_rows=1)
    left_text(c, _("Final scores"), xs[0], xs[1], ys[0], ys[1], font=BOLD, size=8.5)
    for i, letter in enumerate(COLOURS):
        symbol_cell(c, letter, xs[i + 1], xs[i + 2], ys[0], ys[1], radius=6)
    centred(c, _("Lowest"), xs[7], xs[8], ys[0], ys[1], font=BOLD, size=8)
    centred(c, _("VP"), xs[8], xs[9], ys[0], ys[1], font=BOLD, size=8)


def _swaps_and_flags(c: Canvas, top: float, width: float) -> None:
    height = SWAPS_H
    c.setLineWidth(0.6)
    c.rect(MARGIN, top - height, width, height)
    c.setFont(BOLD, 8.5)
    c.drawString(MARGIN + 4, top - 11, _("Swaps"))
    c.setFont(SANS, 7.5)
    c.setFillColor(MUTED)
    c.drawString(MARGIN + 40, top - 11, _("seat, after placement no., the tiles shown"))
    split = MARGIN + width * 0.62
    c.drawString(split + 52, top - 11, _("seat, after placement no."))
    c.setFillColor(colors.black)
    c.setFont(BOLD, 8.5)
    c.drawString(split + 4, top - 11, _("Flag fall"))
    c.setStrokeColor(colors.HexColor("#8a94a3"))
    c.setLineWidth(0.4)
    for y in (top - 28, top - 40, top - 52):
        c.line(MARGIN + 4, y, split - 8, y)
    for y in (top - 40, top - 52):
        c.line(split + 4, y, MARGIN + width - 4, y)
    c.line(split, top, split, top - height)
    c.setStrokeColor(colors.black)


def _result_and_signatures(c: Canvas, top: float, width: float) -> None:
    c.setFont(BOLD, 9)
    c.drawString(MARGIN, top - 14, _("Result (A–B):"))
    x = MARGIN + 82
    for label in ("1–0", "½–½", "0–1"):
        x = checkbox(c, x, top - 14, label)
    x = checkbox(c, x + 6, top - 14, _("resigned: seat ___"))
    checkbox(c, x, top - 14, _("forfeit"))
    third = (width - 24) / 3
    for i, label in enumerate((_("Signature A (first)"), _("Signature B (second)"),
                               _("Arbiter"))):
        signature_line(c, MARGIN + i * (third + 12), top - 48, third, label)


@dataclass(frozen=True, slots=True)
class FrontLayout:
    """Where the parts of the front page go; the same for every sheet of a paper size."""

    top: float
    width: float
    legend_y: float
    board_centre: tuple[float, float]
    side: float
    scores_top: float
    swaps_top: float
    result_top: float


def front_layout(size: tuple[float, float]) -> FrontLayout:
    width = size[0] - 2 * MARGIN
    top = size[1] - MARGIN - HEADER_H
    legend_y = top - QR_SIZE - 8
    board_top = legend_y - 8
    board_bottom = MARGIN + 16 + SCORES_H + 8 + SWAPS_H + 10 + RESULT_H
    side = min(24.0, side_for(width, board_top - board_bottom))
    scores_top = board_bottom - 12
    swaps_top = scores_top - SCORES_H - 8
    return FrontLayout(top, width, legend_y, (MARGIN + width / 2, (board_top + board_bottom) / 2),
                       side, scores_top, swaps_top, swaps_top - SWAPS_H - 10)


def _front_form(c: Canvas, info: EventInfo, size: tuple[float, float]) -> None:
    """Everything on the front that does not depend on the board: drawn once per document."""
    layout = front_layout(size)
    _legend(c, MARGIN, layout.legend_y)
    draw_board(c, *layout.board_centre, layout.side)
    _final_scores(c, layout.scores_top, layout.width)
    _swaps_and_flags(c, layout.swaps_top, layout.width)
    _result_and_signatures(c, layout.result_top, layout.width)
    draw_footer(c, info, size)


def _front(c: Canvas, sheet: BoardSheet, size: tuple[float, float]) -> None:
    layout = front_layout(size)
    c.doForm(FRONT_FORM)
    draw_header(c, sheet.event, sheet_title(sheet), size)
    _players_block(c, sheet, layout.top, layout.width - QR_SIZE - 80)
    _qr_block(c, sheet, layout.top, size[0])
    name_w = layout.width - 6 * 34 - 2 * 48
    row = layout.scores_top - 16
    left_text(c, f"A  {sheet.first.name}", MARGIN, MARGIN + name_w, row, row - 24, size=10)
    left_text(c, f"B  {sheet.second.name}", MARGIN, MARGIN + name_w, row - 24, row - 48,
              size=10)


def _back_form(c: Canvas, info: EventInfo, size: tuple[float, float]) -> None:
    """The placement table with its headings and row numbers: drawn once per document."""
    width = size[0] - 2 * MARGIN
    top = size[1] - MARGIN - HEADER_H
    fixed = [22, 26, 40, 70]
    colour_w = (width - sum(fixed)) / 12
    widths = [*fixed, *[colour_w] * 12]
    head_top = top - 12
    available = head_top - 30 - (MARGIN + 22)
    row_h = min(16.0, available / PLACEMENT_ROWS)
    xs, ys = grid(c, MARGIN, head_top, widths, [14, 16] + [row_h] * PLACEMENT_ROWS,
                  header_rows=2, heavy_every=5)
    # The first four headings span both header rows: paint over the rule between them.
    c.setFillColor(BAND)
    c.rect(xs[0] + 0.5, ys[2] + 0.6, xs[4] - xs[0] - 1, ys[0] - ys[2] - 1.2, stroke=0, fill=1)
    c.setStrokeColor(RULE)
    c.setLineWidth(0.4)
    for x in xs[1:4]:
        c.line(x, ys[0], x, ys[2])
    # "Points gained" and "Running total" each span six colour columns: their row has no
    # column rules (the heavy rule between the two blocks is drawn again below)
    c.setFillColor(BAND)
    for left, right in ((xs[4], xs[10]), (xs[10], xs[16])):
        c.rect(left + 0.5, ys[1] + 0.6, right - left - 1, ys[0] - ys[1] - 1.2, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for i, label in enumerate((_("No."), _("Seat"), _("Tile"), _("Cells"))):
        centred(c, label, xs[i], xs[i + 1], ys[0], ys[2], font=BOLD, size=7.5)
    centred(c, _("Points gained"), xs[4], xs[10], ys[0], ys[1], font=BOLD, size=7.5)
    centred(c, _("Running total of that seat"), xs[10], xs[16], ys[0], ys[1], font=BOLD,
            size=7.5)
    c.setLineWidth(1.2)
    c.line(xs[10], ys[0], xs[10], ys[-1])
    for block in (4, 10):
        for i, letter in enumerate(COLOURS):
            symbol_cell(c, letter, xs[block + i], xs[block + i + 1], ys[1], ys[2], radius=5.5)
    for n in range(1, PLACEMENT_ROWS + 1):
        centred(c, str(n), xs[0], xs[1], ys[n + 1], ys[n + 2], font=MONO, size=7,
                colour=MUTED)
    c.setFont(SANS, 7)
    c.setFillColor(MUTED)
    note = _("One row per placement, bonus plays (Ingenious!) included; cells as in the "
             "notation, e.g. f10-f9. Swaps and flags go on the front.")
    c.drawString(MARGIN, ys[-1] - 10, fit(note, SANS, 7, width))
    c.setFillColor(colors.black)
    draw_footer(c, info, size)


def _back(c: Canvas, sheet: BoardSheet, size: tuple[float, float]) -> None:
    c.doForm(BACK_FORM)
    top = draw_header(c, sheet.event, sheet_title(sheet) + " · " + _("placements"), size)
    line = _("A (first): %(a)s   ·   B (second): %(b)s") % {
        "a": sheet.first.name, "b": sheet.second.name}
    c.setFont(SANS, 9)
    c.drawString(MARGIN, top - 4, fit(line, SANS, 9, size[0] - 2 * MARGIN))


def build_scoresheets(sheets: Iterable[BoardSheet], paper: str = "a4") -> bytes:
    """All scoresheets of a round in one PDF: front and back for every board, in board order."""
    size = page_size(paper)
    buffer = BytesIO()
    sheets = list(sheets)
    title = sheet_title(sheets[0]) if sheets else _("Scoresheets")
    c = new_canvas(buffer, size, title)
    if not sheets:
        c.setFont(SANS, 12)
        c.drawString(MARGIN, size[1] / 2, _("This round has no boards to play."))
        c.showPage()
    else:  # what every sheet shares is drawn once, as two PDF form XObjects
        for name, draw in ((FRONT_FORM, _front_form), (BACK_FORM, _back_form)):
            c.beginForm(name)
            draw(c, sheets[0].event, size)
            c.endForm()
    for sheet in sheets:
        _front(c, sheet, size)
        c.showPage()
        _back(c, sheet, size)
        c.showPage()
    c.save()
    return buffer.getvalue()
