"""Game records entering the event: verify, match the board, store once, record the result."""

import datetime
import json
import random
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import live
from games.engine import format_record, random_game
from games.models import GameRecord, ResultRecord
from games.services import MAX_RECORD_BYTES, RecordRejected, submit_record
from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Board, Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(event):
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return Board.objects.filter(round=round_, second__isnull=False).first()


def record_for(board, seed=1, **overrides):
    tags = {"Event": board.round.event.name, "Round": str(board.round.number),
            "Board": str(board.number), "First": board.first.name,
            "Second": board.second.name, **overrides}
    game = random_game(random.Random(seed), tags=tags)
    return format_record(game.record), game


def test_a_valid_record_becomes_the_result_and_moves_the_standings(board):
    text, game = record_for(board)
    submission = submit_record(board, text)
    result = submission.result
    assert submission.created and result.source == "record"
    assert ResultRecord.objects.get(result=result).record == submission.record
    assert result.first_scores == game.scores["A"] and result.second_scores == game.scores["B"]
    expected = {"1-0": (1, 0), "0-1": (0, 1), "½-½": (0.5, 0.5)}[game.result]
    assert (float(result.first_vp), float(result.second_vp)) == expected
    table = standings_bridge.standings(board.round.event, 1)
    assert table.row(board.first_id).vp + table.row(board.second_id).vp == 1


def test_resubmitting_the_same_record_is_harmless(board):
    text, _game = record_for(board)
    submit_record(board, text)
    again = submit_record(board, text)
    assert not again.created
    assert GameRecord.objects.filter(board=board).count() == 1
    assert Result.objects.filter(board=board).count() == 1


def _unknown_cell(line):
    parts = line.split()
    parts[2] = "z9R-z8G"
    return " ".join(parts)


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (_unknown_cell, "unknown cell"),
        (lambda line: re.sub(r"\{[^}]*\}", "", line).rstrip() + " {R+17}", "claim"),
        (lambda line: line.replace(" A ", " B ", 1), "wrong seat"),
    ],
)
def test_an_invalid_record_names_the_line_and_writes_nothing(board, edit, reason):
    text, _game = record_for(board)
    lines = text.splitlines()
    target = next(i for i, line in enumerate(lines) if line.startswith("1. A "))
    lines[target] = edit(lines[target])
    with pytest.raises(RecordRejected) as excinfo:
        submit_record(board, "\n".join(lines) + "\n")
    assert excinfo.value.line == target + 1
    assert reason in excinfo.value.message
    assert not GameRecord.objects.exists() and not Result.objects.filter(board=board).exists()


def test_an_unfinished_record_is_refused(board):
    text, _game = record_for(board)
    cut = "\n".join(text.splitlines()[:20]) + "\n"
    with pytest.raises(RecordRejected, match="unfinished"):
        submit_record(board, cut)


@pytest.mark.parametrize(("tag", "value"), [("Round", "7"), ("Board", "99"),
                                             ("First", "Somebody Else")])
def test_a_header_that_does_not_match_the_board_is_an_error(board, tag, value):
    text, _game = record_for(board, **{tag: value})
    with pytest.raises(RecordRejected, match=tag):
        submit_record(board, text)
    assert not Result.objects.filter(board=board).exists()


def test_players_swapped_in_the_header_is_an_error(board):
    text, _game = record_for(board, First=board.second.name, Second=board.first.name)
    with pytest.raises(RecordRejected, match="First"):
        submit_record(board, text)


def test_a_record_contradicting_an_entered_result_opens_a_conflict(board):
    text, _game = record_for(board)
    other = {c: 18 for c in "RGBOYP"}
    services.record_result(board, "played", first_scores=other,
                           second_scores={c: 0 for c in "RGBOYP"})
    submission = submit_record(board, text)
    assert submission.conflict
    assert services.current_result(board).first_scores == other
    conflict = Result.objects.get(board=board, status="conflict")
    assert ResultRecord.objects.get(result=conflict).record == submission.record


def test_an_accepted_conflict_from_a_record_keeps_its_record(board, arbiter, arbiter_client):
    """The record link lives in the games app; accepting the conflict carries it to the new
    version, and the results page and the board's history link the game viewer."""
    text, _game = record_for(board)
    services.record_result(board, "played", first_scores={c: 18 for c in "RGBOYP"},
                           second_scores={c: 0 for c in "RGBOYP"})
    submission = submit_record(board, text)
    accepted = services.resolve_conflict(submission.result, accept=True, user=arbiter,
                                         reason="the record is right")
    assert ResultRecord.objects.get(result=accepted).record == submission.record
    viewer = reverse("game_viewer", args=[submission.record.pk])
    event = board.round.event
    history = arbiter_client.get(reverse("arbiter_board", args=[event.slug, board.pk]))
    assert history.content.decode().count(f'href="{viewer}"') == 2  # the conflict and the copy
    results = arbiter_client.get(reverse("event_results", args=[event.slug]))
    assert f'href="{viewer}"' in results.content.decode()


def test_oversized_records_are_refused(board):
    with pytest.raises(RecordRejected, match="limit"):
        submit_record(board, "; " + "x" * MAX_RECORD_BYTES)


def test_the_arbiter_page_shows_the_failing_line(arbiter_client, board):
    text, _game = record_for(board)
    bad = text.replace("1. A ", "1. B ", 1)
    url = reverse("arbiter_submit", args=[board.round.event.slug, board.pk])
    response = arbiter_client.post(url, {"record": bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="line bad"' in page and "wrong seat" in page
    ok = arbiter_client.post(url, {"record": text})
    assert ok.status_code == 302 and services.current_result(board) is not None


def test_a_player_submits_with_the_board_token(client, board):
    text, _game = record_for(board)
    url = reverse("player_submit", args=[board.token])
    assert client.get(url).status_code == 200
    assert client.post(url, {"record": text}).status_code == 302
    assert services.current_result(board).source == "record"


def test_wrong_revoked_or_expired_tokens_are_refused(client, board):
    from tournament.boards import tokens

    assert client.get(reverse("player_submit", args=["x" * 24])).status_code == 403
    old = board.token
    tokens.reissue_token(board)
    assert client.get(reverse("player_submit", args=[old])).status_code == 403
    board.refresh_from_db()
    round_ = board.round
    round_.status, round_.closed_at = "closed", timezone.now() - datetime.timedelta(hours=2)
    round_.save()
    response = client.get(reverse("player_submit", args=[board.token]))
    assert response.status_code == 403 and b"expired" in response.content


def test_the_json_api_accepts_a_board_token(client, board):
    text, _game = record_for(board)
    url = reverse("api_submit")
    response = client.post(url, text, content_type="text/plain",
                           HTTP_AUTHORIZATION=f"Board {board.token}")
    assert response.status_code == 201, response.content
    assert response.json()["ok"] is True
    again = client.post(url, text, content_type="text/plain",
                        HTTP_AUTHORIZATION=f"Board {board.token}")
    assert again.status_code == 200 and again.json()["created"] is False
    bad = client.post(url, text.replace("1. A", "1. B", 1), content_type="text/plain",
                      HTTP_AUTHORIZATION=f"Board {board.token}")
    assert bad.status_code == 422 and bad.json()["error"]["line"]
    assert client.post(url, text, content_type="text/plain",
                       HTTP_AUTHORIZATION="Board nonsense-token").status_code == 403


def test_the_json_api_with_a_session_needs_csrf_and_an_arbiter(board, arbiter, other_user):
    from django.test import Client

    text, _game = record_for(board)
    url = reverse("api_submit") + f"?board={board.pk}"
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(arbiter)
    assert strict.post(url, text, content_type="text/plain").status_code == 403
    strict.get(reverse("home"))
    token = strict.cookies["csrftoken"].value
    response = strict.post(url, text, content_type="text/plain", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201
    outsider = Client()
    outsider.force_login(other_user)
    assert outsider.post(url, text, content_type="text/plain").status_code == 403


def test_the_json_api_refuses_a_huge_body(client, board):
    response = client.post(reverse("api_submit"), "x" * (MAX_RECORD_BYTES + 1),
                           content_type="text/plain", HTTP_AUTHORIZATION=f"Board {board.token}")
    assert response.status_code == 413


def test_a_flood_of_submissions_from_one_token_is_throttled(client, board):
    url = reverse("api_submit")
    codes = [client.post(url, "junk", content_type="text/plain",
                         HTTP_AUTHORIZATION=f"Board {board.token}").status_code
             for _ in range(25)]
    assert codes[:20] == [422] * 20 and 429 in codes[20:]


def test_the_viewer_shows_every_step_and_downloads(client, board):
    text, _game = record_for(board)
    record = submit_record(board, text).record
    page = client.get(reverse("game_viewer", args=[record.pk]))
    steps = json.loads(page.context["steps"] and json.dumps(page.context["steps"]))
    assert page.status_code == 200 and len(steps) == len(
        [line for line in text.splitlines() if line and line[0].isdigit()])
    assert client.get(reverse("game_download", args=[record.pk, "txt"])).content.decode() == \
        record.text
    data = json.loads(client.get(reverse("game_download", args=[record.pk, "json"])).content)
    assert data["tags"]["Round"] == "1"


# --- the live scoresheet -----------------------------------------------------------------


def test_live_entry_replays_through_the_engine_and_submits_on_confirmation(board):
    _text, game = record_for(board, seed=3)
    for action in game.record.actions:
        current = live.state(board)
        entry = action.to_json()
        entry.pop("claim", None)
        entry.pop("clock", None)
        live.enter(board, entry, expected_version=current.version)
    final = live.state(board)
    assert final.game.is_over and final.game.scores == game.scores
    with pytest.raises(live.LiveRefused):
        live.enter(board, {"seat": "A", "action": "place", "placement": "f6R-f7G"},
                   expected_version=final.version)
    _state, submission = live.confirm(board, "A", expected_version=final.version)
    assert submission is None and not Result.objects.filter(board=board).exists()
    _state, submission = live.confirm(board, "B", expected_version=final.version)
    assert submission.created and services.current_result(board).source == "record"


def test_live_entry_refuses_illegal_moves_and_stale_versions(board):
    state = live.state(board)
    with pytest.raises(live.LiveRefused, match="wrong seat"):
        live.enter(board, {"seat": "B", "action": "place", "placement": "e1R-f2O"},
                   expected_version=state.version)
    live.enter(board, {"seat": "A", "action": "place", "placement": "e1R-f2O"},
               expected_version=state.version)
    with pytest.raises(live.LiveRefused, match="Another device"):
        live.enter(board, {"seat": "B", "action": "place", "placement": "j10P-k10P"},
                   expected_version=state.version)
    after = live.undo(board, expected_version=state.version + 1)
    assert after.actions == [] and after.version == state.version + 2


def test_a_resignation_on_the_live_scoresheet_stops_the_clock(board, monkeypatch):
    """Issue #35: "B resigns" left A's clock running until "Stop all". Every end of the game
    stops its clock, as the seat's resignation; it cannot be taken back once stopped."""
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    state = live.enter(board, {"seat": "A", "action": "place", "placement": "e1R-f2O"},
                       expected_version=0)
    monkeypatch.setattr(clock_services, "now_ms", lambda: 9_000)
    state = live.enter(board, {"seat": "B", "action": "resign"}, expected_version=state.version)
    assert state.game.is_over
    clock = clock_services.snapshot(board)
    assert clock["status"] == "finished" and clock["running"] is None
    assert (clock["finished"]["kind"], clock["finished"]["side"]) == ("resigned", "B")
    assert clock["finished"]["at_ms"] == 9_000
    with pytest.raises(live.LiveRefused, match="clock has stopped"):
        live.undo(board, expected_version=state.version)


def test_the_last_tile_on_the_live_scoresheet_stops_the_clock(board, monkeypatch):
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    _text, game = record_for(board, seed=3)
    for action in game.record.actions:
        entry = {k: v for k, v in action.to_json().items() if k not in ("claim", "clock")}
        live.enter(board, entry, expected_version=live.state(board).version)
    clock = clock_services.snapshot(board)
    assert (clock["status"], clock["finished"]["kind"]) == ("finished", "completed")


def test_the_live_endpoint_speaks_json(client, board):
    url = reverse("live_state", args=[board.token])
    state = client.get(url).json()
    assert state["to_move"] == "A" and state["version"] == 0
    response = client.post(url, {"entry": {"seat": "A", "action": "place",
                                           "placement": "e1R-f2O"}, "version": 0},
                           content_type="application/json")
    assert response.status_code == 200 and response.json()["cells"] == {"e1": "R", "f2": "O"}
    refused = client.post(url, {"entry": {"seat": "B", "action": "place",
                                          "placement": "e1R-f2O"}, "version": 1},
                          content_type="application/json")
    assert refused.status_code == 409 and "occupied" in refused.json()["error"]
    assert client.post(url, "not json", content_type="application/json").status_code == 409
    assert client.get(reverse("live_state", args=["y" * 24])).status_code == 403


def test_a_fallen_flag_on_the_clock_enters_the_log_before_the_next_entry(board, monkeypatch):
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000 + 601_000)  # A's 10 min are up
    state = live.enter(board, {"seat": "B", "action": "place", "placement": "j10P-k10P"},
                       expected_version=0)
    assert [a["action"] for a in state.actions] == ["flag", "place"]
    assert state.actions[0]["seat"] == "A"
    with pytest.raises(live.LiveRefused):
        live.enter(board, {"seat": "A", "action": "place", "placement": "e1R-f2O"},
                   expected_version=state.version)


def test_both_flags_end_the_live_game_and_the_players_confirm_it(client, board, monkeypatch):
    """MSO: a flagged player stops, the other plays on alone until their own flag falls; both
    flags end the game and the scores decide. The second flag is shown at once, an entry after
    it is refused, and both players can confirm."""
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000 + 601_000)  # A's time is up
    state = live.enter(board, {"seat": "B", "action": "place", "placement": "j10P-k10P"},
                       expected_version=0)
    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000 + 1_202_000)  # and B's
    shown = client.get(reverse("live_state", args=[board.token])).json()
    assert (shown["over"], shown["version"]) == (True, state.version)
    assert [(a["seat"], a["action"]) for a in shown["actions"]] == [
        ("A", "flag"), ("B", "place"), ("B", "flag")]
    refused = _post_entry(client, board, {"seat": "B", "action": "place",
                                          "placement": "e1R-f2O"}, state.version)
    assert refused.status_code == 409 and "after the end of the game" in refused.json()["error"]
    assert refused.json()["over"] is True
    live.confirm(board, "A", expected_version=state.version)
    _state, submission = live.confirm(board, "B", expected_version=state.version)
    assert submission is not None and submission.created
    stored = services.current_result(board)
    assert (stored.source, stored.first_vp, stored.second_vp) == ("record", 0, 1)


def test_the_event_records_page_finds_the_board_from_the_tags(arbiter_client, board):
    text, _game = record_for(board, seed=5)
    url = reverse("arbiter_records", args=[board.round.event.slug])
    assert arbiter_client.get(url).status_code == 200
    response = arbiter_client.post(url, {"record": text}, follow=True)
    assert b"result recorded" in response.content
    assert services.current_result(board).source == "record"
    wrong = text.replace(f'[Board "{board.number}"]', '[Board "77"]')
    page = arbiter_client.post(url, {"record": wrong})
    assert page.status_code == 400 and b"no board 77" in page.content
    swapped = text.replace(board.first.name, "@@").replace(board.second.name, board.first.name)
    page = arbiter_client.post(url, {"record": swapped.replace("@@", board.second.name)})
    assert page.status_code == 400 and b"does not match this board" in page.content


def _post_entry(client, board, entry, version):
    return client.post(reverse("live_state", args=[board.token]),
                       {"entry": entry, "version": version}, content_type="application/json")


SWAP_A = {"seat": "A", "action": "swap", "tiles": ["RR"] * 5}  # A: red 1, five colours at 0
PRESSED = ("Seat A has pressed the clock since its last tile: a swap is declared before "
           "pressing, now only the refill is left.")


def test_a_swap_is_entered_before_the_seat_presses_its_clock(client, board, monkeypatch):
    """game-rules.md 3.5: on a clocked board the swap comes before the press; after the press
    that ended the turn the player may only refill."""
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    placed = _post_entry(client, board, {"seat": "A", "action": "place",
                                         "placement": "f10R-f9G"}, 0)
    assert placed.status_code == 200 and placed.json()["swap_window"] == "A"
    swapped = _post_entry(client, board, SWAP_A, 1)
    assert swapped.status_code == 200
    assert swapped.json()["actions"][-1] == {**SWAP_A, "press": 0}
    undone = client.post(reverse("live_action", args=[board.token, "undo"]), {"version": 2},
                         content_type="application/json")
    assert undone.status_code == 200 and undone.json()["swap_window"] == "A"
    monkeypatch.setattr(clock_services, "now_ms", lambda: 5_000)
    assert clock_services.press(board, "A", 0, who="player A").press.number == 1
    refused = _post_entry(client, board, SWAP_A, 3)
    assert refused.status_code == 409 and refused.json()["error"] == PRESSED
    assert refused.json()["version"] == 3 and len(refused.json()["actions"]) == 1
    assert live.state(board).game.rack_size("A") == 6  # the refill stands


def test_a_swap_entered_after_a_late_placement_entry_is_refused(client, board, monkeypatch):
    """The player placed and pressed, then entered the tile: the clock runs for B already."""
    from clocks import services as clock_services

    monkeypatch.setattr(clock_services, "now_ms", lambda: 1_000)
    clock_services.start(board, who="arbiter")
    monkeypatch.setattr(clock_services, "now_ms", lambda: 5_000)
    assert clock_services.press(board, "A", 0, who="player A").press.number == 1
    placed = _post_entry(client, board, {"seat": "A", "action": "place",
                                         "placement": "f10R-f9G"}, 0)
    assert placed.status_code == 200 and placed.json()["actions"][0]["press"] == 1
    refused = _post_entry(client, board, SWAP_A, 1)
    assert refused.status_code == 409 and refused.json()["error"] == PRESSED
