"""The pages of "not found" and "server error", in the site's style and the reader's language.

``make run`` serves the hall's network with ``DEBUG`` off, so a mistyped address shows these
instead of Django's debug page (which lists every URL and setting to anyone on the network).
A 404 raised with a sentence of ours ("The pairings of round 3 are not published.") shows the
sentence; one from the URL resolver or ``get_object_or_404`` shows a plain "no such page".
"""

from __future__ import annotations

from django.shortcuts import render


def not_found(request, exception=None):
    message = exception.args[0] if exception is not None and exception.args else None
    if not isinstance(message, str) or message.endswith("matches the given query."):
        message = None  # the resolver's details, or get_object_or_404's untranslated words
    return render(request, "404.html", {"message": message}, status=404)
