"""The record of a round, for the arbiter's files: every decision with its reason.

A dispute is settled at the desk, but it is read again later (an appeal, the next event's
arbiter, a rating officer): so the record prints what the pages show one board at a time, for
the whole round at once: what paired it, who was on no board and why, each board's result
versions (where each came from, who entered it, when, its reason, and who accepted or
dismissed it and why) and its clock's log (pauses, adjustments, device handovers, time given
back, with the arbiter's reasons).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table

from tournament.printing.common import (
    BOLD,
    MARGIN,
    MUTED,
    SANS,
    Section,
    build_flowing,
    markup,
    page_size,
    table_style,
)
from tournament.printing.data import BoardRecord, RecordDoc

SIZE = 7.5
_CELL = ParagraphStyle("record-cell", fontName=SANS, fontSize=SIZE, leading=SIZE * 1.2)
_HEAD = ParagraphStyle("record-board", fontName=BOLD, fontSize=10, leading=13, spaceBefore=8,
                       spaceAfter=2)
_NOTE = ParagraphStyle("record-note", fontName=SANS, fontSize=8.5, leading=11, textColor=MUTED)


def _cell(text: str) -> Paragraph:
    """A table cell that wraps (reasons and log lines run long), markup-safe."""
    return Paragraph(markup(escape(text)), _CELL)


def _versions(record: BoardRecord, inner: float) -> Table:
    widths = [14, 52, 28, 66, 62, 60, 66]
    widths.append(inner - sum(widths))
    rows: list[list] = [["v", _("Status"), _("VP"), _("Lowest colour"), _("Source"), _("Who"),
                         _("When"), _("Reasons")]]
    for line in record.versions:
        rows.append([str(line.version), _cell(line.status), line.vp, _cell(line.lowest),
                     _cell(line.source), _cell(line.who), line.when,
                     _cell(" · ".join(line.reasons))])
    return Table(rows, colWidths=widths, repeatRows=1, style=table_style(
        font_size=SIZE, extra=[("VALIGN", (0, 0), (-1, -1), "TOP")]))


def _clock(record: BoardRecord, inner: float) -> Table:
    widths = [66, 70, inner * 0.42]
    widths.append(inner - sum(widths))
    rows: list[list] = [[_("When"), _("Who"), _("The clock's log"), _("Why")]]
    rows += [[when, _cell(who), _cell(what), _cell(why)] for when, who, what, why in record.clock]
    return Table(rows, colWidths=widths, repeatRows=1, style=table_style(
        font_size=SIZE, extra=[("VALIGN", (0, 0), (-1, -1), "TOP")]))


def _board(record: BoardRecord, inner: float) -> list:
    title = (_("Board %(n)d: %(players)s") % {"n": record.board, "players": record.players}
             if record.board is not None else record.players)
    head = Paragraph(markup(escape(title), BOLD), _HEAD)
    body = [_versions(record, inner)] if record.versions else [
        Paragraph(markup(escape(_("No result yet."))), _NOTE)]
    if record.clock:
        body += [Spacer(1, 3), _clock(record, inner)]
    # the heading and the versions stay on one page; a long clock log may run on
    return [KeepTogether([head, body[0]]), *body[1:]]


def build_round_record(doc: RecordDoc, paper: str = "a4") -> bytes:
    size = page_size(paper)
    inner = size[0] - 2 * MARGIN
    flowables: list = []
    if doc.paired_by:
        flowables.append(Paragraph(markup(escape(doc.paired_by)), _NOTE))
    if doc.not_paired:
        flowables.append(Paragraph(markup(escape(_("Not paired in round %(n)d") % {
            "n": doc.round}), BOLD), _HEAD))
        flowables += [Paragraph(markup(escape(f"{name}: {why}")), _NOTE)
                      for name, why in doc.not_paired]
    for record in doc.boards:
        flowables += _board(record, inner)
    title = _("Record of round %(n)d") % {"n": doc.round}
    return build_flowing(doc.event, [Section(title, [Spacer(1, 2), *flowables])], size)
