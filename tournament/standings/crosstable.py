"""The crosstable: per player, per round, whom they met and how it went.

Opponents are named by their rank in the given standings (the first number of a shared place),
as printed crosstables do. Symbols: ``1`` ``½`` ``0`` for games with a result on the board or
by decision, ``+`` / ``−`` for a forfeit won / lost (``−`` for both in a double forfeit). A
cell's ``display`` adds who played first: ``7f1`` = against rank 7, played first, won;
``3s½`` = against rank 3, played second, drawn; ``bye 1`` and ``abs 0`` for rounds without an
opponent. A round with no entry at all is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .display import MINUS, format_points
from .model import EventResults, PlayerId, ResultKind
from .records import Context, Entry
from .table import Standings

__all__ = ["CrosstableCell", "CrosstableRow", "build_crosstable"]


@dataclass(frozen=True, slots=True)
class CrosstableCell:
    """One player's round; ``first``: played first (True), second (False), no opponent (None)."""

    round: int
    kind: ResultKind
    vp: Fraction
    symbol: str
    display: str
    opponent_id: PlayerId | None = None
    opponent_rank: int | None = None
    first: bool | None = None


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    """A standings row's player with one cell per round and the totals."""

    rank: int
    place: str
    player_id: PlayerId
    name: str
    vp: Fraction
    vp_display: str
    cells: tuple[CrosstableCell | None, ...]
    firsts: int
    """Games (with an opponent) in which the player was named first."""
    seconds: int


def build_crosstable(event: EventResults, standings: Standings) -> tuple[CrosstableRow, ...]:
    """The crosstable of ``event`` over the rounds counted in ``standings``, in standings order."""
    ctx = standings.context
    if ctx is None or ctx.event is not event:
        ctx = Context(event, standings.rounds)
    ranks = {row.player_id: row.rank for row in standings.rows}
    rows = []
    for row in standings.rows:
        entries = ctx.records[row.player_id].entries
        cells = tuple(_cell(e, ranks) if e.recorded else None for e in entries)
        firsts = sum(1 for e in entries if e.first is True)
        seconds = sum(1 for e in entries if e.first is False)
        rows.append(
            CrosstableRow(
                rank=row.rank,
                place=row.place,
                player_id=row.player_id,
                name=row.name,
                vp=row.vp,
                vp_display=row.vp_display,
                cells=cells,
                firsts=firsts,
                seconds=seconds,
            )
        )
    return tuple(rows)


def _cell(entry: Entry, ranks: dict[PlayerId, int]) -> CrosstableCell:
    vp = Fraction(entry.vp2, 2)
    if entry.kind in (ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT):
        symbol = "+" if entry.vp2 == 2 else MINUS
    else:
        symbol = format_points(vp)
    if entry.opponent is None:
        prefix = "bye " if entry.kind is ResultKind.BYE else "abs "
        return CrosstableCell(entry.round, entry.kind, vp, symbol, prefix + symbol)
    rank = ranks[entry.opponent]
    side = "f" if entry.first else "s"
    return CrosstableCell(
        entry.round,
        entry.kind,
        vp,
        symbol,
        f"{rank}{side}{symbol}",
        opponent_id=entry.opponent,
        opponent_rank=rank,
        first=entry.first,
    )
