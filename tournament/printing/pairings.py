"""Pairings of a round: by board (for the arbiter and the tables) and by name (for players).

Players look for their own name, so the second list is alphabetical with the board number in
large type (ux.md); the first follows the board order the pairing engine produced.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.platypus import Spacer, Table

from tournament.printing.common import (
    BOLD,
    MARGIN,
    SANS,
    Section,
    build_flowing,
    fit,
    page_size,
    table_style,
)
from tournament.printing.data import PairingsDoc


def _by_board(doc: PairingsDoc, inner: float) -> Table:
    size, row_h = (13, 22) if len(doc.boards) <= 25 else (10.5, 17)
    widths = [56, 0, 38, 0, 38]
    name_w = (inner - sum(widths)) / 2
    widths[1] = widths[3] = name_w
    rows: list[list] = [[_("Board"), _("First"), _("VP"), _("Second"), _("VP")]]
    byes = []
    for line in doc.boards:
        first = fit(line.first.name, SANS, size, name_w - 6)
        if line.second is None:
            byes.append(len(rows))
            rows.append(["–", first, line.first.vp, _("bye"), ""])
        else:
            rows.append([str(line.board), first, line.first.vp,
                         fit(line.second.name, SANS, size, name_w - 6), line.second.vp])
    extra = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("FONT", (0, 1), (0, -1), BOLD, size + 1),
        ("ALIGN", (2, 0), (2, -1), "CENTER"),
        ("ALIGN", (4, 0), (4, -1), "CENTER"),
    ]
    for row in byes:
        extra.append(("TEXTCOLOR", (3, row), (3, row), colors.HexColor("#5a6470")))
    return Table(rows, colWidths=widths, rowHeights=[size + 6] + [row_h] * (len(rows) - 1),
                 repeatRows=1, style=table_style(font_size=size, extra=extra))


def _by_name(doc: PairingsDoc, inner: float) -> Table:
    lines = doc.by_name()
    size, board_size, row_h = (12, 18, 25) if len(lines) <= 40 else (10, 15, 20)
    board_w, plays_w = 54, 66
    name_w = (inner - board_w - plays_w) * 0.42
    club_w = (inner - board_w - plays_w) * 0.18
    opp_w = inner - board_w - plays_w - name_w - club_w
    rows: list[list] = [[_("Name"), _("Club"), _("Board"), _("Opponent"), _("Plays")]]
    for line in lines:
        if line.board is None:
            board, opponent, plays = "–", _("bye"), ""
        else:
            board = str(line.board)
            opponent = fit(line.opponent or "", SANS, size, opp_w - 6)
            plays = (pgettext("plays first", "first") if line.first
                     else pgettext("plays second", "second"))
        rows.append([fit(line.name, BOLD, size, name_w - 6),
                     fit(line.club, SANS, size - 2, club_w - 6), board, opponent, plays])
    extra = [
        ("FONT", (0, 1), (0, -1), BOLD, size),
        ("FONT", (1, 1), (1, -1), SANS, size - 2),
        ("TEXTCOLOR", (1, 1), (1, -1), colors.HexColor("#5a6470")),
        ("FONT", (2, 1), (2, -1), BOLD, board_size),
        ("ALIGN", (2, 0), (2, -1), "CENTER"),
    ]
    return Table(rows, colWidths=[name_w, club_w, board_w, opp_w, plays_w],
                 rowHeights=[size + 6] + [row_h] * (len(rows) - 1), repeatRows=1,
                 style=table_style(font_size=size, extra=extra))


def _not_paired(doc: PairingsDoc, inner: float) -> list:
    """Who is on no board and why, under the boards (as chess arbiters print it)."""
    if not doc.not_paired:
        return []
    size = 11
    rows: list[list] = [[_("Not paired in round %(n)d") % {"n": doc.round}, ""]]
    name_w = inner * 0.45
    for name, why in doc.not_paired:
        rows.append([fit(name, SANS, size, name_w - 6), fit(why, SANS, size, inner - name_w - 6)])
    return [Spacer(1, 10), Table(rows, colWidths=[name_w, inner - name_w], repeatRows=1,
                                 style=table_style(font_size=size))]


def build_pairings(doc: PairingsDoc, paper: str = "a4") -> bytes:
    """The round's pairings: first by board, then (from a new page) alphabetically by name."""
    size = page_size(paper)
    inner = size[0] - 2 * MARGIN
    title = _("Pairings round %(n)d") % {"n": doc.round}
    sections = [
        Section(f"{title} · " + _("by board"), [_by_board(doc, inner), *_not_paired(doc, inner)]),
        Section(f"{title} · " + _("by name"), [Spacer(1, 2), _by_name(doc, inner)]),
    ]
    return build_flowing(doc.event, sections, size)
