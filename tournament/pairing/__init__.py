"""Pairing core: Swiss rounds (the FIDE (Dutch) System: 2025 by bbpPairings, 2017 by
py4swiss), Berger round robins, TRF, checks.

Pure Python, no Django. The shell builds an :class:`Event` from its rows, calls
:func:`pair_swiss` or :func:`berger_schedule`, and stores the :class:`RoundPairing`.
"First move" plays the role of White in every FIDE rule.

>>> from tournament.pairing import Event, Player, Settings, pair_swiss
>>> event = Event(Settings(rounds=7), tuple(Player(n, f"P{n}") for n in range(1, 6)))
>>> print(pair_swiss(event).to_text(), end="")
3
1 3
4 2
5 0
"""

from tournament.pairing.boards import Board, RoundPairing
from tournament.pairing.engines import EDITION_ENGINES, ENGINE_LABELS, engine_for, get_engine
from tournament.pairing.errors import (
    EngineConfigError,
    EngineError,
    EngineMissing,
    InvalidEvent,
    NoLegalPairing,
    PairingError,
    TrfError,
)
from tournament.pairing.format import (
    Entrant,
    Format,
    Order,
    System,
    pairing_order,
    round_robin_rounds,
    settle_format,
)
from tournament.pairing.model import EDITIONS, Event, Player, Result, RoundRecord, Settings, Status
from tournament.pairing.roundrobin import berger_schedule
from tournament.pairing.swiss import pair_swiss
from tournament.pairing.trf import TOURNAMENT_TYPES, export_trf, import_trf
from tournament.pairing.validate import (
    PAIRING_WARNINGS,
    PairingWarning,
    forfeit_rematches,
    validate_pairing,
)

__all__ = [
    "EDITIONS",
    "EDITION_ENGINES",
    "ENGINE_LABELS",
    "PAIRING_WARNINGS",
    "TOURNAMENT_TYPES",
    "Board",
    "EngineConfigError",
    "EngineError",
    "EngineMissing",
    "Entrant",
    "Event",
    "Format",
    "InvalidEvent",
    "NoLegalPairing",
    "Order",
    "PairingError",
    "PairingWarning",
    "Player",
    "Result",
    "RoundPairing",
    "RoundRecord",
    "Settings",
    "Status",
    "System",
    "TrfError",
    "berger_schedule",
    "engine_for",
    "export_trf",
    "forfeit_rematches",
    "get_engine",
    "import_trf",
    "pair_swiss",
    "pairing_order",
    "round_robin_rounds",
    "settle_format",
    "validate_pairing",
]
