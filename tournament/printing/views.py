"""The print menu (arbiter) and the PDF download (public or arbiter, by document).

Who may print what: pairings of published rounds, standings (when the event publishes them) and
the crosstable are public; drafted pairings are the arbiter's. Scoresheets and slips carry the
boards' secret tokens in their QR codes, so only the event's arbiters may print them.
"""

from __future__ import annotations

from csp.decorators import csp_exempt
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from tournament.bridges import standings_bridge
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Event, Round
from tournament.permissions import arbiter_required, visible_rounds
from tournament.printing import documents
from tournament.printing.common import PAPERS
from tournament.printing.data import PrintError
from tournament.site import site_address


def _paper(request) -> str:
    paper = request.GET.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise Http404(_("Unknown paper %(paper)r; choose one of: %(valid)s.")
                      % {"paper": paper, "valid": ", ".join(PAPERS)})
    return paper


@csp_exempt()
def print_document(request, slug: str, document: str):
    """One document as a PDF shown inline (the browser's viewer prints it).

    Without the Content-Security-Policy of the pages: a PDF runs none of the site's scripts,
    and a browser may count its own PDF viewer as the plugin ``object-src 'none'`` refuses.
    """
    event = get_object_or_404(Event, slug=slug)
    try:
        spec = documents.get_document(document)
    except PrintError as exc:
        raise Http404(str(exc)) from exc
    is_arbiter = event.is_arbiter(request.user)
    if spec.arbiter_only and not is_arbiter:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("Only the event's arbiters may print this document."))
    if spec.name in ("standings", "crosstable") and not (event.publish_standings or is_arbiter):
        raise Http404(_("The standings of this event are not published."))
    paper = _paper(request)
    try:
        number = documents.resolve_round(event, spec.name, whole_number(
            request.GET.get("round"), label=_("Round"), column=column_range(Round, "number"),
            required=False))
    except PrintError as exc:
        raise Http404(str(exc)) from exc
    if spec.name == "pairings" and not visible_rounds(event, request.user).filter(
            number=number).exists():
        raise Http404(_("The pairings of round %(n)d are not published.") % {"n": number})
    pdf = documents.render(event, spec.name, number, paper=paper,
                           base_url=site_address.base_url(request))
    response = HttpResponse(pdf, content_type="application/pdf")
    if spec.arbiter_only:  # scoresheets and slips: every board's QR code holds its token
        add_never_cache_headers(response)
    shown = number if spec.round_required or number else None
    response["Content-Disposition"] = (
        f'inline; filename="{documents.filename(event, spec.name, shown)}"'
    )
    return response


@arbiter_required
def print_menu(request, event: Event):
    """Every document of every round, one click each, for A4 or US Letter."""
    paper = _paper(request)
    rounds = list(event.rounds.order_by("number"))
    return render(request, "tournament/arbiter/print.html", {
        "event": event,
        "is_arbiter": True,
        "rounds": rounds,
        "complete": standings_bridge.complete_rounds(event),
        "paper": paper,
        "papers": [("a4", "A4"), ("letter", _("US Letter"))],
        "qr_base": site_address.base_url(request),
        "unreachable": site_address.unreachable_warning(request),
    })
