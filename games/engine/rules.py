"""Rules profiles: the few places where rule books differ, as data.

A profile is a frozen declaration; the game reads its fields and never branches on its name.
Adding a house rule is one more entry in :data:`PROFILES`, e.g.::

    PROFILES["club"] = Profile("club", placement=TOUCH, first_round=None, bonus=ONE_PER_PLACEMENT)

Placement rules are limited to the two below on purpose: for both, "some legal placement
exists" is equivalent to "two adjacent free cells remain" (the start symbols are always on the
board, so every empty region of two or more cells borders a tile or a symbol). That is what
lets the game keep its end-of-game test incremental.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownProfileError

__all__ = [
    "ANYWHERE",
    "FRESH_START_SYMBOL",
    "ONE_PER_COLOUR",
    "ONE_PER_PLACEMENT",
    "PROFILES",
    "TOUCH",
    "Profile",
    "get_profile",
]

#: Placement rule: any two adjacent empty cells.
ANYWHERE = "anywhere"
#: Placement rule: the tile must touch a tile on the board or a printed start symbol.
TOUCH = "touch"
#: First-round rule: a seat's first tile must touch a start symbol no earlier first tile touches.
FRESH_START_SYMBOL = "fresh-start-symbol"
#: Bonus rule: one extra placement per colour (and threshold) reached by a placement.
ONE_PER_COLOUR = "one-per-colour"
#: Bonus rule: one extra placement however many colours a placement brought to a threshold.
ONE_PER_PLACEMENT = "one-per-placement"

_PLACEMENT_RULES = (ANYWHERE, TOUCH)
_FIRST_ROUND_RULES = (None, FRESH_START_SYMBOL)
_BONUS_RULES = (ONE_PER_COLOUR, ONE_PER_PLACEMENT)


@dataclass(frozen=True, slots=True)
class Profile:
    """A named set of rule choices.

    ``placement``: where any tile may go (:data:`ANYWHERE` or :data:`TOUCH`);
    ``first_round``: an extra rule for each seat's first tile (:data:`FRESH_START_SYMBOL`)
    or None; ``bonus``: how many extra placements reaching 18 earns (:data:`ONE_PER_COLOUR`
    or :data:`ONE_PER_PLACEMENT`); ``description``: one line for the event settings page.
    """

    name: str
    placement: str
    first_round: str | None
    bonus: str
    description: str = ""

    def __post_init__(self) -> None:
        if self.placement not in _PLACEMENT_RULES:
            raise ValueError(f"placement rule '{self.placement}' is not one of {_PLACEMENT_RULES}")
        if self.first_round not in _FIRST_ROUND_RULES:
            raise ValueError(
                f"first-round rule '{self.first_round}' is not one of {_FIRST_ROUND_RULES}"
            )
        if self.bonus not in _BONUS_RULES:
            raise ValueError(f"bonus rule '{self.bonus}' is not one of {_BONUS_RULES}")


#: The registry of profiles, by name.
PROFILES: dict[str, Profile] = {
    "kosmos": Profile(
        "kosmos",
        placement=ANYWHERE,
        first_round=FRESH_START_SYMBOL,
        bonus=ONE_PER_COLOUR,
        description="Boxed Kosmos rules: first tiles at distinct start symbols, then anywhere; "
        "one bonus play per colour reaching 18.",
    ),
    "mso": Profile(
        "mso",
        placement=TOUCH,
        first_round=None,
        bonus=ONE_PER_PLACEMENT,
        description="Mind Sports Olympiad: every tile touches a tile or a start symbol; "
        "one bonus play per placement however many colours reach 18.",
    ),
}


def get_profile(name: str) -> Profile:
    """The profile registered under ``name``.

    >>> get_profile("mso").bonus
    'one-per-placement'
    >>> get_profile("chess")
    Traceback (most recent call last):
    ...
    games.engine.errors.UnknownProfileError: unknown rules profile 'chess' (valid: kosmos, mso)
    """
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        raise UnknownProfileError(
            "unknown_profile", token=str(name), name=name, valid=", ".join(sorted(PROFILES))
        ) from None
