"""The event's history: one function that writes it, for every service that changes the event."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from tournament.models import Event, HistoryEntry
from tournament.services.validation import checked
from tournament.texts import event_texts


def log_change(event: Event, action: str, details: dict, *, user=None,
               reason: str = "") -> HistoryEntry:
    """Keep who changed what and why.

    ``details`` say what happened (enough for ``event_texts`` to make the sentence in each
    reader's language) and hold what the change removed, if anything; the summary is stored in
    the site's language for the backup file and for tools that read the table.
    """
    known_user = user if user is not None and getattr(user, "is_authenticated", False) else None
    with translation.override(settings.LANGUAGE_CODE):
        summary = event_texts.sentence(action, details)
    entry = checked(HistoryEntry(
        event=event, action=action, summary=summary[:300], reason=reason.strip(),
        user=known_user, user_label=known_user.get_username() if known_user else "",
        details=details,
    ), exclude=["event", "user"])
    entry.save()
    return entry
