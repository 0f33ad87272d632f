"""Export and import of whole events (JSON backup, FIDE TRF) for arbiters."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import autobackup, backup, pairing_bridge, services
from tournament.permissions import arbiter_required

MAX_BACKUP_BYTES = 20 * 1024 * 1024


@arbiter_required
def export_page(request, event):
    return render(request, "tournament/arbiter/export.html", {
        "event": event, "is_arbiter": True, "backups": autobackup.stored(event),
        "may_restore": request.user.has_perm("tournament.add_event"),
    })


@arbiter_required
@require_POST
def restore_backup(request, event, name):
    """An automatic backup becomes a new event (the organiser's right, as for any import)."""
    if not request.user.has_perm("tournament.add_event"):
        messages.error(request, _("Restoring a backup creates an event: that needs the "
                                  "organiser permission."))
        return redirect("arbiter_export", event.slug)
    try:
        data = autobackup.load(event, name)
    except (FileNotFoundError, json.JSONDecodeError) as exc:
        raise Http404(_("No such backup.")) from exc
    try:
        copy = backup.import_event(data, slug=services.unique_slug(f"{event.slug}-restored"),
                                   arbiter=request.user)
    except backup.BackupError as exc:
        messages.error(request, str(exc))
        return redirect("arbiter_export", event.slug)
    messages.success(request, _("Backup %(name)s restored as a new event.") % {"name": name})
    return redirect("arbiter_dashboard", copy.slug)


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
