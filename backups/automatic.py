"""Automatic backups: the event's JSON backup written to disk as the event goes.

Every closed round and every ``AUTO_BACKUP_EVERY`` stored results write
``BACKUP_DIR/<slug>/<time>-<why>.json`` (the same document as the export page's download), so a
lost laptop or a wrong correction costs at most a few results. The newest ``AUTO_BACKUP_KEEP``
files are kept. Writing happens after the transaction commits, so a backup never holds what
was rolled back, and a full disk never refuses a result: the failure is logged instead.

A closed round's backup is owed in the closing transaction itself (``OwedBackup``): written
after the commit, the row goes with it; a server killed in between finds the row when it is
back, and the flag timer's process writes every backup owed for more than ``OWED_AFTER_S``
(``write_owed``, at each tick). The export page says which are owed.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backups.document import export_event, parse
from backups.models import OwedBackup
from tournament.models import Event, Result

log = logging.getLogger(__name__)
_NAME = re.compile(r"\d{8}T\d{6}-\d{6}-[a-z0-9-]{1,40}\.json")


@dataclass(frozen=True)
class StoredBackup:
    name: str
    size: int
    written_at: datetime
    why: str


def folder(event: Event) -> Path:
    return Path(settings.BACKUP_DIR) / event.slug


def stored(event: Event) -> list[StoredBackup]:
    """The event's automatic backups, newest first."""
    found = []
    directory = folder(event)
    if not directory.is_dir():
        return []
    for path in directory.iterdir():
        if not _NAME.fullmatch(path.name):
            continue
        stamp, _micro, why = path.stem.split("-", 2)
        found.append(StoredBackup(
            path.name, path.stat().st_size,
            datetime.strptime(stamp, "%Y%m%dT%H%M%S").replace(tzinfo=UTC), why,
        ))
    return sorted(found, key=lambda b: b.name, reverse=True)


def load(event: Event, name: str):
    """One stored backup's document; only names of the listing are accepted. A file changed
    on the disk is read like an upload (``document.parse``: ``BackupError`` if it is junk)."""
    if not _NAME.fullmatch(name):
        raise FileNotFoundError(name)
    return parse((folder(event) / name).read_bytes())


def write_now(event: Event, why: str) -> Path:
    """Write the backup at once (atomically: a reader never sees half a file), then prune."""
    directory = folder(event)
    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.now(UTC)
    name = f"{now:%Y%m%dT%H%M%S}-{now:%f}-{why}.json"
    document = json.dumps(export_event(event), ensure_ascii=False, indent=1)
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".part")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(document)
    target = directory / name
    os.replace(temporary, target)
    for old in stored(event)[settings.AUTO_BACKUP_KEEP:]:
        (directory / old.name).unlink(missing_ok=True)
    return target


def _after_commit(event_id: int, why: str) -> None:
    def write() -> None:
        try:
            write_now(Event.objects.get(pk=event_id), why)
        except Exception:  # a backup must never turn a stored result into an error page
            log.exception("automatic backup of event %s failed", event_id)

    transaction.on_commit(write)


def round_closed(sender, *, event: Event, number: int, **kwargs) -> None:
    """Receiver of ``tournament.signals.round_closed``: every closed round backs up; the
    backup is owed in the closing transaction, and written once it commits."""
    owed = OwedBackup.objects.create(event=event, why=f"round-{number}-closed")

    def write() -> None:
        try:
            write_now(Event.objects.get(pk=event.pk), owed.why)
        except Exception:  # a backup must never turn a closed round into an error page
            log.exception("automatic backup of event %s failed", event.pk)
            return
        OwedBackup.objects.filter(pk=owed.pk).delete()

    transaction.on_commit(write)


#: A backup owed this long was not written after its commit (the server died): write it now.
OWED_AFTER_S = 10


def write_owed() -> int:
    """Write the backups owed for more than ``OWED_AFTER_S`` (the flag timer's tick listener):
    the number written."""
    due = timezone.now() - timedelta(seconds=OWED_AFTER_S)
    written = 0
    for owed in OwedBackup.objects.filter(owed_at__lte=due).select_related("event"):
        with transaction.atomic():
            if not OwedBackup.objects.select_for_update().filter(pk=owed.pk).exists():
                continue  # written by the commit meanwhile, or by another process
            try:
                write_now(owed.event, owed.why)
            except Exception:
                log.exception("owed backup of event %s failed", owed.event_id)
                continue
            OwedBackup.objects.filter(pk=owed.pk).delete()
            written += 1
    return written


def result_stored(sender, *, event: Event, **kwargs) -> None:
    """Receiver of ``tournament.signals.result_stored``: every ``AUTO_BACKUP_EVERY``-th stored
    result version backs up."""
    count = Result.objects.filter(board__round__event=event).count()
    if count and count % settings.AUTO_BACKUP_EVERY == 0:
        _after_commit(event.pk, f"result-{count}")
