"""The event's format and pairing numbers: announced before round 1, settled at round 1.

Before round 1 the format is a forecast from the players entered so far (the same pure rule
that settles it); pairing round 1 fixes the system, the number of rounds and the pairing
numbers, and writes that to the event's history. After that only the number of rounds may
change, with a reason (``events.update_event``).
"""

from __future__ import annotations

import copy
import secrets
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import pairing as core
from tournament.models import Event, HistoryEntry, Player
from tournament.services.history import log_change
from tournament.texts import event_texts


@dataclass(frozen=True)
class FormatInfo:
    """What the event page and the dashboard say about the format."""

    system: str
    rounds: int
    settled: bool
    follows_field: bool
    entrants: int
    warning: str = ""
    #: The arbiter's reason for a number of rounds the MSO rules do not play, when it applies.
    rounds_note: str = ""
    #: The FIDE (Dutch) System's edition a Swiss is paired by (``Event.pairing_edition``).
    edition: str = ""

    @property
    def is_round_robin(self) -> bool:
        return self.system == Event.PairingSystem.ROUND_ROBIN

    @property
    def label(self) -> str:
        if self.system == Event.PairingSystem.SWISS and self.edition:
            return _("Swiss (FIDE Dutch %(edition)s)") % {"edition": self.edition}
        return str(Event.PairingSystem(self.system).label)

    @property
    def explanation(self) -> str:
        if self.settled:
            return _("Settled when round 1 was paired.")
        if self.follows_field:
            return ngettext(
                "Follows the field: %(n)d player entered so far; settled when round 1 is "
                "paired.",
                "Follows the field: %(n)d players entered so far; settled when round 1 is "
                "paired.", self.entrants) % {"n": self.entrants}
        return _("Chosen by the arbiter; settled when round 1 is paired.")


def is_settled(event: Event) -> bool:
    return event.rounds.exists()


def _forecast(event: Event, entrants: int) -> core.Format:
    return core.settle_format(event.pairing_system, max(entrants, 2), event.rounds_planned)


def small_swiss_warning(entrants: int, rounds: int) -> str:
    return ngettext(
        "A Swiss of %(n)d player (rounds: %(r)d) may run out of legal pairings (a round robin "
        "is the rule for 10 or fewer); when a round cannot be paired, pair it by hand.",
        "A Swiss of %(n)d players (rounds: %(r)d) may run out of legal pairings (a round robin "
        "is the rule for 10 or fewer); when a round cannot be paired, pair it by hand.",
        entrants) % {"n": entrants, "r": rounds}


#: The MSO's Swiss: 7 to 9 rounds (tournament-rules.md). Other counts are allowed, and warned.
MSO_SWISS_ROUNDS = range(7, 10)


def rounds_warning(system: str, rounds: int, note: str = "") -> str:
    """What the settings page and the dashboard say of a Swiss outside the MSO's 7–9 rounds:
    a warning until the arbiter gives the reason (``note``), then nothing (the reason is shown
    instead: ``FormatInfo.rounds_note``)."""
    if system == Event.PairingSystem.ROUND_ROBIN or rounds in MSO_SWISS_ROUNDS or note:
        return ""
    return ngettext(
        "The MSO rules play a Swiss in 7 to 9 rounds; this event has %(r)d. Keep it if the event "
        "needs it (a one-day event, a qualifier), say why in the settings and tell the players.",
        "The MSO rules play a Swiss in 7 to 9 rounds; this event has %(r)d. Keep it if the event "
        "needs it (a one-day event, a qualifier), say why in the settings and tell the players.",
        rounds,
    ) % {"r": rounds}


def _rounds_note(event: Event, system: str, rounds: int) -> str:
    unusual = system != Event.PairingSystem.ROUND_ROBIN and rounds not in MSO_SWISS_ROUNDS
    return event.rounds_note if unusual else ""


def event_format(event: Event, *, entrants: int | None = None,
                 settled: bool | None = None) -> FormatInfo:
    """The format as stored once settled, or as it would be settled with today's entries.

    A list of events passes the counts it annotated, to avoid two queries per event.
    """
    entrants = event.players.count() if entrants is None else entrants
    if is_settled(event) if settled is None else settled:
        return FormatInfo(
            event.pairing_system, event.rounds_planned, True, False, entrants,
            rounds_warning(event.pairing_system, event.rounds_planned, event.rounds_note),
            _rounds_note(event, event.pairing_system, event.rounds_planned),
            event.pairing_edition)
    fmt = _forecast(event, entrants)
    warning = " ".join(filter(None, [
        small_swiss_warning(entrants, fmt.rounds) if fmt.small_swiss else "",
        rounds_warning(fmt.system.value, fmt.rounds, event.rounds_note)]))
    return FormatInfo(fmt.system.value, fmt.rounds, False,
                      event.pairing_system == Event.PairingSystem.AUTO, entrants, warning,
                      _rounds_note(event, fmt.system.value, fmt.rounds), event.pairing_edition)


def planned_rounds(event: Event) -> int:
    """The rounds the event has (or will have with today's entries)."""
    return event_format(event).rounds


def settle(event: Event, *, user=None) -> None:
    """Fix format, rounds and pairing numbers from the players entered now (round 1 only).

    Runs inside the pairing service's transaction, with the event row locked.
    """
    players = list(event.players.order_by("seed"))
    if _needs_lot(event) and event.lot_seed is None:
        event.lot_seed = secrets.randbits(48)
    fmt, order = _settled(event, players)
    _renumber(players, order)
    event.pairing_system, event.rounds_planned = fmt.system.value, fmt.rounds
    event.save(update_fields=["pairing_system", "rounds_planned", "lot_seed"])
    log_change(event, HistoryEntry.Action.FORMAT_SETTLED, {
        "system": fmt.system.value, "rounds": fmt.rounds, "pairing_order": event.pairing_order,
        "lot_seed": event.lot_seed, "small_swiss": fmt.small_swiss,
        "numbers": {p.name: number for number, p in enumerate(_sorted(players, order), 1)},
    }, user=user)


def _needs_lot(event: Event) -> bool:
    return (event.pairing_order == Event.PairingOrder.LOT
            or event.first_mover == Event.FirstMover.LOT)


def _settled(event: Event, players: list[Player]) -> tuple[core.Format, list[int]]:
    """The format and the order of pairing numbers (player ids) that settling gives."""
    fmt = core.settle_format(event.pairing_system, len(players), event.rounds_planned)
    order = core.pairing_order(
        [core.Entrant(p.pk, p.name, p.rating) for p in players], event.pairing_order,
        event.lot_seed or 0,
    )
    return fmt, order


def as_settled(event: Event) -> tuple[Event, dict[int, int]] | None:
    """The event as :func:`settle` would leave it with today's entries, without writing: an
    unsaved copy with the settled format, and each player's pairing number by id. None when
    settling draws a lot (the draw is made then) or has been made already."""
    if is_settled(event) or (_needs_lot(event) and event.lot_seed is None):
        return None
    players = list(event.players.order_by("seed"))
    fmt, order = _settled(event, players)
    settled = copy.copy(event)
    settled.pairing_system, settled.rounds_planned = fmt.system.value, fmt.rounds
    return settled, {pk: number for number, pk in enumerate(order, 1)}


def order_text(event: Event) -> str:
    """How the event's pairing numbers are (or will be) given."""
    return event_texts.order_words(event.pairing_order, event.lot_seed)


def _sorted(players: list[Player], order: list[int]) -> list[Player]:
    by_pk = {p.pk: p for p in players}
    return [by_pk[pk] for pk in order]


def _renumber(players: list[Player], order: list[int]) -> None:
    """Give pairing numbers 1..n in ``order`` (two passes: the numbers are unique per event)."""
    if not players:
        return
    offset = max(p.seed for p in players) + len(players)
    Player.objects.bulk_update(
        [_with_seed(p, offset + p.seed) for p in players], ["seed"]
    )
    Player.objects.bulk_update(
        [_with_seed(p, number) for number, p in enumerate(_sorted(players, order), 1)], ["seed"]
    )


def _with_seed(player: Player, seed: int) -> Player:
    player.seed = seed
    return player
