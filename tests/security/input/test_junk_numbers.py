"""Issue #21, "junk that still reaches a 500": numbers and dates from requests, and JSON
bodies. Every one is refused with a 4xx and a message naming the input, and nothing is stored
(on SQLite and, with DATABASE_URL, PostgreSQL: 40000 overflows its smallint, a 20-digit id
its bigint, and SQLite's 64 bits past that)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.urls import URLResolver, get_resolver, reverse

from games.models import GameRecord, LiveGame
from games.online import play as online
from tournament.models import Absence, Board, HistoryEntry, Round

pytestmark = pytest.mark.django_db

TWENTY_DIGITS = "9" * 20
JUNK_NUMBERS = ["²", "٣", "1_0", " 1e3", "0x10", TWENTY_DIGITS, "1" * 5000, "-0-"]


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


def _refused(response, *fragments: str) -> str:
    assert response.status_code == 400, response.status_code
    text = response.content.decode()
    for fragment in fragments:
        assert fragment in text, (fragment, text[:500])
    return text


@pytest.mark.parametrize("junk", JUNK_NUMBERS)
@pytest.mark.parametrize("page", ["event_standings", "event_crosstable"])
def test_a_round_in_the_query_string_is_plain_digits(client, board, page, junk):
    url = reverse(page, args=[board.round.event.slug])
    _refused(client.get(url, {"round": junk}), "Round")
    assert client.get(url, {"round": "1"}).status_code == 200


@pytest.mark.parametrize("junk", ["²", TWENTY_DIGITS, "40000"])
def test_a_pdf_round_is_plain_digits_within_its_column(client, board, junk):
    url = reverse("print_document", args=[board.round.event.slug, "standings"])
    _refused(client.get(url, {"round": junk}), "Round")


@pytest.mark.parametrize("junk", ["²", "abc", TWENTY_DIGITS])
def test_the_records_api_answers_junk_in_its_json_error_shape(arbiter_client, board, junk):
    response = arbiter_client.post(f"{reverse('api_submit')}?board={junk}", b"1. x",
                                   content_type="text/plain")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "bad_input" and "board" in error["message"]


@pytest.mark.parametrize(("field", "value"), [
    ("first", TWENTY_DIGITS), ("second", TWENTY_DIGITS), ("board", "40000"),
    ("board", TWENTY_DIGITS), ("first", "²"), ("board", "-1"),
])
def test_a_hand_pairing_refuses_ids_and_numbers_past_their_columns(arbiter_client, board,
                                                                    field, value):
    url = reverse("arbiter_round_action", args=[board.round.event.slug, 1, "edit"])
    data = {"first": board.first_id, "second": board.second_id, "board": 3,
            "reason": "hand pairing", field: value}
    before = list(Board.objects.values_list("pk", "number", "first_id", "second_id"))
    _refused(arbiter_client.post(url, data), "is ")
    assert list(Board.objects.values_list("pk", "number", "first_id", "second_id")) == before
    assert not HistoryEntry.objects.filter(action=HistoryEntry.Action.PAIRING_EDITED).exists()


@pytest.mark.parametrize("when", ["2026-13-45T99:99", "2026-05-02T09:30+99:00",
                                  "0001-01-01T00:00+05:00", "tomorrow", "2026-05-02T09:30²"])
def test_a_round_start_must_be_a_real_date_and_time(arbiter_client, board, when):
    url = reverse("arbiter_round_action", args=[board.round.event.slug, 1, "schedule"])
    _refused(arbiter_client.post(url, {"starts_at": when}), "not a date and time")
    assert Round.objects.get(pk=board.round_id).starts_at is None
    assert arbiter_client.post(url, {"starts_at": "2026-05-02T09:30+02:00"}).status_code == 302
    assert Round.objects.get(pk=board.round_id).starts_at.isoformat() == (
        "2026-05-02T07:30:00+00:00")


def test_an_absence_round_and_a_slip_board_are_plain_digits(arbiter_client, board):
    event = board.round.event
    url = reverse("arbiter_player_absence", args=[event.slug, board.first_id])
    _refused(arbiter_client.post(url, {"round": "40000"}), "out of range")
    _refused(arbiter_client.post(url, {"round": "²"}), "not a whole number")
    assert not Absence.objects.exists()
    slip = reverse("arbiter_results", args=[event.slug, 1])
    _refused(arbiter_client.post(slip, {"board_id": TWENTY_DIGITS}), "Board")


def _routes(resolver=None, prefix: str = ""):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


@pytest.mark.parametrize("number", ["9" * 30, TWENTY_DIGITS, "40000"])
def test_no_number_in_any_path_is_a_server_error(arbiter_client, board, number):
    """Every route with a number in its path, with one past 64 bits (SQLite), past a bigint
    or past a smallint (PostgreSQL): not found or refused, never a 5xx."""
    failures, checked = [], 0
    for route in _routes():
        if "<int:" not in route:
            continue
        checked += 1
        url = "/" + re.sub(r"<int:\w+>", number, route).replace(
            "<slug:slug>", board.round.event.slug)
        url = re.sub(r"<str:\w+>", "json" if "<str:fmt>" in route else "edit", url)
        for method in (arbiter_client.get, arbiter_client.post):
            status = method(url).status_code
            if status >= 500:
                failures.append((method.__name__, url, status))
    assert checked > 20 and not failures


def test_the_online_page_refuses_a_junk_board_and_round(arbiter_client, board):
    event = board.round.event
    online.mark_online(board.round)
    reissue = reverse("online_round_action", args=[event.slug, 1, "reissue"])
    _refused(arbiter_client.post(reissue, {"board": "abc", "seat": "A"}), "Board")
    _refused(arbiter_client.post(reissue, {"board": "40000", "seat": "A"}), "out of range")
    stop = reverse("online_event_action", args=[event.slug, "stop"])
    _refused(arbiter_client.post(stop, {"round": "²"}), "Round")


def test_a_hidden_result_version_past_its_column_is_a_form_error(arbiter_client, board):
    url = reverse("arbiter_board", args=[board.round.event.slug, board.pk])
    response = arbiter_client.post(url, {"kind": "forfeit", "loser_seat": "first",
                                         "expected_version": TWENTY_DIGITS})
    assert response.status_code == 200 and not board.results.exists()


# --- JSON bodies ------------------------------------------------------------------------------

DEEP = "[" * 8000 + "]" * 8000  # within the live body limit: the depth is what is refused
HUGE = "9" * 5000


@pytest.mark.parametrize(("body", "fragment"), [
    (DEEP, "nested deeper than"), ('{"version": ' + HUGE + "}", "5,000 digits"),
    ('{"version": 0, "entry": {"seat": "A", "x": ' + HUGE + "}}", "$.entry.x"),
    ('{"version": NaN}', "not a JSON number"), (b'{"version": "\xff"}', "not UTF-8"),
])
@pytest.mark.parametrize("action", ["", "undo/", "confirm/"])
def test_the_live_scoresheet_refuses_bodies_that_crashed_it(client, board, body, fragment,
                                                             action):
    url = reverse("live_state", args=[board.token]) + action
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 409 and fragment in response.json()["error"]
    assert not LiveGame.objects.filter(board=board, version__gt=0).exists()


@pytest.mark.parametrize(("body", "code", "line"), [
    ('{"tags": {"Event": "x"}, "actions": []}', "unfinished", 1),
    ('{"actions": ' + DEEP + "}", "json_refused", None),
    ('{"actions": [{"seat": "A", "action": "flag", "clock": ' + HUGE + "}]}", "json_refused",
     None),
    ('{"tags": {"Event": "\\ud800"}}', "json_refused", None),
    ('{"actions": [{"seat": ["A"], "action": "flag"}]}', "json_unknown_seat", 1),
    ('{"tags": [], "actions": []}', "json_tags_not_object", None),
])
def test_a_json_record_is_refused_with_a_code_and_where(client, board, body, code, line):
    response = client.post(reverse("api_submit"), body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Board {board.token}")
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["line"]) == (code, line), error
    assert not GameRecord.objects.exists()


def test_verify_log_says_why_instead_of_a_traceback(tmp_path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"tags": {"Event": "x"}, "actions": []}))
    with pytest.raises(SystemExit) as exited:
        call_command("verify_log", str(path), "--json")
    assert exited.value.code == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["line"] == 1 and "not over after 0 actions" in error["message"]



@pytest.mark.parametrize("vp", ["sNaN", "NaN", "Infinity", "½", "1e999999999"])
def test_an_absence_vp_that_is_not_a_number_is_refused(arbiter_client, board, vp):
    event = board.round.event
    url = reverse("arbiter_player_absence", args=[event.slug, board.first_id])
    response = arbiter_client.post(url, {"round": "2", "vp": vp}, follow=True)
    assert response.status_code == 200 and "0 VP" in response.content.decode()
    assert not Absence.objects.exists()
