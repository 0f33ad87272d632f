"""The last net under every view: a refused action is a 4xx with its message, never a 500.

The service layer refuses with one type, ``ServiceError`` (its kinds: ``InvalidResult``,
``InvalidInput``, ``StaleResult``, ``NeedsConfirmation``). Views catch it and show it in their
forms. Anything that slips through (a concurrent correction's ``StaleResult`` on a page that did
not expect it) still reaches the person as what it is: unusable input (422) or a conflict with
the current state (409), as ``{"ok": false, "error": …}`` for the API (the shape of every JSON
error of the product) and as a page for everyone else.

A number or date that ``tournament.inputs.request_input`` refuses is a 400 with its message (under
``/api/`` in the API's error shape, with its ``code``): every view reads those through it.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render

from tournament.inputs.request_input import InputRefused
from tournament.services.errors import InvalidResult, ServiceError
from tournament.services.validation import InvalidInput


class RefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, InputRefused):
            return input_refused(request, exception)
        if not isinstance(exception, ServiceError):
            return None
        status = 422 if isinstance(exception, InvalidResult | InvalidInput) else 409
        message = getattr(exception, "message", None) or str(exception)
        if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
            return JsonResponse({"ok": False, "error": message}, status=status)
        return render(request, "refused.html", {"message": message}, status=status)


def input_refused(request, refused: InputRefused):
    """The 400 of a refused number or date: the API's error shape, else the refusal page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"ok": False, "error": {"line": None, "code": refused.code,
                                                    "message": refused.message}}, status=400)
    return render(request, "refused.html", {"message": refused.message}, status=400)
