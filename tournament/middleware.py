"""The last net under every view: a refused action is a 4xx with its message, never a 500.

The service layer refuses with one type, ``ServiceError`` (its kinds: ``InvalidResult``,
``InvalidInput``, ``StaleResult``, ``NeedsConfirmation``). Views catch it and show it in their
forms. Anything that slips through (a concurrent correction's ``StaleResult`` on a page that did
not expect it) still reaches the person as what it is: unusable input (422) or a conflict with
the current state (409), as ``{"ok": false, "error": …}`` for the API (the shape of every JSON
error of the product) and as a page for everyone else.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render

from tournament.services.errors import InvalidResult, ServiceError
from tournament.services.validation import InvalidInput


class RefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, ServiceError):
            return None
        status = 422 if isinstance(exception, InvalidResult | InvalidInput) else 409
        message = getattr(exception, "message", None) or str(exception)
        if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
            return JsonResponse({"ok": False, "error": message}, status=status)
        return render(request, "refused.html", {"message": message}, status=status)
