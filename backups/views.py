"""Whole-event backups for arbiters: the export page (JSON download, automatic backups and
their restore) and the import of a backup as a new event."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from backups import automatic, document
from tournament import services
from tournament.permissions import arbiter_required

MAX_BACKUP_BYTES = 20 * 1024 * 1024


@arbiter_required
def export_page(request, event):
    return render(request, "backups/export.html", {
        "event": event, "is_arbiter": True, "backups": automatic.stored(event),
        "owed": event.owed_backups.order_by("owed_at"),
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
    try:  # a stored file is read and checked like an upload: it may have been changed on disk
        copy = document.import_event(automatic.load(event, name),
                                     slug=services.unique_slug(f"{event.slug}-restored"),
                                     arbiter=request.user)
    except FileNotFoundError as exc:
        raise Http404(_("No such backup.")) from exc
    except document.BackupError as exc:
        messages.error(request, str(exc))
        return redirect("arbiter_export", event.slug)
    messages.success(request, _("Backup %(name)s restored as a new event.") % {"name": name})
    return redirect("arbiter_dashboard", copy.slug)


@arbiter_required
def export_json(request, event):
    response = JsonResponse(document.export_event(event), json_dumps_params={"indent": 1,
                                                                           "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
    return response


@login_required
@permission_required("tournament.add_event", raise_exception=True)
def import_json(request):
    """Organisers only, like creating an event; the importer becomes the event's arbiter
    (arbiters named in the file are ignored, see ``document.import_event``)."""
    if request.method == "POST":
        upload = request.FILES.get("backup")
        if upload is None:
            messages.error(request, _("Choose a backup file."))
        elif upload.size > MAX_BACKUP_BYTES:
            messages.error(request, _("The file is larger than 20 MB."))
        else:
            try:
                data = document.parse(upload.read())
                event = document.import_event(data, slug=request.POST.get("slug") or None,
                                              arbiter=request.user, attach_accounts=False)
            except document.BackupError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Event imported."))
                named = document.accounts_named(data)
                if named:
                    messages.warning(request, ngettext(
                        "The file names %(n)d player login or registration: a file attaches "
                        "no account (a login is attached only by its owner). Invite the "
                        "players again from the players page.",
                        "The file names %(n)d player logins or registrations: a file attaches "
                        "no account (a login is attached only by its owner). Invite the "
                        "players again from the players page.", named) % {"n": named})
                return redirect("arbiter_dashboard", event.slug)
    return render(request, "backups/import.html", {})
