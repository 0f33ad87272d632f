"""Our TRF read by bbpPairings, the FIDE-endorsed engine of the FIDE (Dutch) System as amended
in 2025 (issue #37): the program ``make setup`` builds from ``vendor/bbpPairings`` (or the one
``BBPAIRINGS`` names).

What they hold: a withdrawn player is never seated by an engine that ignores ``XXZ``, and
round 1 with players left out gives the same boards and first moves as bbpPairings (which
numbers only the players being paired).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from pairing_scenarios import run_event, start_event

from tests.bbpairings import bbpairings as built
from tournament.pairing import Event, Settings, Status, export_trf
from tournament.pairing.engines import DutchEngine, ExternalEngine


@pytest.fixture(scope="module")
def bbpairings() -> ExternalEngine:
    return built()


def _readable(event: Event, rng: random.Random) -> Event:
    """``event`` scored as bbpPairings can read it: it scores ``H`` as a draw and ``F`` and
    ``+`` as a win (its BBx lines have nothing else), so only the bye's value varies."""
    settings = Settings(event.settings.rounds, first_move=event.settings.first_move,
                        bye=rng.choice([1.0, 0.5]))
    return replace(event, settings=settings)


@pytest.mark.parametrize("seed", range(6))
def test_bbpairings_never_seats_a_withdrawn_player(bbpairings, seed):
    rng = random.Random(seed)
    event = _readable(start_event(24, 7, rng), rng)
    checked = 0
    for before, _pairing in run_event(event, rng, withdraw=0.08, absent=0.05):
        gone = {p.number for p in before.players if p.status is Status.WITHDRAWN}
        if not gone:
            continue
        seated = {n for pair in bbpairings.pair(export_trf(before)) for n in pair}
        assert not gone & seated, (before.rounds_played + 1, gone & seated)
        checked += 1
    assert checked, "no withdrawal in this event: pick another seed"


@pytest.mark.parametrize("seed", range(12))
def test_round_one_with_players_left_out_is_paired_as_bbpairings_pairs_it(bbpairings, seed):
    rng = random.Random(1000 + seed)
    event = _readable(start_event(rng.randint(7, 40), 7, rng, late=False), rng)
    out = set(rng.sample([p.number for p in event.players], rng.randint(1, 5)))
    players = tuple(
        replace(p, status=rng.choice([Status.ABSENT, Status.HALF_BYE, Status.WITHDRAWN]))
        if p.number in out else p for p in event.players)
    event = replace(event, players=players)
    trf = export_trf(event)
    assert DutchEngine().pair(trf) == bbpairings.pair(trf), trf
