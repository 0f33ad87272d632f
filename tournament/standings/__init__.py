"""Standings core: match records in, VP, tiebreak values and ranks with shared places out.

Pure Python (no Django), deterministic, exact (VP are ``Fraction``\\ s). The Django shell builds
an :class:`EventResults` from the database, calls :func:`compute_standings` with the event's
ordered tiebreak names and hands the rows to a table; :func:`build_crosstable` serves the
crosstable page and print. Definitions and a worked example: ``docs/tiebreaks.md``.

>>> event = EventResults(
...     players=[Player(1, "Ada"), Player(2, "Ben")],
...     games=[Game.played(1, 1, 2, [5, 9, 12, 7, 7, 10], [4, 11, 13, 9, 8, 6])],
... )
>>> [(row.place, row.name, row.vp_display) for row in compute_standings(event)]
[('1', 'Ada', '1'), ('2', 'Ben', '0')]
"""

from .crosstable import CrosstableCell, CrosstableRow, build_crosstable
from .decided import Decision, decided_by
from .display import format_points
from .errors import InvalidEventError, InvalidResultError, StandingsError, UnknownTiebreakError
from .model import Bye, EventResults, Game, Player, PlayerId, ResultKind
from .records import NOTHING, UNPLAYED_RULES, WIDEST
from .table import StandingRow, Standings, compute_standings
from .tiebreaks import (
    COLOUR_BY_COLOUR,
    CUMULATIVE,
    DEFAULT_TIEBREAKS,
    READINGS,
    TIEBREAKS,
    Tiebreak,
    TiebreakValue,
    get_tiebreak,
    progressive_readings,
    resolve_tiebreaks,
)

__all__ = [
    "COLOUR_BY_COLOUR",
    "CUMULATIVE",
    "DEFAULT_TIEBREAKS",
    "NOTHING",
    "READINGS",
    "TIEBREAKS",
    "UNPLAYED_RULES",
    "WIDEST",
    "Bye",
    "CrosstableCell",
    "CrosstableRow",
    "Decision",
    "EventResults",
    "Game",
    "InvalidEventError",
    "InvalidResultError",
    "Player",
    "PlayerId",
    "ResultKind",
    "StandingRow",
    "Standings",
    "StandingsError",
    "Tiebreak",
    "TiebreakValue",
    "UnknownTiebreakError",
    "build_crosstable",
    "compute_standings",
    "decided_by",
    "format_points",
    "get_tiebreak",
    "progressive_readings",
    "resolve_tiebreaks",
]
