"""Template helpers for showing Ingenious colours, which always travel with their symbols."""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.engine.board import COLOURS
from tournament.printing.data import cell_text
from tournament.texts import formatting

register = template.Library()

#: The standings core's result kinds, named for people (crosstable tooltips).
RESULT_KINDS = {
    "played": _("played"),
    "resigned": _("resignation"),
    "forfeit": _("forfeit"),
    "double_forfeit": _("double forfeit"),
    "decision": _("arbiter decision"),
    "bye": _("bye"),
    "absent": _("absent"),
}

COLOUR_NAMES = {
    "R": _("red"),
    "G": _("green"),
    "B": _("blue"),
    "O": _("orange"),
    "Y": _("yellow"),
    "P": _("purple"),
}


@register.filter
def moment(when) -> str:
    """``{{ when|moment }}``: a date and a 24-hour time, for a sentence."""
    return "" if when is None else formatting.moment(when)


@register.simple_tag
def colour_symbol(letter: str, size: int = 18):
    """An inline SVG of one colour's symbol, with its name for screen readers."""
    letter = str(letter).upper()
    if letter not in COLOUR_NAMES:
        return ""
    return format_html(
        '<svg class="sym" width="{}" height="{}" role="img" aria-label="{}">'
        '<use href="{}#sym-{}"></use></svg>',
        size,
        size,
        COLOUR_NAMES[letter],
        static("img/colours.svg"),
        letter,
    )


@register.inclusion_tag("tournament/colour_bars.html")
def colour_bars(scores, maximum: int = 18):
    """Six small bars, one per colour, for a player's scores in one game (each an SVG whose
    rectangle's geometry is markup: the Content-Security-Policy refuses style attributes)."""
    if not scores:
        return {"bars": []}
    if isinstance(scores, dict):
        values = [(c, int(scores.get(c, 0))) for c in COLOURS]
    else:
        values = list(zip(COLOURS, (int(v) for v in scores), strict=False))
    return {
        "maximum": maximum,
        "bars": [
            {"letter": c, "value": v, "rest": maximum - min(max(v, 0), maximum)}
            for c, v in values
        ],
    }


register.filter("vp", formatting.vp)
register.filter("signed", formatting.signed)


@register.filter
def lowest_summary(result) -> str:
    """``12 (+3) – 9 (−3)``: both lowest levels with the lowest-colour difference."""
    if not result:
        return ""
    return formatting.lowest_text(result.first_scores, result.second_scores)


@register.filter
def crosstable_cell(cell) -> str:
    """A crosstable cell in the page's language, the same text as the printed crosstable."""
    return cell_text(cell)


@register.filter
def result_kind(kind) -> str:
    """The translated name of a crosstable cell's result kind (its tooltip)."""
    return str(RESULT_KINDS.get(str(kind), kind)) if kind else ""


@register.filter
def bdi(value) -> str:
    """``value`` (a name, a player) isolated in ``<bdi>``: whatever its direction (an Arabic
    or Hebrew name) or stored text from before the invisible characters were refused
    (``validation.one_line``), it cannot reorder the sentence around it ("board 3, against
    NAME, you play first"). Works inside ``blocktranslate with``: the message stays the same.
    """
    return format_html("<bdi>{}</bdi>", value)


register.filter("source_text", formatting.source_text)
