"""The crosstable: one row per player, one column per round, totals; landscape.

A small field gets large type so ten players fill one page legibly; a large field runs over
pages with the column headings repeated on each. Cells are plain strings (no paragraphs), which
keeps 300 players × 9 rounds well under a second.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.platypus import Table

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
from tournament.printing.data import CrosstableDoc
from tournament.printing.standings import standings_title


def _round_label(number: int) -> str:
    return _("R%(n)d") % {"n": number}


def build_crosstable(doc: CrosstableDoc, paper: str = "a4") -> bytes:
    size = page_size(paper, wide=True)
    inner = size[0] - 2 * MARGIN
    rounds = max((len(r.cells) for r in doc.rows), default=doc.after_round)
    small = len(doc.rows) <= 16
    font = 12 if small else 9
    row_h = 26 if small else 14
    place_w, vp_w, fs_w = 40, 38, (60 if small else 44)
    cell_w = min(58 if small else 46, (inner - place_w - vp_w - fs_w - 120) / max(rounds, 1))
    name_w = min(240, inner - place_w - vp_w - fs_w - cell_w * rounds)
    header = [_("Place"), _("Name"), *(_round_label(n) for n in range(1, rounds + 1)),
              _("VP"), _("1st–2nd")]
    rows: list[list[str]] = [header]
    for line in doc.rows:
        cells = list(line.cells) + [""] * (rounds - len(line.cells))
        rows.append([line.place, fit(line.name, SANS, font, name_w - 6), *cells, line.vp,
                     f"{line.firsts}–{line.seconds}"])
    last = rounds + 2
    extra = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("FONT", (last, 1), (last, -1), BOLD, font),
        ("LINEBEFORE", (2, 0), (2, -1), 0.6, "black"),
        ("LINEBEFORE", (last, 0), (last, -1), 0.6, "black"),
        ("LINEBEFORE", (3, 0), (last - 1, -1), 0.25, "#8a94a3"),
    ]
    table = Table(rows, colWidths=[place_w, name_w, *[cell_w] * rounds, vp_w, fs_w],
                  rowHeights=[row_h] * len(rows), repeatRows=1,
                  style=table_style(font_size=font, extra=extra), hAlign="LEFT")
    legend = [
        _("Each round: the opponent's place number, <b>f</b> played first or <b>s</b> played "
          "second, then the result (1 win, ½ draw, 0 loss; + or − forfeit won or lost; "
          "bye, abs = absent). 1st–2nd: games played first and second."),
        _("An empty cell: not in the event that round (withdrawn, marked beside the name, or "
          "not yet joined)."),
        *([doc.withdrawn] if doc.withdrawn else []),
    ]
    title = _("Crosstable") + " · " + standings_title(doc.after_round)
    return build_flowing(doc.event, [Section(title, [table])], size, legend=legend)
