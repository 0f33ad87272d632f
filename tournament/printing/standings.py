"""Standings after a round: place, name, club, VP and every tiebreak of the event, in order.

Each page ends with one line per tiebreak saying what it measures, so a printout on the wall
answers "why is she above me?" without the arbiter. More than five tiebreaks turn the page to
landscape so the name column keeps its width.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
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
from tournament.printing.data import StandingsDoc

TB_WIDTH = 44.0


def standings_title(after_round: int) -> str:
    if after_round == 0:
        return _("Standings before round 1")
    return _("Standings after round %(n)d") % {"n": after_round}


def build_standings(doc: StandingsDoc, paper: str = "a4") -> bytes:
    size = page_size(paper, wide=len(doc.columns) > 5)
    inner = size[0] - 2 * MARGIN
    font = 9.5 if len(doc.rows) > 40 else 10.5
    fixed = 40 + 36 + TB_WIDTH * len(doc.columns)
    name_w = (inner - fixed) * 0.62
    club_w = inner - fixed - name_w
    header = [_("Place"), _("Name"), _("Club"), _("VP"), *(c.label for c in doc.columns)]
    rows: list[list[str]] = [header]
    for line in doc.rows:
        rows.append([
            line.place, fit(line.name, SANS, font, name_w - 6),
            fit(line.club, SANS, font - 1.5, club_w - 6), line.vp, *line.tiebreaks,
        ])
    extra = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("FONT", (3, 1), (3, -1), BOLD, font),
        ("FONT", (2, 1), (2, -1), SANS, font - 1.5),
    ]
    row_h = font + 6
    table = Table(rows, colWidths=[40, name_w, club_w, 36, *[TB_WIDTH] * len(doc.columns)],
                  rowHeights=[row_h + 2] + [row_h] * len(doc.rows), repeatRows=1,
                  style=table_style(font_size=font, extra=extra))
    legend = [f"<b>{c.label}</b>: {c.definition}" for c in doc.columns]
    legend.extend(doc.notes)
    legend.append(_("In every tiebreak column higher is better. Places shared after every "
                    "tiebreak are shown as a range, e.g. 3–4."))
    if doc.withdrawn:
        legend.append(doc.withdrawn)
    return build_flowing(doc.event, [Section(standings_title(doc.after_round),
                                             [table, *_decisions(doc, inner)])], size,
                         legend=legend)


def _decisions(doc: StandingsDoc, inner: float) -> list:
    """Under the table: for each place decided within equal VP, the criterion and values (a
    column shows only a colour criterion's lowest colour; ties often fall on a later one)."""
    if not doc.decisions:
        return []
    font = 9
    place_w, name_w = 40, inner * 0.3
    rows: list[list[str]] = [["", _("Decided by"), ""]]
    for place, name, why in doc.decisions:
        rows.append([place, fit(name, SANS, font, name_w - 6),
                     fit(why, SANS, font, inner - place_w - name_w - 6)])
    return [Spacer(1, 8), Table(rows, colWidths=[place_w, name_w, inner - place_w - name_w],
                                repeatRows=1, style=table_style(font_size=font, extra=[
                                    ("ALIGN", (0, 0), (0, -1), "CENTER")]))]
