"""Export and import of whole events (JSON backup, FIDE TRF) for arbiters."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament import backup, pairing_bridge
from tournament.permissions import arbiter_required

MAX_BACKUP_BYTES = 20 * 1024 * 1024


@arbiter_required
def export_page(request, event):
    return render(request, "tournament/arbiter/export.html", {"event": event, "is_arbiter": True})


@arbiter_required
def export_json(request, event):
    response = JsonResponse(backup.export_event(event), json_dumps_params={"indent": 1,
                                                                           "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
    return response


@arbiter_required
def export_trf(request, event):
    response = HttpResponse(pairing_bridge.export_trf(event),
                            content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.trf"'
    return response


@login_required
@permission_required("tournament.add_event", raise_exception=True)
def import_json(request):
    """Organisers only, like creating an event; the importer becomes the event's arbiter
    (arbiters named in the file are ignored, see ``backup.import_event``)."""
    if request.method == "POST":
        upload = request.FILES.get("backup")
        if upload is None:
            messages.error(request, _("Choose a backup file."))
        elif upload.size > MAX_BACKUP_BYTES:
            messages.error(request, _("The file is larger than 20 MB."))
        else:
            try:
                data = json.loads(upload.read().decode("utf-8"))
                event = backup.import_event(data, slug=request.POST.get("slug") or None,
                                            arbiter=request.user)
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                messages.error(request, _("The file is not JSON: %(err)s") % {"err": exc})
            except backup.BackupError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Event imported."))
                return redirect("arbiter_dashboard", event.slug)
    return render(request, "tournament/arbiter/import.html", {})
