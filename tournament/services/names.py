"""Look-alike names: the arbiter's warning when a new name is easily taken for another."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from tournament.inputs.names import skeleton
from tournament.models import Event, Player


def look_alike_warnings(event: Event, players: list[Player]) -> list[str]:
    """One sentence per player of ``players`` whose name ``names.skeleton`` takes for another
    player's of ``event`` ("Ａlice" and "Alice", Cyrillic "А" and Latin "A").

    A warning, not a refusal: two real players may share a name; the arbiter checks that the
    same person was not entered twice (an exact repeat, case aside, is refused by
    ``add_player``).
    """
    if not players:
        return []
    by_look: dict[str, list[Player]] = defaultdict(list)
    for other in event.players.only("pk", "name"):
        by_look[skeleton(other.name)].append(other)
    warnings = []
    for player in players:
        others = [p.name for p in by_look[skeleton(player.name)] if p.pk != player.pk]
        if others:
            warnings.append(
                _("%(name)s looks like %(others)s, already entered: two players may share a "
                  "name, but check that nobody was entered twice.")
                % {"name": player.name, "others": ", ".join(others)})
    return warnings
