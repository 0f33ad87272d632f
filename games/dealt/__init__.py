"""The dealt game: pure Python, no Django. The server's deal (a bag shuffled from a seed,
committed to before the game and revealed after it) and the online game's state machine on
top of the rules engine, with real racks, one view per seat and the re-check of a finished
record against the revealed seed. Specification: :mod:`games.dealt.deal` and
docs/online-protocol.md.
"""

from .deal import SEED_BYTES, Deal, commitment, parse_seed
from .table import MOVES, REFUSALS, DealMismatch, MoveRefused, Step, Table, check_deal, parse_move

__all__ = [
    "MOVES",
    "REFUSALS",
    "SEED_BYTES",
    "Deal",
    "DealMismatch",
    "MoveRefused",
    "Step",
    "Table",
    "check_deal",
    "commitment",
    "parse_move",
    "parse_seed",
]
