"""How numbers of the game read on a page: VP as 6½, differences as +3 / −2, lowest levels.

The rules come from the standings core's display module (one implementation for pages, PDFs
and exports); this module accepts the shell's values (Decimal, strings from forms, None) and
is what views and tables import. The template filters in ``templatetags/ingenious.py`` are
thin names for these functions.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from tournament.inputs import name_search
from tournament.standings import format_points
from tournament.standings.display import format_signed


def source_text(result) -> str:
    """Where a result version came from, for people. A version from the players is "confirmed
    by both players" once stored; a conflict (or a dismissed one) is one player's account, and
    says so (the **Who** column names the player)."""
    if not result:
        return ""
    if result.source == "players" and result.status not in ("accepted", "superseded"):
        return str(_("one player's confirmation"))
    return str(result.get_source_display())


def moment(when) -> str:
    """A moment in a sentence: the reader's short date and a 24-hour time (English's "9:49
    a.m." would end the sentence twice: "closes at 9:49 a.m.."), in the server's time zone."""
    from django.utils import formats, timezone

    local = timezone.localtime(when)
    return f"{formats.date_format(local, 'SHORT_DATE_FORMAT')} {formats.date_format(local, 'H:i')}"


#: The reason stored with the absences the check-in marks (in the site's language: a backup
#: and the services compare it); ``absence_text`` says it in the reader's.
NO_CHECKIN_REASON = "did not check in"


def absence_text(absence) -> str:
    """Why a player was absent from a round, in the reader's language: not checked in (the
    check-in marked it) or requested (with the reason typed for it, if any)."""
    if absence.reason == NO_CHECKIN_REASON:
        return _("absent: did not check in")
    if absence.reason:
        return _("absent (requested): %(why)s") % {"why": absence.reason}
    return _("absent (requested)")


def vp(value) -> str:
    """Victory points as people write them: 1, ½, 6½ (empty for no value)."""
    if value is None or value == "":
        return ""
    return format_points(Fraction(str(value)))


def signed(value) -> str:
    """+3, 0, −2 (a real minus sign, which reads better on a projector)."""
    return format_signed(int(value))


def lowest_text(first_scores, second_scores) -> str:
    """Both players' lowest colour with the difference, or nothing without scores."""
    if not first_scores or not second_scores:
        return ""
    a, b = min(first_scores.values()), min(second_scores.values())
    return f"{a} ({signed(a - b)}) – {b} ({signed(b - a)})"


def name_key(name: str) -> tuple[str, str]:
    """Sort key for names, the same on pages and in PDFs: case and accents ignored, so Émile
    sorts with the Es (the name itself breaks ties, so the order is always the same)."""
    return name_search.folded(name), name
