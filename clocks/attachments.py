"""Tells the event app which boards have a clock that was started (see board_attachments)."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from clocks import archive
from clocks.models import Clock
from tournament.boards.board_attachments import Attachment


def started_clocks(board_ids: list[int]) -> Iterable[Attachment]:
    """A clock that never started holds nothing; one that did holds times and presses."""
    for clock in Clock.objects.filter(board_id__in=board_ids).prefetch_related("log_entries"):
        state = clock.core
        if state.started_at_ms is None:
            continue
        label = _("a finished clock") if state.finished is not None else _("a running clock")
        yield Attachment(clock.board_id, "clock", label,
                         archive.record(clock, list(clock.log_entries.all())))
