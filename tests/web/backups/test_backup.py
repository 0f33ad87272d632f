"""Whole-event export and import (JSON backup) and the TRF export."""

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from backups import document
from tournament.bridges import standings_bridge
from tournament.models import Event
from tournament.pairing import import_trf

pytestmark = pytest.mark.django_db


def test_export_import_export_is_identical(played_event):
    first = document.export_event(played_event)
    copy = document.import_event(json.loads(json.dumps(first)), slug="played-copy")
    second = document.export_event(copy)
    second["event"]["slug"] = first["event"]["slug"]
    # a copy beside the original on one server gets new board tokens and player card keys;
    # all else is equal
    for export in (first, second):
        for round_ in export["rounds"]:
            for board in round_["boards"]:
                assert len(board.pop("token")) >= 20
        for player in export["players"]:
            for card in player["cards"]:
                assert len(card.pop("key")) == 6
    assert second == first


def test_a_backup_keeps_board_tokens_when_they_are_free(played_event):
    data = document.export_event(played_event)
    tokens = sorted(b["token"] for r in data["rounds"] for b in r["boards"])
    Event.objects.filter(pk=played_event.pk).delete()
    restored = document.export_event(document.import_event(data))
    assert sorted(b["token"] for r in restored["rounds"] for b in r["boards"]) == tokens
    assert restored == data


def test_the_late_entries_vp_travels_and_older_backups_keep_the_default(played_event):
    from decimal import Decimal

    Event.objects.filter(pk=played_event.pk).update(late_entry_vp=Decimal("0.5"))
    data = document.export_event(Event.objects.get(pk=played_event.pk))
    assert data["event"]["late_entry_vp"] == "0.5"
    assert document.import_event(data, slug="half").late_entry_vp == Decimal("0.5")
    del data["event"]["late_entry_vp"]  # a backup written before the setting existed
    assert document.import_event(data, slug="older").late_entry_vp == Decimal("0")


def test_an_imported_event_has_the_same_standings(played_event):
    copy = document.import_event(document.export_event(played_event), slug="played-copy")
    original = [(r.place, r.name, r.vp) for r in standings_bridge.standings(played_event, 2)]
    imported = [(r.place, r.name, r.vp) for r in standings_bridge.standings(copy, 2)]
    assert original == imported


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d.update(format="something"), "not an event backup"),
        (lambda d: d.update(version=99), "not supported"),
        (lambda d: d["players"][0].pop("name"), "not a valid event backup"),
    ],
)
def test_a_bad_backup_is_refused_and_writes_nothing(played_event, mangle, message):
    data = document.export_event(played_event)
    data["event"]["slug"] = "bad-copy"
    mangle(data)
    with pytest.raises(document.BackupError, match=message):
        document.import_event(data)
    assert not Event.objects.filter(slug="bad-copy").exists()


def test_importing_over_an_existing_slug_is_refused(played_event):
    with pytest.raises(document.BackupError, match="already exists"):
        document.import_event(document.export_event(played_event))


def test_commands_round_trip(played_event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", played_event.slug, output=str(path))
    call_command("import_event", str(path), slug="from-file")
    assert Event.objects.get(slug="from-file").players.count() == 12


def test_trf_export_reads_back_with_the_results_so_far(played_event, arbiter_client):
    response = arbiter_client.get(reverse("arbiter_export_trf", args=[played_event.slug]))
    text = response.content.decode()
    event = import_trf(text)
    assert event.rounds_played == 2 and len(event.players) == 12
    table = standings_bridge.standings(played_event, 2)
    by_name = {row.name: float(row.vp) for row in table}
    assert {p.name: event.points(p.number) for p in event.players} == by_name
    # the rank column (86-89) is the standings' rank, tiebreaks included (#37)
    ranks = {line[14:47].strip(): int(line[85:89]) for line in text.splitlines()
             if line.startswith("001")}
    assert ranks == {row.name: row.rank for row in table}


def test_the_import_page_creates_an_event(arbiter_client, played_event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = json.dumps(document.export_event(played_event)).encode()
    upload = SimpleUploadedFile("event.json", data, content_type="application/json")
    response = arbiter_client.post(reverse("event_import"), {"backup": upload, "slug": "copy2"})
    assert response.status_code == 302
    assert Event.objects.get(slug="copy2").arbiters.filter(username="arbiter1").exists()
    bad = SimpleUploadedFile("event.json", b"{not json", content_type="application/json")
    page = arbiter_client.post(reverse("event_import"), {"backup": bad}, follow=True)
    assert b"not a readable backup: not valid JSON" in page.content


def test_the_rule_for_unplayed_rounds_travels_and_older_files_keep_adding_nothing(played_event):
    """Version 5 carries the event's rule for unplayed rounds in the colour tiebreaks; a file
    written before it reads back with "nothing", the rule its standings were computed by; a
    crafted value is refused by name and writes nothing."""
    data = document.export_event(played_event)
    assert data["version"] == document.VERSION and data["event"]["unplayed_colours"] == "widest"
    copy_ = document.import_event(json.loads(json.dumps(data)), slug="copy-widest")
    assert copy_.unplayed_colours == "widest"
    assert document.export_event(copy_)["event"]["unplayed_colours"] == "widest"

    older = json.loads(json.dumps(data))
    older["version"] = 4
    del older["event"]["unplayed_colours"]
    restored = document.import_event(older, slug="older")
    assert restored.unplayed_colours == "nothing"
    assert any("add nothing" in note for note in standings_bridge.reading_notes(restored))

    crafted = json.loads(json.dumps(data))
    crafted["event"]["unplayed_colours"] = "generous"
    count = Event.objects.count()
    with pytest.raises(document.BackupError, match="unplayed_colours"):
        document.import_event(crafted, slug="crafted")
    assert Event.objects.count() == count


def test_the_pairing_edition_travels_and_older_files_keep_pairing_by_2017(played_event):
    """Version 6 carries the event's edition of the FIDE (Dutch) System and what paired each
    round; a file written before it was paired by the 2017 edition and goes on by it; a
    crafted edition is refused by name and writes nothing."""
    round_ = played_event.rounds.get(number=1)
    round_.paired_by = "bbpairings:2025"
    round_.save(update_fields=["paired_by"])
    data = document.export_event(played_event)
    assert data["event"]["pairing_edition"] == "2025"
    assert data["rounds"][0]["paired_by"] == "bbpairings:2025"
    copy_ = document.import_event(json.loads(json.dumps(data)), slug="copy-2025")
    assert copy_.pairing_edition == "2025"
    assert copy_.rounds.get(number=1).paired_by == "bbpairings:2025"

    older = json.loads(json.dumps(data))
    older["version"] = 5
    del older["event"]["pairing_edition"]
    for round_data in older["rounds"]:
        del round_data["paired_by"]
    restored = document.import_event(older, slug="older-2017")
    assert restored.pairing_edition == "2017"
    assert restored.rounds.get(number=1).paired_by == ""

    crafted = json.loads(json.dumps(data))
    crafted["event"]["pairing_edition"] = "1992"
    count = Event.objects.count()
    with pytest.raises(document.BackupError, match="pairing_edition"):
        document.import_event(crafted, slug="crafted-edition")
    assert Event.objects.count() == count


@pytest.mark.parametrize(("value", "message"), [
    ({"99": "1"}, r"rounds\[1\]\.paired_on\.99: no player has pairing number 99"),
    ({"²": "1"}, r"rounds\[1\]\.paired_on\.²: no player has pairing number"),
    ({"1": 1.5}, r"rounds\[1\]\.paired_on\.1: expected VP as text"),
    ({"1": "0.3"}, r"rounds\[1\]\.paired_on\.1: VP must be 0 to 99 in halves"),
    ({"1": "nan"}, r"rounds\[1\]\.paired_on\.1: 'nan' is not a number"),
    (["1"], r"rounds\[1\]\.paired_on: expected an object"),
])
def test_a_crafted_paired_on_is_refused_by_name(played_event, value, message):
    data = document.export_event(played_event)
    assert data["rounds"][1]["paired_on"]  # round 2 keeps what it was paired on
    data["rounds"][1]["paired_on"] = value
    count = Event.objects.count()
    with pytest.raises(document.BackupError, match=message):
        document.import_event(data, slug="crafted")
    assert Event.objects.count() == count
