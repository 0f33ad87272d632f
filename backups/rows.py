"""Times as a backup file writes them, and the creation times a restore puts back: shared by
the event's document and the self-running event's part of it."""

from __future__ import annotations


def iso(value):
    """A date or time as ISO text (None stays None)."""
    return value.isoformat() if value else None


def keep_time(model, pk: int, field: str, moment) -> None:
    """Restore a creation time the model sets by itself (``auto_now_add``), when known."""
    if moment is not None:
        model.objects.filter(pk=pk).update(**{field: moment})
