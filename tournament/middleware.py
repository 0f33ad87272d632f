"""The last net under every view: a refused action is a 4xx with its message, never a 500.

Views catch the service errors they expect and show them in their forms. Anything that slips
through (a concurrent correction's ``StaleResult`` on a page that did not expect it, a result
the outcome rule refuses) still reaches the person as what it is: a conflict (409) or an
unusable input (422), in JSON for the API and as a page for everyone else.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render

from tournament.outcome import ResultError
from tournament.services.errors import ServiceError


class RefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, ServiceError):
            status = 409
        elif isinstance(exception, ResultError):
            status = 422
        else:
            return None
        message = getattr(exception, "message", None) or str(exception)
        if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
            return JsonResponse({"error": message}, status=status)
        return render(request, "refused.html", {"message": message}, status=status)
