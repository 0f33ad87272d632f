"""What other apps hang on a board, asked for before a board is removed.

A board can carry a running clock, a stored game record or a live scoresheet. Those live in
the ``clocks`` and ``games`` apps, which stand on the event app; the event app must not import
them. Instead each of them registers a *provider* here when Django starts (their
``AppConfig.ready``): given board ids, it describes what it holds on those boards, with a
snapshot that the event's history keeps when the arbiter confirms removing the boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Attachment:
    """One thing on one board: ``label`` for the arbiter, ``snapshot`` for the history."""

    board_id: int
    kind: str
    label: str
    snapshot: dict = field(default_factory=dict)


Provider = Callable[[list[int]], Iterable[Attachment]]
_providers: dict[str, Provider] = {}


def register(name: str, provider: Provider) -> None:
    """Add (or replace, on a reload) the provider called ``name``."""
    _providers[name] = provider


def attachments(board_ids: Iterable[int]) -> list[Attachment]:
    """Everything the registered apps hold on these boards, board by board."""
    ids = sorted(set(board_ids))
    if not ids:
        return []
    found = [a for provider in _providers.values() for a in provider(ids)]
    return sorted(found, key=lambda a: (a.board_id, a.kind))
