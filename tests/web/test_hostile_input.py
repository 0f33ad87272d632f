"""Hostile and clumsy input (issue #12): every way in refuses with a message, writes nothing.

Each crafted file below used to import "successfully" and then break its event or the whole
site; each clumsy form value used to be a 500.
"""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backups import document
from games.models import GameRecord
from tests.web.backups.backup_fuzz import imported_whole_or_refused, spoiled
from tournament import services
from tournament.models import Absence, Board, Event, HistoryEntry, Player, Result, Round

pytestmark = pytest.mark.django_db

ROWS = (Event, Player, Absence, Round, Board, Result, GameRecord, HistoryEntry)


def _counts():
    return [model.objects.count() for model in ROWS]


@pytest.fixture
def good_backup(played_event):
    data = document.export_event(played_event)
    data["event"]["slug"] = "copy"
    return data


def _spoiled(data, change):
    spoiled = copy.deepcopy(data)
    change(spoiled)
    return spoiled


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _first_played(data):
    for r in data["rounds"]:
        for b in r["boards"]:
            if b["second"] is not None and b["results"]:
                return b["results"][0]
    raise AssertionError("no played game")


CRAFTED = [
    (_set(["event", "bye_vp"], "50"), "event.bye_vp"),
    (_set(["event", "absence_vp"], "1"), "event.absence_vp"),
    (_set(["event", "tiebreaks"], ["head_to_head", "luck"]), "unknown tiebreak 'luck'"),
    (_set(["event", "tiebreaks"], {"a": 1}), "event.tiebreaks"),
    (_set(["event", "time_control"], "banana"), "event.time_control"),
    (_set(["event", "token_grace_minutes"], 10**15), "event.token_grace_minutes"),
    (_set(["event", "rounds_planned"], "seven"), "event.rounds_planned"),
    (_set(["players", 0, "name"], "Ada\nBen"), "players[0].name: Control character"),
    (_set(["players", 0, "name"], "x" * 100_000), "players[0].name"),
    (_set(["players", 1, "club"], "NUL\x00club"), "players[1].club"),
    (_set(["players", 1, "seed"], 1), "pairing number 1 is used twice"),
    (_set(["players", 2, "rating"], 10**23), "players[2].rating"),
    (_set(["players", 2, "rating"], True), "players[2].rating: expected"),
    (lambda d: _first_played(d).update(first_scores={"R": "x"}), "first_scores"),
    (lambda d: _first_played(d).update(first_scores=[18] * 7), "first_scores"),
    (lambda d: _first_played(d).update(first_vp="0.5", second_vp="0.5"), "do not follow"),
    (lambda d: _first_played(d).update(kind="bye"), "kind"),
    (lambda d: _first_played(d).update(status="accepted?"), "status"),
    (lambda d: d["rounds"][0]["boards"][0].update(first=999), "no player has pairing number"),
    (lambda d: d["rounds"][0]["boards"][0].update(token="t" * 500), "token"),
    (lambda d: d["players"][0]["absences"].append({"round": 1, "vp": "0", "reason": ""}),
     "also paired in it"),
    (_set(["rounds", 0, "number"], 5), "numbered 1, 2, 3"),
    (_set(["players"], {"not": "a list"}), "players: expected a list"),
]


@pytest.mark.parametrize(("change", "says"), CRAFTED)
def test_a_crafted_backup_is_refused_whole_with_the_path_of_its_fault(good_backup, change,
                                                                      says):
    before = _counts()
    with pytest.raises(document.BackupError, match=None) as refused:
        document.import_event(_spoiled(good_backup, change))
    assert says in str(refused.value)
    assert _counts() == before


def test_the_import_refusal_is_said_in_the_readers_language(arbiter_client, good_backup):
    """The problem list is translated; the paths into the file stay as the file spells them."""
    crafted = _spoiled(good_backup, lambda d: d["players"][1].update(seed=1))
    upload = io.BytesIO(json.dumps(crafted).encode())
    upload.name = "event.json"
    page = arbiter_client.post(reverse("event_import"), {"backup": upload}, follow=True,
                               HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "players[1].seed" in page and "is used twice" not in page
    assert "стартовый номер 1 встречается дважды" in page


def test_the_untouched_backup_imports(good_backup):
    assert document.import_event(good_backup).slug == "copy"


def test_the_import_page_refuses_a_crafted_file_and_the_site_stays_up(
        arbiter_client, good_backup, client):
    crafted = _spoiled(good_backup, _set(["event", "bye_vp"], "50"))
    upload = io.BytesIO(json.dumps(crafted).encode())
    upload.name = "event.json"
    page = arbiter_client.post(reverse("event_import"), {"backup": upload}, follow=True)
    assert page.status_code == 200
    assert "event.bye_vp" in page.content.decode()
    assert not Event.objects.filter(slug="copy").exists()
    assert client.get(reverse("home")).status_code == 200


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20)
    | st.sampled_from(["1", "0.5", "played", "accepted", "bye", "600"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=4),
    max_leaves=25,
)
KEYS = st.sampled_from(["event", "players", "rounds", "history", "name", "seed", "boards",
                        "results", "first", "second", "kind", "vp", "bye_vp", "tiebreaks"])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(junk=JSON, path=st.lists(KEYS | st.integers(0, 3), min_size=1, max_size=4))
def test_junk_anywhere_in_a_backup_never_escapes_as_anything_but_a_refusal(
        good_backup, junk, path):
    event = imported_whole_or_refused(spoiled(good_backup, [], path, junk), _counts)
    if event is not None:
        Event.objects.filter(pk=event.pk).delete()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=300) | st.lists(
    st.lists(st.text(max_size=30), max_size=5), max_size=6).map(
        lambda rows: "\n".join(",".join(r) for r in [["name", "club", "rating"], *rows])))
def test_junk_csv_files_are_refused_whole_or_imported_whole(event, text):
    before = event.players.count()
    try:
        added = services.import_players(event, text)
    except services.ServiceError:
        assert event.players.count() == before
    else:
        assert event.players.count() == before + len(added)
        Player.objects.filter(pk__in=[p.pk for p in added]).delete()


@pytest.mark.parametrize(("csv_text", "says"), [
    ("name,rating\nAda,²\n", "Line 2: rating '²' is not a whole number"),
    ("name,rating\nAda,100000000000000000000000\n", "Line 2: rating"),
    ("name,club\nZed,=HYPERLINK(1)\nYan,\x00\n", "Line 3"),
    ("name\n" + "x" * 200_000 + "\n", "Line"),
    ("name\n" + "y" * 150 + "\n", "Line 2: name: Ensure this value has at most 100"),
])
def test_clumsy_csv_lines_are_named_in_the_refusal(event, csv_text, says):
    before = event.players.count()
    with pytest.raises(services.ServiceError) as refused:
        services.import_players(event, csv_text)
    assert says in str(refused.value)
    assert event.players.count() == before


def test_the_csv_page_answers_with_a_message_not_a_500(arbiter_client, event):
    upload = io.BytesIO("name,rating\nAda,²\n".encode())
    upload.name = "players.csv"
    page = arbiter_client.post(reverse("arbiter_players_import", args=[event.slug]),
                               {"csv_file": upload}, follow=True)
    assert page.status_code == 200 and "is not a whole number" in page.content.decode()


@pytest.mark.parametrize("reason", ["x" * 250, "ok\x00"])
def test_overlong_or_control_character_reasons_are_refused_by_every_form(
        arbiter_client, event, reason):
    player = event.players.first()
    page = arbiter_client.post(
        reverse("arbiter_player_withdraw", args=[event.slug, player.pk]), {"reason": reason},
        follow=True)
    assert page.status_code == 200
    player.refresh_from_db()
    assert player.withdrawn_after_round is None
    page = arbiter_client.post(reverse("arbiter_player_absence", args=[event.slug, player.pk]),
                               {"round": "1", "reason": reason * 2}, follow=True)
    assert page.status_code == 200 and not player.absences.exists()


def test_a_hundred_and_fifty_character_name_is_a_form_error(arbiter_client, event):
    page = arbiter_client.post(reverse("arbiter_players", args=[event.slug]), {"name": "n" * 150})
    assert page.status_code == 200
    assert "at most 100 characters" in page.content.decode()


def test_result_entry_without_a_board_or_with_junk_scores_is_a_4xx(arbiter_client,
                                                                     played_event):
    number = played_event.rounds.count()
    url = reverse("arbiter_results", args=[played_event.slug, number])
    assert arbiter_client.post(url, {"board_id": "abc"}).status_code == 400
    assert arbiter_client.post(url, {}).status_code == 400
    board = played_event.rounds.get(number=number).boards.filter(second__isnull=False).first()
    page = arbiter_client.post(url, {"board_id": board.pk, "first_R": "²"})
    assert page.status_code == 200
    other = reverse("arbiter_board", args=[played_event.slug, board.pk])
    page = arbiter_client.post(other, {"kind": "played", "first_scores": "² 1 1 1 1 1",
                                       "second_scores": "1 1 1 1 1 1"})
    assert page.status_code == 200 and "six whole numbers" in page.content.decode()
    assert not Result.objects.filter(board=board).exists()


SLIP_VALUES = st.one_of(st.integers(-5, 40).map(str), st.text(max_size=6),
                        st.sampled_from(["²", "1e3", "0x1", "٣", "18", "", " 7 "]))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(SLIP_VALUES, min_size=12, max_size=12),
       board_id=st.one_of(st.none(), st.sampled_from(["abc", "-1", "99999999999", ""])))
def test_junk_typed_into_the_slip_form_is_never_a_500_nor_a_partial_write(
        arbiter_client, played_event, values, board_id):
    number = played_event.rounds.count()
    round_ = played_event.rounds.get(number=number)
    board = round_.boards.filter(second__isnull=False).first()
    data = {"board_id": board.pk if board_id is None else board_id}
    data.update({f"{seat}_{c}": v for (seat, c), v in zip(
        [(s, c) for s in ("first", "second") for c in "RGBOYP"], values, strict=True)})
    before = Result.objects.filter(board=board).count()
    response = arbiter_client.post(
        reverse("arbiter_results", args=[played_event.slug, number]), data)
    assert response.status_code < 500
    after = Result.objects.filter(board=board).count()
    assert after in (before, before + 1)
    if after == before + 1:
        Result.objects.filter(board=board).delete()


def test_the_admin_applies_the_same_limits(client, event, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="pw-root-1")
    client.force_login(admin)
    url = reverse("admin:tournament_player_change", args=[event.players.first().pk])
    for name, says in (("Ada\x00", "Null characters"), ("Ada\tB", "Control character"),
                       ("A" * 101, "at most 100")):
        page = client.post(url, {"event": event.pk, "name": name, "club": "", "country": "",
                                 "rating": "", "seed": 1, "joined_round": 1})
        assert page.status_code == 200
        assert says in " ".join(page.context["adminform"].form.errors["name"])
    assert event.players.filter(name="Ada").exists()


@pytest.mark.parametrize("name", ["\x00", "Ada\x00", "NUL\x00in the middle"])
def test_a_nul_in_a_name_is_refused_before_any_query_sees_it(event, name):
    """PostgreSQL refuses NUL even in a lookup: the check must come first."""
    with pytest.raises(services.ServiceError, match="name"):
        services.import_players(event, f"name\n{name}\n")
    with pytest.raises(services.ServiceError, match="name"):
        services.update_player(event.players.first(), name=name)


def test_control_characters_in_a_search_or_a_slug_are_harmless(client, event, good_backup):
    page = client.get(reverse("event_home", args=[event.slug]), {"q": "A\x00d\x1b"})
    assert page.status_code == 200
    with pytest.raises(document.BackupError, match=r"event\.slug"):
        document.import_event(good_backup, slug="bad\x00slug")


def test_overlong_reasons_on_the_round_page_are_messages_not_500s(arbiter_client, played_event):
    number = played_event.rounds.count()
    board = played_event.rounds.get(number=number).boards.filter(second__isnull=False).first()
    edit = reverse("arbiter_round_action", args=[played_event.slug, number, "edit"])
    page = arbiter_client.post(edit, {"first": board.first_id, "second": board.second_id,
                                      "board": board.number, "reason": "r" * 500}, follow=True)
    assert page.status_code == 200 and "at most 200 characters" in page.content.decode()
    repair = reverse("arbiter_round_action", args=[played_event.slug, number, "repair"])
    page = arbiter_client.post(repair, {"reason": "r" * 500}, follow=True)
    assert page.status_code == 200 and "at most 300 characters" in page.content.decode()
    assert Board.objects.filter(pk=board.pk).exists()
