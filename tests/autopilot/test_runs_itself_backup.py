"""A self-running event in a backup (version 8): the automatic backup of a closed round,
restored from the export page, brings back the players' logins, the automation (paused, for
the arbiter to resume) and the registrations; the restored event then runs on by itself. A
crafted file gets each fault with its path and writes nothing."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autopilot import services as autopilot
from autopilot.models import Autopilot, Registration
from backups import automatic, document
from tests.autopilot.helpers import MINUTE, make_event, resign_all, tick
from tests.autopilot.test_runs_itself_pages import signup
from tests.web.backups.backup_fuzz import imported_whole_or_refused, spoiled
from tournament.models import Event, HistoryEntry, PlayerLogin, Round

pytestmark = pytest.mark.django_db


def test_runs_itself_restored_from_its_automatic_backup_paused_then_runs_on(
        clock_time, django_capture_on_commit_callbacks):
    event = make_event(clock_time, players=5, rounds=3, approval=True, late_until_round=2)
    arbiter = event.arbiters.get()
    arbiter.user_permissions.add(Permission.objects.get(codename="add_event"))
    player = Client()
    assert player.post(reverse("autopilot_register", args=[event.slug]),
                       signup(name="Ada Early", username="ada")).status_code == 302
    autopilot.decide(Registration.objects.get(name="Ada Early"), accept=True, user=arbiter)
    tick(clock_time, 10 * MINUTE)
    waiting = Client()
    assert waiting.post(reverse("autopilot_register", args=[event.slug]),
                        signup(name="Walt Waits", username="walt")).status_code == 302
    resign_all(event, 1)
    with django_capture_on_commit_callbacks(execute=True):
        tick(clock_time, 1000)  # round 1 closes: its automatic backup
    name = automatic.stored(event)[0].name
    assert "round-1-closed" in name

    desk = Client()
    desk.force_login(arbiter)
    page = desk.post(reverse("arbiter_restore_backup", args=[event.slug, name]), follow=True)
    copy = Event.objects.get(slug=f"{event.slug}-restored")
    assert page.redirect_chain[-1][0] == reverse("arbiter_dashboard", args=[copy.slug])
    pilot = Autopilot.objects.get(event=copy)
    original = Autopilot.objects.get(event=event)
    assert [getattr(pilot, f) for f in autopilot.SETTINGS] == \
        [getattr(original, f) for f in autopilot.SETTINGS]
    assert (pilot.ended_round, pilot.ended_ms) == (1, original.ended_ms)
    assert not pilot.running and pilot.paused_reason.startswith("Restored from a backup")
    assert original.running  # the original runs on; the copy waits for the arbiter
    said = copy.history.filter(action=HistoryEntry.Action.AUTOMATIC).order_by("-pk")[0]
    assert said.summary == ("Automation paused by auto-open-arbiter: Restored from a backup: "
                            "resume it once the players can reach their games.")
    assert "Restored from a backup" in page.content.decode()  # the dashboard says so
    ada = PlayerLogin.objects.get(event=copy, user__username="ada")
    assert ada.player.name == "Ada Early" and ada.withdrawn_at is None
    assert Registration.objects.get(event=copy, name="Walt Waits").status == "waiting"
    assert Registration.objects.get(event=copy, name="Ada Early").player == ada.player
    mine = player.get(reverse("my_games")).content.decode()
    assert mine.count("Ada Early") == 2  # the original and the copy

    # the arbiter lets the copy go on and drops the original
    event.delete()
    assert desk.post(reverse("autopilot_action", args=[copy.slug, "resume"])).status_code == 302
    tick(clock_time, 5 * MINUTE)
    assert copy.rounds.get(number=2).status == Round.Status.PUBLISHED
    for number in (2, 3):
        resign_all(copy, number)
        tick(clock_time, 1000)
        tick(clock_time, 5 * MINUTE)
    assert Autopilot.objects.get(event=copy).finished_at is not None


#: The file the fuzz spoils, made once (the accounts it names are made in each test's own
#: database).
FILE: dict = {}


def _file(clock_time) -> dict:
    event = make_event(clock_time, players=4, rounds=2, slug="file-open", approval=True)
    users = get_user_model().objects
    autopilot.decide(autopilot.register(event, users.create_user("ann", password="pw-ann-39"),
                                        name="Ann Player"), accept=True,
                     user=event.arbiters.get())
    autopilot.register(event, users.create_user("bob", password="pw-bob-39"), name="Bob Waits")
    data = json.loads(json.dumps(document.export_event(event)))
    event.delete()
    return data


def test_runs_itself_in_a_backup_file_that_was_tampered_with(clock_time):
    data = _file(clock_time)
    assert data["version"] == 8 and data["automation"]["approval"] is True
    ann = next(p for p in data["players"] if p["name"] == "Ann Player")
    bad = json.loads(json.dumps(data))
    bad["automation"]["minutes"] = 100_000
    bad["automation"]["registrations"][0]["player"] = 99
    bad["automation"]["registrations"].append(dict(bad["automation"]["registrations"][1]))
    bad["players"][0]["login"] = dict(ann["login"])  # Ann's account, a second live login
    bad["automation"]["first_round_at"] = "tomorrow"
    with pytest.raises(document.BackupError) as refused:
        document.import_event(bad)
    text = str(refused.value)
    for expected in ("automation.minutes:", "automation.registrations[0].player: no player "
                     "has pairing number 99", "automation.registrations[2].user: the account "
                     "'bob' waits for approval in automation.registrations[1] too",
                     "automation.first_round_at: 'tomorrow' is not a date and time",
                     ".login.user: the account 'ann' is the login of players[0].login too"):
        assert expected in text
    assert not Event.objects.exists() and not Autopilot.objects.exists()

    # restored by the operator's command line (no importer): the accounts it names exist
    get_user_model().objects.filter(username="bob").delete()
    restored = document.import_event(data)
    assert PlayerLogin.objects.get(event=restored).user.username == "ann"
    assert list(Registration.objects.filter(event=restored).values_list("name", flat=True)) \
        == ["Ann Player"]  # Bob's account is not on this server: left out
    pilot = Autopilot.objects.get(event=restored)
    assert not pilot.running and pilot.paused_by == "backup"


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40)
    | st.sampled_from(["waiting", "accepted", "after", "fixed", "ann", "bob",
                       "2026-12-06T10:00:00+00:00", "2099-01-01T00:00:00"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["user", "status", "player", "name", "attached_at", "withdrawn_at"]),
        inner, max_size=3),
    max_leaves=10,
)
WHERE = st.lists(st.sampled_from([*autopilot.SETTINGS, "running", "paused_at", "ended_ms",
                                  "registrations", "user", "status", "player", "name",
                                  "rating", "created_at", "decided_at", "login", "attached_at",
                                  "withdrawn_at"]) | st.integers(0, 3), min_size=1, max_size=3)


def _rows():
    return [model.objects.count() for model in (Event, Autopilot, Registration, PlayerLogin,
                                                HistoryEntry)]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(junk=JUNK, start=st.sampled_from([["automation"], ["players", 0], ["players", 3]]),
       where=WHERE)
def test_runs_itself_junk_in_a_backups_automation_or_logins_is_refused_or_imported_whole(
        clock_time, junk, start, where):
    """Whatever lands in the automation, its registrations or a player's login, the file is
    refused with ``BackupError`` and nothing written, or imported whole."""
    if "data" not in FILE:
        with transaction.atomic():
            FILE["data"] = _file(clock_time)
            transaction.set_rollback(True)
    for name in ("ann", "bob"):
        get_user_model().objects.get_or_create(username=name)
    data = FILE["data"]
    event = imported_whole_or_refused(spoiled(data, start, where, junk), _rows)
    if event is not None:
        event.delete()
