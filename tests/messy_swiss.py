"""Messy Swiss events played through the services, for the TRF round trip of issue #37.

Absences at 0 and ½, a late entry at ½ per missed round, withdrawals, forfeits, double
forfeits, ½–0, 0–½ and 1–1 decisions, and (``bye_change``) a bye worth 1 before byes became
worth ½. Before each round the TRF the arbiter downloads is given to ``engine`` as it is; the
caller compares its draw with the round the product pairs (``play`` yields both).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from tests.scenarios.story import random_scores
from tournament import services
from tournament.bridges import pairing_bridge
from tournament.models import Event, Player, Round
from tournament.pairing.engines import ExternalEngine


@dataclass(frozen=True)
class Paired:
    """One round: the TRF downloaded before it, the engine's draw, the product's round."""

    number: int
    trf: str
    engines: list[tuple[int, int]]
    round: Round

    @property
    def stored(self) -> list[tuple[int, int]]:
        """The product's boards as the engine writes them: board order, then the bye."""
        boards = self.round.boards.select_related("first", "second").order_by("number")
        pairs = [(b.first.seed, b.second.seed) for b in boards if not b.is_bye]
        return pairs + [(b.first.seed, 0) for b in boards if b.is_bye]


def results(round_: Round, rng: random.Random) -> None:
    """Every board's result: mostly played, some forfeits, double forfeits and decisions."""
    for board in round_.boards.filter(results__isnull=True):
        if board.is_bye:
            continue
        roll = rng.random()
        if roll < 0.06:
            services.record_result(board, "forfeit", loser_seat=rng.choice(["first", "second"]),
                                   reason="did not come")
        elif roll < 0.09:
            services.record_result(board, "double_forfeit", reason="neither came")
        elif roll < 0.14:
            first, second = rng.choice([("0.5", "0"), ("1", "1"), ("0", "0.5")])
            services.record_result(board, "decision", first_vp=first, second_vp=second,
                                   reason="the arbiter's decision",
                                   first_scores=random_scores(rng),
                                   second_scores=random_scores(rng))
        else:
            services.record_result(board, "played", first_scores=random_scores(rng),
                                   second_scores=random_scores(rng))


def play(name: str, seed: int, players: int, rounds: int, engine: ExternalEngine, *,
         bye_change: bool = False) -> Iterator[Paired]:
    """Play the event ``name`` round by round, yielding each round as paired."""
    rng = random.Random(seed)
    event = services.create_event(name=name, pairing_system="swiss", rounds_planned=rounds,
                                  absence_vp="0.5", late_entry_vp="0.5")
    for index in range(players):
        services.add_player(event, name=f"Player {index + 1}",
                            rating=None if index % 5 == 4 else 2200 - 10 * index)
    for number in range(1, rounds + 1):
        event = Event.objects.get(pk=event.pk)
        active = [p for p in Player.objects.filter(event=event) if p.is_active_in(number)]
        if number > 1:
            for player in rng.sample(active, max(1, len(active) // 12)):
                services.set_absence(player, number, vp=rng.choice(["0", "0.5"]),
                                     reason="asked")
            if rng.random() < 0.3:
                services.withdraw_player(rng.choice(active), reason="left")
        if number == 3:
            services.add_player(event, name="Late entry")
            if bye_change:  # round 1's bye keeps its full point: an XXA line of +0.5
                event = services.update_event(event, {"bye_vp": Decimal("0.5")},
                                              reason="byes are worth ½ from now on")
        trf = pairing_bridge.export_trf(event)
        engines = engine.pair(trf)
        round_ = services.pair_next_round(event)
        yield Paired(number, trf, engines, round_)
        services.publish_round(round_)
        results(round_, rng)
