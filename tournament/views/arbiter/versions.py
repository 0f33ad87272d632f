"""Versions of one board's result side by side, the cells where they differ marked.

A dispute is settled by the arbiter reading two (or three) accounts of twelve scores: the
result stored, a player's confirmation, the arbiter's slip. Read one after the other in a
history table, the one differing number among 24 was easy to miss. Here each version is a
small table of its own (two rows of six colours), and a cell whose value another version gives
differently is marked, in the page and for a screen reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine.board import COLOURS
from tournament.models import Board, Confirmation, Result
from tournament.outcome import ResultError, derive_outcome
from tournament.texts import formatting
from tournament.texts.formatting import source_text


@dataclass(frozen=True)
class Cell:
    colour: str
    value: int | None
    differs: bool


@dataclass(frozen=True)
class Version:
    """One account of the board: what it is (``title``), who gave it and when, its VP and
    lowest levels, its two rows of scores, and the conflict it is (None: the stored result or
    a confirmation, which are not accepted or dismissed as such)."""

    title: str
    who: str
    result: Result | None
    summary: str
    rows: list[tuple[str, list[Cell]]]


def _summary(kind: str, first_vp, second_vp, first: dict | None, second: dict | None) -> str:
    text = f"{formatting.vp(first_vp)}–{formatting.vp(second_vp)}"
    if first and second:
        text += " · " + formatting.lowest_text(first, second)
    return text if kind == Result.Kind.PLAYED else f"{text} · {Result.Kind(kind).label}"


def _played_summary(first: dict, second: dict) -> str:
    try:
        outcome = derive_outcome(Result.Kind.PLAYED, first_scores=first, second_scores=second)
    except ResultError:
        return ""
    return _summary(Result.Kind.PLAYED, outcome.first_vp, outcome.second_vp, first, second)


def compared(board: Board, accounts: list[tuple[str, str, Result | None, dict | None,
                                                dict | None, str]]) -> list[Version]:
    """``accounts``: (title, who, conflict or None, first scores, second scores, summary)
    each. A cell differs when any other account with scores gives another value there."""
    seats = (("first", board.first.name), ("second", board.second.name if board.second else ""))
    versions = []
    for index, (title, who, result, first, second, summary) in enumerate(accounts):
        mine = {"first": first, "second": second}
        others = [{"first": a[3], "second": a[4]} for n, a in enumerate(accounts) if n != index]
        rows = []
        for seat, name in seats:
            cells = []
            for colour in COLOURS:
                value = (mine[seat] or {}).get(colour)
                differs = value is not None and any(
                    (other[seat] or {}).get(colour, value) != value
                    for other in others if other[seat])
                cells.append(Cell(colour, value, differs))
            rows.append((name, cells))
        versions.append(Version(title, who, result, summary, rows))
    return versions


def dispute(board: Board, accepted: Result | None, conflicts: list[Result],
            confirmations: list[Confirmation]) -> list[Version]:
    """What the arbiter compares on a board's page: the stored result, every open conflict,
    and the players' confirmations that no conflict already shows (one player confirmed, the
    other not yet)."""
    accounts: list[tuple[str, str, Result | None, dict | None, dict | None, str]] = []

    def of(result: Result) -> tuple:
        return (result.first_scores, result.second_scores,
                _summary(result.kind, result.first_vp, result.second_vp,
                         result.first_scores, result.second_scores))

    if accepted is not None:
        accounts.append((_("Stored (version %(v)d)") % {"v": accepted.version},
                         accepted.entered_by_label or accepted.get_source_display(), None,
                         *of(accepted)))
    for conflict in conflicts:
        accounts.append((_("Version %(v)d: %(source)s") % {
            "v": conflict.version, "source": source_text(conflict)},
            conflict.entered_by_label, conflict, *of(conflict)))
    if accounts:
        shown = [(a[3], a[4]) for a in accounts]
        for confirmation in confirmations:
            if (confirmation.first_scores, confirmation.second_scores) in shown:
                continue
            name = getattr(board, confirmation.seat).name
            accounts.append((_("Confirmed by %(name)s") % {"name": name}, name, None,
                             confirmation.first_scores, confirmation.second_scores,
                             _played_summary(confirmation.first_scores,
                                             confirmation.second_scores)))
    return compared(board, accounts) if conflicts or len(accounts) > 1 else []
