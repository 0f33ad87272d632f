"""A closed round's backup is owed in the closing transaction: a server killed right after
the commit (the file never written) finds it owed when it is back, the export page says so,
and the flag timer's process writes it."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backups import automatic
from backups.models import OwedBackup
from clocks import flagtimer
from tournament import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_closed_rounds_backup_is_owed_until_written_follows_the_event(monkeypatch, settings,
                                                                        tmp_path):
    settings.BACKUP_DIR = tmp_path
    arbiter = get_user_model().objects.create_user("owedarbiter", password="pw-owed-1")
    event = services.create_event(name="Owed", slug="owed-backup", arbiter=arbiter)
    for name in ("Ann", "Bob"):
        services.add_player(event, name=name)
    round_ = services.publish_round(services.pair_next_round(event))
    services.record_result(round_.boards.get(), "forfeit", loser_seat="second",
                           source="arbiter")
    killed = []
    monkeypatch.setattr(automatic, "write_now", lambda *a: killed.append(a) or 1 / 0)
    services.close_round(round_)  # the server "dies" as it writes the file
    assert killed and automatic.stored(event) == []
    owed = OwedBackup.objects.get(event=event)
    assert owed.why == "round-1-closed"
    client = Client()
    client.force_login(arbiter)
    page = client.get(reverse("arbiter_export", args=[event.slug])).content.decode()
    assert "the backup after round-1-closed is not written yet" in page
    monkeypatch.undo()
    settings.BACKUP_DIR = tmp_path
    OwedBackup.objects.filter(pk=owed.pk).update(
        owed_at=timezone.now() - datetime.timedelta(seconds=automatic.OWED_AFTER_S + 1))
    flagtimer.tick()  # the restarted server's timer: its listeners run in line here
    [written] = automatic.stored(event)
    assert written.why == "round-1-closed" and not OwedBackup.objects.exists()
    page = client.get(reverse("arbiter_export", args=[event.slug])).content.decode()
    assert "not written yet" not in page and "round-1-closed" in page
