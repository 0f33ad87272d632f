"""The event's history: one function that writes it, for every service that changes the event."""

from __future__ import annotations

from tournament.models import Event, HistoryEntry


def log_change(event: Event, action: str, summary: str, *, user=None, reason: str = "",
               details: dict | None = None) -> HistoryEntry:
    """Keep who changed what and why; ``details`` holds what the change removed, if anything."""
    known_user = user if user is not None and getattr(user, "is_authenticated", False) else None
    return HistoryEntry.objects.create(
        event=event, action=action, summary=summary[:300], reason=reason.strip()[:300],
        user=known_user, user_label=known_user.get_username() if known_user else "",
        details=details or {},
    )
