"""The event's history: one function that writes it, for every service that changes the event."""

from __future__ import annotations

from tournament.models import Event, HistoryEntry
from tournament.services.validation import checked


def log_change(event: Event, action: str, summary: str, *, user=None, reason: str = "",
               details: dict | None = None) -> HistoryEntry:
    """Keep who changed what and why; ``details`` holds what the change removed, if anything."""
    known_user = user if user is not None and getattr(user, "is_authenticated", False) else None
    entry = checked(HistoryEntry(
        event=event, action=action, summary=summary[:300], reason=reason.strip(),
        user=known_user, user_label=known_user.get_username() if known_user else "",
        details=details or {},
    ), exclude=["event", "user"])
    entry.save()
    return entry
