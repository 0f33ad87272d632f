"""Pair the next Swiss round: event -> TRF -> engine -> boards, checked before returning.

The engine's answer is checked against the event before anyone sees it, so a buggy external
engine can cause an error but never a half-paired round or a rematch on the wall chart.
"""

from __future__ import annotations

from tournament.pairing.boards import Board, RoundPairing
from tournament.pairing.engines import Engine, engine_for, get_engine
from tournament.pairing.errors import EngineError, InvalidEvent, NoLegalPairing
from tournament.pairing.model import Event, Status
from tournament.pairing.trf import export_trf
from tournament.pairing.validate import HARD, validate_pairing


def pair_swiss(event: Event, engine: Engine | str | None = None, *,
               trf: str | None = None) -> RoundPairing:
    """Pair round ``event.rounds_played + 1`` by the FIDE (Dutch) System's edition the event
    is paired by (``event.settings.edition``, :data:`EDITION_ENGINES`), or by ``engine``.

    Players with status PLAYING are paired or get the pairing-allocated bye exactly once;
    absent and withdrawn players are left out. Boards come in the Dutch publishing order.
    Raises :class:`NoLegalPairing` when the absolute criteria (no rematch, one pairing bye per
    player, first-move limits) cannot all be met: the arbiter then pairs by hand, and
    :class:`EngineMissing` when the edition's engine is not installed. ``trf``: the file the
    engine is given, when not the event as :func:`export_trf` writes it (the round page's check
    gives the TRF the arbiter downloads, header lines and all); the answer is checked against
    ``event`` either way.
    """
    next_round = event.rounds_played + 1
    if next_round > event.settings.rounds:
        raise InvalidEvent(f"all {event.settings.rounds} rounds have already been paired")
    playing = [p.number for p in event.players if p.status is Status.PLAYING]
    if not playing:
        raise NoLegalPairing(f"round {next_round}: no player is available")
    chosen = (engine_for(event.settings.edition) if engine is None
              else get_engine(engine) if isinstance(engine, str) else engine)
    try:
        pairs = chosen.pair(export_trf(event) if trf is None else trf)
    except NoLegalPairing as exc:
        raise NoLegalPairing(
            f"round {next_round} cannot be paired: {exc}; pair it by hand"
        ) from None
    byes = [a for a, b in pairs if b == 0]
    if len(byes) > 1 or any(a == 0 for a, _ in pairs):
        raise EngineError(f"engine {chosen.name!r} gave more than one bye: {pairs}")
    pairing = RoundPairing(
        next_round, tuple(Board(a, b) for a, b in pairs if b != 0), byes[0] if byes else None
    )
    broken = [w for w in validate_pairing(event, pairing) if w.code in HARD]
    if broken or (pairing.bye is not None) != (len(playing) % 2 == 1):
        problems = "; ".join(map(str, broken)) or f"bye {pairing.bye} with {len(playing)} players"
        raise EngineError(f"engine {chosen.name!r} returned an invalid pairing: {problems}")
    return pairing
