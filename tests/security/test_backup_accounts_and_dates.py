"""Doors of the backup import found by a hostile organiser's files: a date without its time
zone (a 500 that imported nothing), and accounts attached by a file (a waiting registration
for the importer's own account, a login for any account of the server). Every date of a file
is read in one place with its path in the error; a login is attached only by its owner."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.dateparse import parse_datetime

from autopilot.models import Autopilot, Registration
from backups import document
from tests.accounts import make_organiser
from tests.autopilot.test_runs_itself_backup import _file  # a login and a waiting registration
from tournament.models import Event, PlayerLogin

pytestmark = pytest.mark.django_db


def _moments(node, path=""):
    """Every date and time of the document, with its path as the reader names it."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _moments(value, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _moments(value, f"{path}[{index}]")
    elif isinstance(node, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)", node):
        yield path, node


def _set(data, path, value):
    parts = re.findall(r"[^.\[\]]+", path)
    node = data
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    last = parts[-1]
    node[int(last) if last.isdigit() else last] = value


def test_backup_every_date_without_its_time_zone_is_refused_at_its_path(clock_time):
    data = _file(clock_time)
    moments = list(_moments(data))
    assert any(path == "automation.first_round_at" for path, _ in moments)
    assert len(moments) >= 8
    for path, text in moments:
        naive = parse_datetime(text).replace(tzinfo=None).isoformat()
        spoiled = json.loads(json.dumps(data))
        _set(spoiled, path, naive)
        with pytest.raises(document.BackupError) as refused:
            document.import_event(spoiled)
        assert f"{path}: '{naive}' has no time zone" in str(refused.value), path
        assert not Event.objects.exists()
    far = json.loads(json.dumps(data))
    _set(far, "automation.first_round_at", "0001-01-01T00:00:00+05:00")
    with pytest.raises(document.BackupError, match=r"automation\.first_round_at: "
                                                   r"'0001-01-01T00:00:00\+05:00' is not a date"):
        document.import_event(far)


def test_backup_uploaded_attaches_no_account_not_even_the_importers(clock_time):
    """The organiser's crafted file: a waiting registration for the organiser's own account and
    a login for another account of the server. Imported, the event has neither, and the
    organiser is told; accepting anything cannot make the organiser a player."""
    data = _file(clock_time)
    organiser = make_organiser(get_user_model().objects.create_user(
        "orga", password="pw-orga-39"))
    data["automation"]["registrations"][1]["user"] = "orga"  # the waiting one
    desk = Client()
    desk.force_login(organiser)
    crafted = SimpleUploadedFile("crafted.json", json.dumps(data).encode(),
                                 content_type="application/json")
    page = desk.post(reverse("event_import"), {"backup": crafted}, follow=True).content.decode()
    event = Event.objects.get()
    assert "a file attaches no account" in page
    assert not PlayerLogin.objects.filter(event=event).exists()
    assert not Registration.objects.filter(event=event).exists()
    assert not Registration.objects.filter(user__username="orga").exists()
    ann = Client()
    ann.force_login(get_user_model().objects.get(username="ann"))
    assert event.name not in ann.get(reverse("my_games")).content.decode()


def test_backup_restored_by_the_operator_never_makes_an_arbiter_a_player(clock_time):
    """The operator's command line gives the logins and registrations back, but not to an
    account that arbitrates the event."""
    data = _file(clock_time)
    data["event"]["arbiters"] = ["ann", "bob"]
    restored = document.import_event(data)
    assert set(restored.arbiters.values_list("username", flat=True)) == {"ann", "bob"}
    assert not PlayerLogin.objects.filter(event=restored).exists()
    assert not Registration.objects.filter(event=restored).exists()
    assert Autopilot.objects.filter(event=restored).exists()
