"""The tiebreaks' labels and definitions, translated: the shell's words for the core's criteria.

The standings core stays free of Django, so its ``Tiebreak.label`` and ``definition`` are
plain English. Every page, form and PDF that names a tiebreak takes its words from here
instead, by the criterion's key; the English strings are the core's, word for word (a test
keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.standings import Decision, Tiebreak, format_points
from tournament.standings.display import format_signed


@dataclass(frozen=True, slots=True)
class TiebreakText:
    """A criterion as people read it: its key, a short column label and a one-line definition."""

    key: str
    label: str | Promise
    definition: str | Promise


_TEXTS = {
    text.key: text
    for text in (
        TiebreakText(
            "head_to_head", pgettext_lazy("tiebreak column: head to head", "H2H"),
            _("Results between the tied players: one who beat all the others ranks first (+), "
              "one who lost to all of them ranks last (−); applied once."),
        ),
        TiebreakText(
            "head_to_head_table",
            pgettext_lazy("tiebreak column: head to head as a table", "H2H-T"),
            _("Results between the tied players as a table: the VP each scored against the "
              "other tied players, when every two of them met (otherwise it separates "
              "nobody)."),
        ),
        TiebreakText(
            "lowest_colour_difference",
            pgettext_lazy("tiebreak column: lowest colour difference", "Diff"),
            _("Sum over the rounds of own lowest colour minus the opponent's lowest (an "
              "unplayed round as the event's rule says); if equal, the same for the "
              "second-lowest, and so on."),
        ),
        TiebreakText(
            "lowest_colour_level", pgettext_lazy("tiebreak column: lowest colour level", "Level"),
            _("Sum over the rounds of own lowest colour (an unplayed round as the event's "
              "rule says); if equal, the sum of own second-lowest, and so on."),
        ),
        TiebreakText(
            "lowest_colour_difference_cumulative",
            pgettext_lazy("tiebreak column: cumulative lowest colour difference", "CDiff"),
            _("Sum of the running totals after each round of own lowest colour minus the "
              "opponent's lowest (an unplayed round as the event's rule says); if equal, the "
              "same for the second-lowest, and so on."),
        ),
        TiebreakText(
            "lowest_colour_level_cumulative",
            pgettext_lazy("tiebreak column: cumulative lowest colour level", "CLevel"),
            _("Sum of the running totals after each round of own lowest colour (an unplayed "
              "round as the event's rule says); if equal, the same for the second-lowest, and "
              "so on."),
        ),
        TiebreakText(
            "buchholz", pgettext_lazy("tiebreak column: Buchholz", "BH"),
            _("Sum of the opponents' VP (FIDE C.07): an own unplayed round counts a dummy "
              "opponent with one's own VP; in an opponent's VP, absences after their last round "
              "not voluntarily missed count as draws, forfeit losses as 0."),
        ),
        TiebreakText(
            "buchholz_cut1", pgettext_lazy("tiebreak column: Buchholz cut 1", "BH-C1"),
            _("Buchholz without its lowest contribution; if the player has voluntarily unplayed "
              "rounds (absence, forfeit loss, double forfeit), the lowest of those is cut "
              "instead."),
        ),
        TiebreakText(
            "sonneborn_berger", pgettext_lazy("tiebreak column: Sonneborn-Berger", "SB"),
            _("Sum over rounds of own VP times that round's opponent's VP as counted for "
              "Buchholz (FIDE C.07): an own unplayed round uses one's own VP."),
        ),
        TiebreakText(
            "wins_played", pgettext_lazy("tiebreak column: games won over the board", "WON"),
            _("Number of games won over the board (forfeits, byes and decisions without scores "
              "do not count)."),
        ),
        TiebreakText(
            "wins", pgettext_lazy("tiebreak column: rounds with 1 VP", "WIN"),
            _("Number of rounds with 1 VP, played or not: wins, forfeit wins, 1-VP byes and "
              "decisions."),
        ),
    )
}


def text_for(tiebreak: Tiebreak | str) -> TiebreakText:
    """The words for a criterion (or its key); every criterion of the core has them (tested)."""
    return _TEXTS[tiebreak if isinstance(tiebreak, str) else tiebreak.key]


def texts(tiebreaks: Iterable[Tiebreak | str]) -> list[TiebreakText]:
    """:func:`text_for` of each criterion, in order."""
    return [text_for(tb) for tb in tiebreaks]


def _colour_rank(element: int) -> str:
    """Which colour of a colour criterion's value, counted from the lowest."""
    names = [_("lowest colour"), _("2nd-lowest colour"), _("3rd-lowest colour"),
             _("4th-lowest colour"), _("5th-lowest colour"), _("highest colour")]
    return str(names[element]) if element < len(names) else str(element + 1)


def _value_text(key: str, value) -> str:
    if key == "head_to_head":
        return {1: "+", -1: "−"}.get(value, "=")
    if "difference" in key:
        return format_signed(value)
    return format_points(Fraction(value)) if isinstance(value, Fraction) else str(value)


def decision_text(decision: Decision, tiebreak: Tiebreak, above_name: str) -> str:
    """Why a player stands below ``above_name`` with the same VP, in the reader's language:
    "Diff, 4th-lowest colour: −1 against 0 (Ada)". Higher is better in every criterion."""
    label = str(text_for(tiebreak).label)
    if tiebreak.reading is not None:
        label = f"{label}, {_colour_rank(decision.element)}"
    return _("%(criterion)s: %(own)s against %(above)s (%(name)s)") % {
        "criterion": label, "own": _value_text(tiebreak.key, decision.lower),
        "above": _value_text(tiebreak.key, decision.upper), "name": above_name}
