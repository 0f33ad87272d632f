"""What every printed document shares: fonts, paper, page header and footer, colour symbols.

Fonts: DejaVu (Latin, Cyrillic, Greek, accents) for everything it can draw, Nanum Gothic for
the characters only it has (Hangul). The choice is made per run of characters in one place,
:func:`runs`: :func:`fit` and :func:`text_width` measure with it, :class:`TextCanvas` draws
with it and :func:`markup` hands it to paragraphs, so table cells, headers and the hand-drawn
forms all follow it without knowing. Both fonts ship in tournament/printing/fonts, not among
the static files: no page loads them, and collecting and compressing their 11 MB took most of
``collectstatic``'s time. No system font is used.

The builders (pairings, standings, …) take plain data and return PDF bytes; this module keeps
their look consistent so that a wall of printouts reads as one set: the event's name and date
at the top of every page, "page N of M" at the bottom, the same table style, and the six
colours always drawn with their symbols (so a black-and-white copy still tells them apart).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from io import BytesIO
from pathlib import Path

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    TableStyle,
)

from games.engine.board import COLOURS
from tournament.printing.data import EventInfo, PrintError

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SANS, BOLD, MONO = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono"
HANGUL, HANGUL_BOLD = "NanumGothic", "NanumGothic-Bold"
#: The wide-coverage stand-in for each house font, for texts the house font cannot draw.
STAND_IN = {SANS: HANGUL, BOLD: HANGUL_BOLD, MONO: HANGUL}
PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 36.0
HEADER_H = 46.0

#: The same inks as the web pages (static/css/site.css), so screen and paper agree.
INK = {
    "R": colors.HexColor("#d62828"),
    "G": colors.HexColor("#2a9d3f"),
    "B": colors.HexColor("#1d5fd1"),
    "O": colors.HexColor("#f08a00"),
    "Y": colors.HexColor("#f5d000"),
    "P": colors.HexColor("#7b2cbf"),
}
BAND = colors.HexColor("#eef1f5")
RULE = colors.HexColor("#8a94a3")
MUTED = colors.HexColor("#5a6470")


@lru_cache(maxsize=1)
def register_fonts() -> None:
    """Register the shipped TTFs once; TTFonts are subset and embedded in every PDF.

    The PDF base-14 fonts are not embedded and lack ½, −, Cyrillic, Hangul and the accented
    names of players from everywhere, so every document uses these. Registered by the first
    measure or canvas that needs them, not when the module is imported: reading the five
    files is a fifth of a second of every server's start (a restart is downtime), and most
    servers print nothing.
    """
    for name, file in ((SANS, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf"),
                       (MONO, "DejaVuSansMono.ttf"), (HANGUL, "NanumGothic.ttf"),
                       (HANGUL_BOLD, "NanumGothicBold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=BOLD, italic=SANS, boldItalic=BOLD)
    pdfmetrics.registerFontFamily(HANGUL, normal=HANGUL, bold=HANGUL_BOLD, italic=HANGUL,
                                  boldItalic=HANGUL_BOLD)


@lru_cache(maxsize=8)
def _covered(font: str) -> frozenset[int]:
    register_fonts()
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


@lru_cache(maxsize=8192)
def runs(text: str, font: str = SANS) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (piece, font) runs: ``font`` (regular, bold or mono) where it has the
    glyphs, its stand-in (Nanum Gothic) for the characters only the stand-in has (Hangul).

    "Kim 김민준 (Öst)" is three runs: DejaVu, Nanum, DejaVu; each script in a font that draws
    it. Spaces stay with the run before them, so a Korean sentence is one run per word at most.
    """
    stand_in = STAND_IN.get(font)
    if stand_in is None or text.isascii():
        return ((text, font),)
    own, other = _covered(font), _covered(stand_in)
    out: list[list[str]] = []
    for char in text:
        if out and char.isspace():
            out[-1][0] += char
            continue
        code = ord(char)
        chosen = stand_in if code not in own and code in other and char.isprintable() else font
        if out and out[-1][1] == chosen:
            out[-1][0] += char
        else:
            out.append([char, chosen])
    return tuple((piece, chosen) for piece, chosen in out) or (("", font),)


def text_width(text: str, font: str, size: float) -> float:
    """The width of ``text`` in points as it will be drawn (see :func:`runs`)."""
    register_fonts()
    return sum(stringWidth(piece, chosen, size) for piece, chosen in runs(text, font))


def markup(line: str, font: str = SANS) -> str:
    """Paragraph markup of ``line`` with its stand-in runs in ``<font face=…>`` (``<b>`` kept)."""
    return "".join(piece if chosen == font else f'<font face="{chosen}">{piece}</font>'
                   for piece, chosen in runs(line, font))


def page_size(paper: str, *, wide: bool = False) -> tuple[float, float]:
    """The page size for ``a4`` or ``letter``, turned to landscape when ``wide``."""
    try:
        size = PAPERS[paper]
    except KeyError:
        raise PrintError(
            _("Unknown paper %(paper)r; choose one of: %(valid)s.")
            % {"paper": paper, "valid": ", ".join(PAPERS)}
        ) from None
    return landscape(size) if wide else size


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` points (long names must not overlap).

    One pass over the characters, adding their widths: the time grows with the length of the
    text, not with its square (a 100,000-character name once took minutes per page). Measured
    in the fonts the text will be drawn in (:func:`runs`).
    """
    if text_width(text, font, size) <= width:
        return text
    room = width - stringWidth("…", font, size)
    used, index = 0.0, 0
    for piece, chosen in runs(text, font):
        for char in piece:
            used += stringWidth(char, chosen, size)
            if used > room:
                return text[:index].rstrip() + "…"
            index += 1
    return text


# --- colour symbols ------------------------------------------------------------------------


def _star(points: int, outer: float, inner: float,
          phase: float = 90.0) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(phase + i * 180.0 / points)
        out.append((radius * math.cos(angle), radius * math.sin(angle)))
    return out


def _polygon(c: pdfcanvas.Canvas, cx: float, cy: float, pts: Sequence[tuple[float, float]]) -> None:
    path = c.beginPath()
    path.moveTo(cx + pts[0][0], cy + pts[0][1])
    for x, y in pts[1:]:
        path.lineTo(cx + x, cy + y)
    path.close()
    c.drawPath(path, fill=1, stroke=1)


def draw_symbol(c: pdfcanvas.Canvas, letter: str, cx: float, cy: float, radius: float) -> None:
    """Draw one colour's symbol centred on (cx, cy): its shape says the colour without ink.

    red 12-pointed star, green disc, blue 6-pointed star, orange hexagon, yellow 24-pointed star,
    purple ring; every shape has a black outline so it survives a monochrome copier.
    """
    if letter not in INK:
        raise ValueError(f"unknown colour {letter!r}; expected one of {COLOURS}")
    c.saveState()
    c.setFillColor(INK[letter])
    c.setStrokeColor(colors.black)
    c.setLineWidth(max(0.3, radius * 0.07))
    if letter == "R":
        _polygon(c, cx, cy, _star(12, radius, radius * 0.62))
    elif letter == "G":
        c.circle(cx, cy, radius * 0.88, stroke=1, fill=1)
    elif letter == "B":
        _polygon(c, cx, cy, _star(6, radius, radius * 0.577))
    elif letter == "O":
        _polygon(c, cx, cy, [
            (radius * 0.9 * math.cos(math.radians(90 + 60 * i)),
             radius * 0.9 * math.sin(math.radians(90 + 60 * i))) for i in range(6)
        ])
    elif letter == "Y":
        _polygon(c, cx, cy, _star(24, radius, radius * 0.74))
    elif letter == "P":
        path = c.beginPath()
        path.circle(cx, cy, radius * 0.9)
        path.circle(cx, cy, radius * 0.5)
        c.drawPath(path, fill=1, stroke=1, fillMode=pdfcanvas.FILL_EVEN_ODD)
    c.restoreState()


# --- pages ---------------------------------------------------------------------------------


class TextCanvas(pdfcanvas.Canvas):
    """A canvas that draws every string run by run, each in a font that has its glyphs.

    Table cells, headers and form labels all reach the page through these three methods, so a
    Korean title or a Hangul name comes out right whatever font the caller set (see
    :func:`runs`); the caller's font is set again afterwards.
    """

    def _draw_runs(self, x: float, y: float, text: str, **kwargs) -> None:
        pieces = runs(str(text), self._fontname)
        if len(pieces) == 1 and pieces[0][1] == self._fontname:
            super().drawString(x, y, text, **kwargs)
            return
        font, size, leading = self._fontname, self._fontsize, self._leading
        for piece, chosen in pieces:
            self.setFont(chosen, size, leading)
            super().drawString(x, y, piece, **kwargs)
            x += stringWidth(piece, chosen, size)
        self.setFont(font, size, leading)

    def drawString(self, x, y, text, **kwargs):
        self._draw_runs(x, y, text, **kwargs)

    def drawRightString(self, x, y, text, **kwargs):
        self._draw_runs(x - text_width(str(text), self._fontname, self._fontsize), y, text,
                        **kwargs)

    def drawCentredString(self, x, y, text, **kwargs):
        width = text_width(str(text), self._fontname, self._fontsize)
        self._draw_runs(x - width / 2, y, text, **kwargs)


class NumberedCanvas(TextCanvas):
    """A canvas that writes "page N of M" on every page once M is known (at save time)."""

    def __init__(self, *args, page_label: Callable[[int, int], str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._saved_pages: list[dict] = []
        self._page_label = page_label

    def showPage(self) -> None:
        self._saved_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._saved_pages)
        for number, state in enumerate(self._saved_pages, start=1):
            self.__dict__.update(state)
            width = self._pagesize[0]
            self.setFont(SANS, 7.5)
            self.setFillColor(MUTED)
            self.drawRightString(width - MARGIN, MARGIN - 14, self._page_label(number, total))
            super().showPage()
        super().save()


def page_label(number: int, total: int) -> str:
    return _("page %(n)d of %(m)d") % {"n": number, "m": total}


def new_canvas(buffer: BytesIO, size: tuple[float, float], title: str) -> NumberedCanvas:
    """A numbered canvas for documents drawn directly (scoresheets, slips)."""
    register_fonts()
    c = NumberedCanvas(buffer, pagesize=size, page_label=page_label, invariant=1)
    c.setTitle(title)
    c.setCreator("Ingenious TD")
    return c


def draw_header(c: pdfcanvas.Canvas, info: EventInfo, title: str, size: tuple[float, float]
                ) -> float:
    """Event name, date and venue, the document's title and a rule; returns the y below it."""
    width, height = size
    top = height - MARGIN
    c.saveState()
    c.setFillColor(colors.black)
    c.setFont(BOLD, 13)
    right = info.dates if not info.venue else f"{info.dates} · {info.venue}".strip(" ·")
    c.setFont(SANS, 9)
    right_w = text_width(right, SANS, 9)
    c.drawRightString(width - MARGIN, top - 10, right)
    c.setFont(BOLD, 13)
    c.drawString(MARGIN, top - 11, fit(info.name, BOLD, 13, width - 2 * MARGIN - right_w - 12))
    c.setFont(BOLD, 11)
    c.drawString(MARGIN, top - 28, fit(title, BOLD, 11, width - 2 * MARGIN))
    c.setStrokeColor(RULE)
    c.setLineWidth(0.6)
    c.line(MARGIN, top - 34, width - MARGIN, top - 34)
    c.restoreState()
    return top - HEADER_H


def draw_footer(c: pdfcanvas.Canvas, info: EventInfo, size: tuple[float, float]) -> None:
    """The stamp (when printed) left; the page number is added by ``NumberedCanvas``."""
    c.saveState()
    c.setStrokeColor(RULE)
    c.setLineWidth(0.4)
    c.line(MARGIN, MARGIN - 4, size[0] - MARGIN, MARGIN - 4)
    c.setFont(SANS, 7.5)
    c.setFillColor(MUTED)
    c.drawString(MARGIN, MARGIN - 14, info.stamp)
    c.restoreState()


# --- flowing documents (tables that run over pages) ---------------------------------------


@dataclass(frozen=True, slots=True)
class Section:
    """A part of a flowing document with its own page title (pairings by board / by name)."""

    title: str
    flowables: list


def legend_paragraphs(lines: Sequence[str], size: float = 7.0) -> list[Paragraph]:
    """One paragraph per line (``<b>`` allowed), Hangul in the stand-in font (:func:`markup`)."""
    style = ParagraphStyle("legend", fontName=SANS, fontSize=size, leading=size * 1.25,
                           textColor=MUTED)
    return [Paragraph(markup(line), style) for line in lines]


def build_flowing(info: EventInfo, sections: Sequence[Section], size: tuple[float, float],
                  *, legend: Sequence[str] = ()) -> bytes:
    """Lay out sections of flowables on pages with the shared header, footer and legend.

    ``legend`` lines (tiebreak definitions, how to read a crosstable cell) are printed at the
    foot of every page: a sheet pinned on a wall must explain itself on its own.
    """
    register_fonts()
    width, height = size
    inner = width - 2 * MARGIN
    paragraphs = legend_paragraphs(legend)
    legend_h = sum(p.wrap(inner, height)[1] for p in paragraphs) + (6 if paragraphs else 0)

    def decorate(title: str, c: pdfcanvas.Canvas, _doc) -> None:
        draw_header(c, info, title, size)
        draw_footer(c, info, size)
        y = MARGIN + legend_h - 2
        for p in paragraphs:
            _w, h = p.wrap(inner, height)
            p.drawOn(c, MARGIN, y - h)
            y -= h

    bottom = MARGIN + legend_h
    frame_h = height - MARGIN - HEADER_H - bottom
    templates, story = [], []
    for index, section in enumerate(sections):
        frame = Frame(MARGIN, bottom, inner, frame_h, id=f"f{index}",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        templates.append(PageTemplate(id=f"s{index}", frames=[frame],
                                      onPage=partial(decorate, section.title)))
        if index:
            story += [NextPageTemplate(f"s{index}"), PageBreak()]
        story += section.flowables
    buffer = BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN,
                          topMargin=MARGIN, bottomMargin=MARGIN, title=sections[0].title,
                          author=info.name, creator="Ingenious TD", invariant=1)
    doc.addPageTemplates(templates)
    doc.build(story, canvasmaker=partial(NumberedCanvas, page_label=page_label))
    return buffer.getvalue()


def table_style(*, font_size: float, header_rows: int = 1, extra: Sequence = ()) -> TableStyle:
    """The house table: bold header on a band, thin rules, zebra rows for following a line."""
    return TableStyle([
        ("FONT", (0, 0), (-1, -1), SANS, font_size),
        ("FONT", (0, 0), (-1, header_rows - 1), BOLD, font_size),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), BAND),
        ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, colors.black),
        ("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, colors.HexColor("#f7f8fa")]),
        ("LINEBELOW", (0, header_rows), (-1, -1), 0.25, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        *extra,
    ])
