"""What every arbiter page shares: the template context and how a refusal is shown."""

from __future__ import annotations

from django.contrib import messages


def context(event, **extra):
    """The template context of an arbiter page (the menu shows the arbiter's links)."""
    return {"event": event, "is_arbiter": True, **extra}


def fail(request, exc) -> None:
    """A service's refusal as an error message on the next page."""
    messages.error(request, getattr(exc, "message", None) or str(exc))
