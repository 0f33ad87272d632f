"""The event as a FIDE TRF-16 file, for the arbiter (rating reports, other pairing programs)."""

from __future__ import annotations

from django.http import HttpResponse

from tournament.bridges import pairing_bridge
from tournament.permissions import arbiter_required


@arbiter_required
def export_trf(request, event):
    response = HttpResponse(pairing_bridge.export_trf(event),
                            content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.trf"'
    return response
