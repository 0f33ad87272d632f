"""The benchmark event: ``boards`` games with clocks in one published round, made through the
event services as an arbiter would (pairing by hand, board by board), and removed again."""

from __future__ import annotations

from django.db import transaction

from tournament import services as event_services
from tournament.models import Round


@transaction.atomic
def create_clock_event(boards: int, *, arbiter=None, slug: str | None = None,
                       time_control: str = "600", name: str = "Clock test") -> Round:
    """An event with ``boards`` games in one published round, made through the event services."""
    event = event_services.create_event(name=name, slug=slug, arbiter=arbiter,
                                        time_control=time_control, rounds_planned=1)
    players = [event_services.add_player(event, name=f"Player {n:04d}")
               for n in range(1, 2 * boards + 1)]
    round_ = event_services.start_manual_round(event, reason="clock benchmark")
    for number in range(1, boards + 1):
        first, second = players[2 * number - 2], players[2 * number - 1]
        event_services.edit_pairing(round_, first_id=first.pk, second_id=second.pk,
                                    board_number=number, reason="clock benchmark")
    return event_services.publish_round(round_)


def delete_event(round_: Round) -> None:
    """Remove a benchmark's event (boards protect their players: rounds go first)."""
    with transaction.atomic():
        Round.objects.filter(event_id=round_.event_id).delete()
        round_.event.delete()
