"""Probes of issue #21, "Backups": junk in a backup file is refused with its path, whole, and
a stored record that does not replay never takes the game's pages down.

Each used to be a lasting 500 (a garbage record text imported, then its viewer and downloads
crashing) or a 500 at the import itself (a lone surrogate, a deep nest, a NUL on PostgreSQL).
They run on whichever database the suite is given (SQLite, and PostgreSQL in CI).
"""

from __future__ import annotations

import html
import io
import json
import random
import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backups import automatic, document
from backups.reader import MAX_DEPTH
from games import simulation
from games.models import GameRecord
from tests.web.backups.backup_fuzz import imported_whole_or_refused, spoiled
from tournament.models import Event, HistoryEntry, Player

pytestmark = pytest.mark.django_db

COPY = "junk-copy"


@pytest.fixture
def played(organiser):
    """Four players, round 1 played by the engine (so with game records) and an entry in
    the history."""
    rng = random.Random(21)
    event = simulation.create_event("Junk Open", 4, rng, arbiter=organiser)
    simulation.run(event, rng, rounds=1)
    HistoryEntry.objects.create(event=event, action=HistoryEntry.Action.PAIRING_EDITED,
                                summary="kept",
                                details={"note": "a plain value"})
    return event


@pytest.fixture
def backup(played):
    data = document.export_event(played)
    data["event"]["slug"] = COPY
    return data


def _first_record(data: dict) -> dict:
    return next(record for r in data["rounds"] for b in r["boards"] for record in b["records"])


def _first_record_path(data: dict) -> str:
    for r_index, round_ in enumerate(data["rounds"]):
        for b_index, board in enumerate(round_["boards"]):
            if board["records"]:
                return f"rounds[{r_index}].boards[{b_index}].records[0]"
    raise AssertionError("the played round has no record")


def _last_entry(data: dict) -> tuple[dict, str]:
    """The history entry the fixture added, and its path in the file."""
    return data["history"][-1], f"history[{len(data['history']) - 1}]"


def _refused(data, *says: str) -> str:
    """The refusal of ``data``, which must name every one of ``says`` and store nothing."""
    events, records = Event.objects.count(), GameRecord.objects.count()
    with pytest.raises(document.BackupError) as refused:
        document.import_event(data)
    assert (Event.objects.count(), GameRecord.objects.count()) == (events, records)
    text = str(refused.value)
    for part in says:
        assert part in text
    return text


def _upload(client, body: bytes):
    upload = io.BytesIO(body)
    upload.name = "event.json"
    return client.post(reverse("event_import"), {"backup": upload}, follow=True)


def test_the_untouched_backup_imports_with_its_records(backup, played):
    copy = document.import_event(backup)
    assert GameRecord.objects.filter(board__round__event=copy).count() == \
        GameRecord.objects.filter(board__round__event=played).count() > 0


def test_a_garbage_record_text_is_refused_with_its_path(backup):
    _first_record(backup)["text"] = "this is not a game"
    _refused(backup, f"{_first_record_path(backup)}.text: line 1")


def test_a_record_whose_moves_do_not_replay_is_refused_with_its_path(backup):
    record = _first_record(backup)
    lines = record["text"].splitlines()
    lines[-1] = lines[-1].replace("A ", "B ", 1) if " A " in lines[-1] else \
        lines[-1].replace("B ", "A ", 1)
    record["text"] = "\n".join(lines) + "\n"
    _refused(backup, f"{_first_record_path(backup)}.text: line {len(lines)}: wrong seat to act")


def test_a_record_that_verifies_must_carry_its_own_digest_and_summary(backup):
    record = _first_record(backup)
    record["digest"] = "0" * 64
    record["summary"] = {**record["summary"], "swaps": 99}
    path = _first_record_path(backup)
    _refused(backup, f"{path}.digest: does not match", f"{path}.summary: does not match")


def test_a_result_taken_from_a_record_must_have_the_records_scores(backup):
    """A verified record beside a made-up result of its board (the two seats' scores and VP
    swapped, so that the VP still follow from the scores) is refused."""
    for r_index, round_ in enumerate(backup["rounds"]):
        for b_index, board in enumerate(round_["boards"]):
            for x_index, result in enumerate(board["results"]):
                if result["source"] == "record" and result["first_vp"] != result["second_vp"]:
                    result["first_scores"], result["second_scores"] = \
                        result["second_scores"], result["first_scores"]
                    result["first_vp"], result["second_vp"] = \
                        result["second_vp"], result["first_vp"]
                    path = f"rounds[{r_index}].boards[{b_index}].results[{x_index}]"
                    text = _refused(backup, f"{path}.record: the scores are not those of "
                                            f"record {result['record']}")
                    assert "do not follow" not in text
                    return
    raise AssertionError("no decided game in the played round")


def test_a_record_not_in_the_stored_form_is_refused(backup):
    record = _first_record(backup)
    record["text"] = record["text"].replace("\n", "\n\n", 1)
    _refused(backup, f"{_first_record_path(backup)}.text: not written as the server stores")


def test_a_lone_surrogate_in_a_name_is_refused_with_its_path(backup, organiser, client):
    backup["players"][2]["name"] = "Ada \ud800"
    _refused(backup, "players[2].name: holds a lone surrogate (\\ud800)")
    client.force_login(organiser)
    page = _upload(client, json.dumps(backup).encode())  # "\ud800" escaped, as JSON allows
    assert page.status_code == 200
    assert "players[2].name" in page.content.decode()
    assert not Event.objects.filter(slug=COPY).exists()


def test_a_lone_surrogate_in_a_key_is_refused_and_the_refusal_is_printable(backup):
    entry, path = _last_entry(backup)
    entry["details"] = {"x\udfff": 1}
    text = _refused(backup, f"{path}.details.x\\udfff: holds a lone surrogate")
    text.encode("utf-8")  # the message itself reaches a page


def test_a_nul_in_history_details_is_refused_with_its_path(backup):
    entry, path = _last_entry(backup)
    entry["details"] = {"note": "before\x00after"}
    _refused(backup, f"{path}.details.note: holds a NUL character")


def test_a_deep_nest_is_refused_with_its_path(backup):
    deep: list = []
    inner = deep
    for _ in range(200_000):
        inner.append([])
        inner = inner[0]
    entry, path = _last_entry(backup)
    entry["details"] = {"deep": deep}
    _refused(backup, f"{path}.details.deep" + "[0]" * (MAX_DEPTH - 4),
             f"nested more than {MAX_DEPTH} levels deep")


def test_a_200000_deep_file_is_refused(backup, organiser, client):
    text = json.dumps(backup).replace('"a plain value"', "[" * 200_000 + "]" * 200_000)
    with pytest.raises(document.BackupError, match=f"nested deeper than {MAX_DEPTH} levels"):
        document.parse(text.encode())
    client.force_login(organiser)
    page = _upload(client, text.encode())
    assert page.status_code == 200
    assert f"nested deeper than {MAX_DEPTH} levels" in page.content.decode()
    assert not Event.objects.filter(slug=COPY).exists()


@pytest.mark.parametrize(("body", "says"), [
    (b'{"format": NaN}', "NaN is not a JSON number (at $.format)"),
    (b'{"format": ' + b"9" * 5000 + b"}", "an integer of 5,000 digits (at most 19) (at $.format)"),
    (b"\xff{}", "not UTF-8 text"),
])
def test_a_file_the_json_reader_cannot_take_is_refused_with_a_message(organiser, client,
                                                                      body, says):
    with pytest.raises(document.BackupError, match=re.escape(says)):
        document.parse(body)
    client.force_login(organiser)
    page = _upload(client, body)
    assert page.status_code == 200 and says in html.unescape(page.content.decode())


def test_a_stored_record_that_does_not_replay_shows_a_message_not_a_500(played, client):
    """A record changed in the database by hand: the pages replay it, never trust it."""
    record = GameRecord.objects.filter(board__round__event=played).first()
    GameRecord.objects.filter(pk=record.pk).update(text="this is not a game")
    page = client.get(reverse("game_viewer", args=[record.pk]))
    assert page.status_code == 200
    assert "The stored record cannot be read: line 1" in page.content.decode()
    download = client.get(reverse("game_download", args=[record.pk, "json"]))
    assert download.status_code == 409
    assert "cannot be read" in download.content.decode()
    text = client.get(reverse("game_download", args=[record.pk, "txt"]))
    assert text.status_code == 200 and text.content == b"this is not a game"


def test_the_player_names_of_a_refused_file_are_not_stored(backup):
    before = Player.objects.count()
    backup["players"][0]["name"] = "\x00"
    _refused(backup, "players[0].name")
    assert Player.objects.count() == before


UNSTORABLE_TEXT = st.text(alphabet=st.sampled_from(["\x00", "\ud800", "\udfff", "a", "é"]),
                          min_size=1, max_size=6).filter(
    lambda text: any(char in text for char in "\x00\ud800\udfff"))
UNSTORABLE = UNSTORABLE_TEXT | st.dictionaries(UNSTORABLE_TEXT, st.just(1), min_size=1,
                                               max_size=1) | st.just(float("nan"))
PLACES = st.sampled_from(["event", "players", "rounds", "history", "name", "club", "boards",
                          "records", "text", "summary", "results", "first_scores", "details",
                          "reason"]) | st.integers(0, 3)


def _counts():
    return [model.objects.count() for model in (Event, Player, GameRecord, HistoryEntry)]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(junk=UNSTORABLE, path=st.lists(PLACES, min_size=1, max_size=5))
def test_what_no_database_stores_is_refused_wherever_it_is_put(backup, junk, path):
    """Wherever the fuzz puts it, the file is refused: nothing of it may be imported (a path
    past the end of a list puts nothing, and that file imports)."""
    data = spoiled(backup, [], path, junk)
    event = imported_whole_or_refused(data, _counts)
    assert event is None or data == backup
    if event is not None:  # the next example's file must not be refused for its short name
        event.delete()


def test_an_automatic_backup_changed_on_disk_is_refused_on_restore(played, organiser, client,
                                                                   settings, tmp_path):
    settings.BACKUP_DIR = tmp_path
    written = automatic.write_now(played, "junk")
    written.write_text('{"format": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
    client.force_login(organiser)
    events = Event.objects.count()
    page = client.post(reverse("arbiter_restore_backup", args=[played.slug, written.name]),
                       follow=True)
    assert page.status_code == 200
    assert f"nested deeper than {MAX_DEPTH} levels" in page.content.decode()
    assert Event.objects.count() == events
