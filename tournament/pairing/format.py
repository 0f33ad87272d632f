"""The event's format and its pairing numbers, settled once when round 1 is paired.

tournament-rules.md section 1: the format follows the field unless the arbiter forces one.
Ten players or fewer play a round robin with the Berger table's number of rounds; more play a
Swiss over the planned rounds. Pairing numbers follow rating, a seeded lot, or entry order.
Both are decided here, in plain Python, so that the page that announces the format before
round 1 and the service that settles it at round 1 cannot disagree.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournament.pairing.errors import InvalidEvent

#: Largest field that plays a round robin when the format follows the field.
ROUND_ROBIN_MAX = 10


class System(StrEnum):
    """What the arbiter chooses: follow the field, or force one system."""

    AUTO = "auto"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class Order(StrEnum):
    """How pairing numbers are given at round 1 (FIDE C.04: rating; C.05: Berger by lot)."""

    RATING = "rating"
    LOT = "lot"
    ENTRY = "entry"


@dataclass(frozen=True, slots=True)
class Format:
    """The settled system (never ``AUTO``) and its number of rounds.

    ``small_swiss`` is set when a Swiss was forced on a field that would play a round robin:
    such fields run out of legal pairings, so the shell warns.
    """

    system: System
    rounds: int
    small_swiss: bool = False


def round_robin_rounds(players: int) -> int:
    """Rounds of a single round robin: n - 1 for even n, n for odd n (one bye a round)."""
    if players < 2:
        raise InvalidEvent(f"an event needs at least 2 players, got {players}")
    return players - 1 if players % 2 == 0 else players


def settle_format(choice: str, entrants: int, swiss_rounds: int) -> Format:
    """The format an event with ``entrants`` players gets for the arbiter's ``choice``.

    >>> settle_format("auto", 10, 7)
    Format(system=<System.ROUND_ROBIN: 'round_robin'>, rounds=9, small_swiss=False)
    >>> settle_format("auto", 11, 8).rounds
    8
    >>> settle_format("swiss", 8, 7).small_swiss
    True
    """
    choice = System(choice)
    if entrants < 2:
        raise InvalidEvent(f"an event needs at least 2 players, got {entrants}")
    if choice is System.AUTO:
        choice = System.ROUND_ROBIN if entrants <= ROUND_ROBIN_MAX else System.SWISS
    if choice is System.ROUND_ROBIN:
        return Format(System.ROUND_ROBIN, round_robin_rounds(entrants))
    return Format(System.SWISS, swiss_rounds, small_swiss=entrants <= ROUND_ROBIN_MAX)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the draw of pairing numbers sees them: in entry order, with a rating."""

    key: int
    name: str
    rating: int | None = None


def pairing_order(entrants: Sequence[Entrant], order: str, seed: int = 0) -> list[int]:
    """The entrants' keys in pairing-number order (the first gets number 1).

    ``rating``: highest rating first, equal ratings by name; unrated players follow the rated
    ones in entry order (with no rating entered at all this is the entry order).
    ``lot``: the entry order shuffled by ``random.Random(seed)``, so that the same seed always
    draws the same numbers and anyone can repeat the draw.
    ``entry``: as entered.
    """
    order = Order(order)
    if order is Order.ENTRY:
        return [e.key for e in entrants]
    if order is Order.LOT:
        keys = [e.key for e in entrants]
        random.Random(seed).shuffle(keys)
        return keys
    rated = sorted(
        (e for e in entrants if e.rating is not None),
        key=lambda e: (-e.rating, e.name.casefold()),
    )
    return [e.key for e in rated] + [e.key for e in entrants if e.rating is None]
