"""django-tables2 tables of the public pages: values come from cores, formatting lives here."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.templatetags.ingenious import vp


class PairingsTable(tables.Table):
    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "board-no"}})
    first = tables.Column(verbose_name=_("Plays first"))
    first_vp = tables.Column(verbose_name=_("VP"), attrs={"td": {"class": "num"}})
    second = tables.Column(verbose_name=_("Plays second"))
    second_vp = tables.Column(verbose_name=_("VP"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = {"class": "data pairings"}
        orderable = True

    def render_first_vp(self, value):
        return vp(value)

    def render_second_vp(self, value):
        return vp(value)

    def render_second(self, value, record):
        return value if value else format_html("<em>{}</em>", _("bye"))


class PairingsByNameTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "board-no"}})
    opponent = tables.Column(verbose_name=_("Opponent"))
    plays = tables.Column(verbose_name=_("Plays"))

    class Meta:
        attrs = {"class": "data pairings-by-name"}


class ResultsTable(tables.Table):
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


class StandingsTable(tables.Table):
    """Rank, name, VP, then one column per tiebreak of the event (added at construction).

    Cells hold display strings prepared by the view and sort on hidden keys, and no column
    has per-cell attributes or ``render_`` methods: a 300-player table stays fast to render.
    """

    place = tables.Column(verbose_name=_("Rank"), order_by=("rank",))
    name = tables.Column(verbose_name=_("Name"), linkify=lambda record: record["url"])
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
            for tb in tiebreaks
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def value_vp(self, record):
        """Exports carry VP as a number (6.5), the page shows 6½."""
        return float(record["vp_sort"])
