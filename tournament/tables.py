"""django-tables2 tables of the public pages: values come from cores, formatting lives here.

Every table exports to CSV and XLSX (``?_export=``) through :class:`ExportTable`, whose
cells are inert in a spreadsheet: see :func:`inert_cell`.
"""

from __future__ import annotations

import re
from decimal import Decimal

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.texts import tiebreak_texts
from tournament.texts.formatting import vp

# A plain number, as the standings write it: ``+12``, ``-3``, ``−3`` (U+2212), ``6.5``, ``3½``,
# ``½``.
_NUMBER = re.compile(r"^([+\-\u2212]?)(?=[\d½¼¾])(\d*)(?:\.(\d+)|([½¼¾]))?$")
_FRACTIONS = {"½": Decimal("0.5"), "¼": Decimal("0.25"), "¾": Decimal("0.75")}
# What a spreadsheet would evaluate at the start of a cell (OWASP's list: formula signs, DDE
# through @, and tab / carriage return, which some programs strip before parsing).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value):
    """One exported cell, made safe to open in a spreadsheet (CSV injection, OWASP rule).

    Numbers stay numbers; text that is a plain number (a tiebreak's ``+12`` or ``−3``, a
    score ``3½``) becomes that number, so it still sorts and sums and no formula can hide in
    it; any other text starting with ``= + - @``, a tab or a carriage return gets a leading
    single quote, which shows it as the text it is, in CSV and XLSX alike.

    >>> inert_cell('=HYPERLINK("http://evil.example","x")')[:12]
    "'=HYPERLINK("
    >>> inert_cell("+12"), inert_cell("\u22123"), inert_cell("3½"), inert_cell("-2+3")
    (12, -3, 3.5, "'-2+3")
    """
    if not isinstance(value, str):
        return value
    match = _NUMBER.match(value)
    if match:
        sign, whole, decimals, glyph = match.groups()
        number = Decimal(f"{whole or 0}.{decimals or 0}") + _FRACTIONS.get(glyph, 0)
        number = -number if sign in ("-", "\u2212") else number
        return int(number) if number == number.to_integral_value() else float(number)
    if value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


class ExportTable(tables.Table):
    """A table whose exported values (header row included) pass through :func:`inert_cell`."""

    def as_values(self, exclude_columns=None):
        for row in super().as_values(exclude_columns=exclude_columns):
            yield [inert_cell(cell) for cell in row]


class PairingsTable(ExportTable):
    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "board-no"}})
    first = tables.Column(verbose_name=_("Plays first"))
    first_vp = tables.Column(verbose_name=_("VP"), attrs={"td": {"class": "num"}})
    second = tables.Column(verbose_name=_("Plays second"))
    second_vp = tables.Column(verbose_name=_("VP"), attrs={"td": {"class": "num"}})
    # A board's public page another app keeps (the spectators' page of an online game).
    page = tables.Column(verbose_name="", orderable=False, default="", exclude_from_export=True)

    class Meta:
        attrs = {"class": "data pairings"}
        orderable = True

    def render_first_vp(self, value):
        return vp(value)

    def render_second_vp(self, value):
        return vp(value)

    def render_page(self, value):
        return format_html('<a href="{}">{}</a>', value.url, value.label)

    def render_first(self, value, record):
        return _with_seat_link(value, record.get("first_link"))

    def render_second(self, value, record):
        if not value:
            return format_html("<em>{}</em>", _("bye"))
        return _with_seat_link(value, record.get("second_link"))

    def value_first(self, value):
        return value

    def value_second(self, value):
        return value or _("bye")


def _with_seat_link(name: str, link) -> str:
    """A player's name, with their personal link for the arbiters (rows carry it only then)."""
    if link is None:
        return name
    return format_html('{} <a class="seat-link" href="{}">{}</a>', name, link.url,
                       _("Personal link"))


class PairingsByNameTable(ExportTable):
    # Sorted by the rows' ``sort_name`` (``formatting.name_key``), as the PDF sorts: plain
    # string order would put "adam" after "Zed" and "Émile" after both.
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "board-no"}})
    opponent = tables.Column(verbose_name=_("Opponent"))
    plays = tables.Column(verbose_name=_("Plays"))

    class Meta:
        attrs = {"class": "data pairings-by-name"}


class ResultsTable(ExportTable):
    board = tables.Column(verbose_name=_("Board"))
    first = tables.Column(verbose_name=_("First"))
    result = tables.Column(verbose_name=_("Result"), orderable=False)
    second = tables.Column(verbose_name=_("Second"))
    lowest = tables.Column(verbose_name=_("Lowest levels (difference)"), orderable=False)
    kind = tables.Column(verbose_name=_("Kind"))
    game = tables.Column(verbose_name=_("Game"), orderable=False, empty_values=("", None),
                         linkify=lambda record: record["game"])

    class Meta:
        attrs = {"class": "data results"}

    def render_game(self, value):
        return _("view")


class StandingsTable(ExportTable):
    """Rank, name, VP, then one column per tiebreak of the event (added at construction).

    Cells hold display strings prepared by the view and sort on hidden keys, and no column
    has per-cell attributes; only the name (a withdrawn player's mark) and the place (a
    shared place's line break) have ``render_`` methods: a 300-player table stays fast.
    """

    place = tables.Column(verbose_name=_("Rank"), order_by=("rank",))
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"))
    vp = tables.Column(verbose_name=_("VP"), order_by=("vp_sort",))
    games = tables.Column(verbose_name=_("Games"))

    class Meta:
        attrs = {"class": "data standings"}
        order_by = ("place",)

    def __init__(self, data, tiebreaks, **kwargs):
        extra = [
            (f"tb_{tb.key}", tables.Column(
                verbose_name=tb.label, attrs={"th": {"title": tb.definition}},
                order_by=(f"tb_{tb.key}_sort",),
            ))
            for tb in tiebreak_texts.texts(tiebreaks)
        ]
        # Last: for a row below another with equal VP, the criterion and values that put it
        # there (prepared by the view as a <details> element; plain text in exports).
        extra.append(("decided", tables.Column(
            verbose_name=_("Decided by"), orderable=False, default="",
            attrs={"th": {"title": _("Why a player with the same VP as the one above stands "
                                     "lower: the first tiebreak that differs")}})))
        super().__init__(data, extra_columns=extra, **kwargs)

    def value_decided(self, record):
        return record.get("decided_text", "")

    def render_place(self, value):
        """A shared place ("12–13") may break after its dash: on a phone the rank column is
        narrow, and a cut "1…" would hide the place (exports keep it whole: ``value_place``)."""
        first, dash, last = str(value).partition("–")
        return format_html("{}{}<wbr>{}", first, dash, last) if dash else value

    def value_place(self, value):
        return value

    def render_name(self, value, record):
        """The name, linked, and for a withdrawn player when they left (exports keep the name
        alone: ``value_name``)."""
        link = format_html('<a href="{}">{}</a>', record["url"], value)
        if record.get("withdrawn") is None:
            return link
        return format_html('{} <span class="muted withdrawn">{}</span>', link,
                           _("withdrawn after round %(r)d") % {"r": record["withdrawn"]})

    def value_name(self, value, record):
        return value

    def value_vp(self, record):
        """Exports carry VP as a number (6.5), the page shows 6½."""
        return float(record["vp_sort"])
