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
    """Board, then each side's pairing number, name, rating (when the event has ratings) and
    VP before the round: what an arbiter checks a draw by."""
    rated = any(seat.rating for line in doc.boards for seat in (line.first, line.second) if seat)
    size, row_h = (13, 22) if len(doc.boards) <= 25 else (10.5, 17)
    size -= 1 if rated else 0  # the rating columns take room from the names
    side = [30, 0, *([34] if rated else []), 28]  # No., name, (rating), VP
    name_w = (inner - 52 - 2 * sum(side)) / 2
    side[1] = name_w
    widths = [52, *side, *side]
    header = [pgettext("pairing number, short", "No."), None,
              *([pgettext("rating, short", "Rtg")] if rated else []), _("VP")]

    def cells(seat) -> list[str]:
        return [str(seat.number or ""), fit(seat.name, SANS, size, name_w - 6),
                *([str(seat.rating or "")] if rated else []), seat.vp]

    rows: list[list] = [[_("Board"), *header[:1], _("First"), *header[2:],
                         *header[:1], _("Second"), *header[2:]]]
    byes = []
    for line in doc.boards:
        if line.second is None:
            byes.append(len(rows))
            rows.append(["–", *cells(line.first), "", _("bye"), *[""] * (len(side) - 2)])
        else:
            rows.append([str(line.board), *cells(line.first), *cells(line.second)])
    second_name = 1 + len(side) + 1
    extra = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("FONT", (0, 1), (0, -1), BOLD, size + 1),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("ALIGN", (second_name - 1, 0), (second_name - 1, -1), "RIGHT"),
        ("ALIGN", (3, 0), (len(side), -1), "CENTER"),
        ("ALIGN", (second_name + 1, 0), (-1, -1), "CENTER"),
        ("TEXTCOLOR", (1, 1), (1, -1), colors.HexColor("#5a6470")),
        ("TEXTCOLOR", (second_name - 1, 1), (second_name - 1, -1), colors.HexColor("#5a6470")),
    ]
    for row in byes:
        extra.append(("TEXTCOLOR", (second_name, row), (second_name, row),
                      colors.HexColor("#5a6470")))
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
        if line.not_paired:
            board, opponent, plays = "–", fit(line.not_paired, SANS, size, opp_w - 6), ""
        elif line.board is None:
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
