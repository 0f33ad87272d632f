"""A player who never came to an online game (issue #38, item 11): after the event's waiting
time from the start of the clocks, the opponent claims the win, or the arbiter records it; a
forfeit with the reason, the clock finished, the game over. Only what the server saw counts."""

import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from backups import document
from bench.events import create_clock_event
from clocks import services as clock_services
from games.dealt.bot import choose_move
from games.models import OnlineGame
from games.online import play as online
from tournament import services as event_services
from tournament.models import Result

MINUTE = 60_000
APPEARED = "{} has appeared: the game is played, and the clock decides."


@pytest.fixture
def round_(db):
    arbiter = get_user_model().objects.create_user("noshowarbiter", password="pw-no-show-1")
    return create_clock_event(2, arbiter=arbiter, slug="no-show-open")


@pytest.fixture
def game(round_, clock_time):
    arbiter = round_.event.arbiters.get()
    games = online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter", user=arbiter)
    return games[0]


def _refusal(game, seat, **kwargs) -> str:
    with pytest.raises(online.OnlineRefused) as refused:
        online.claim_no_show(game, seat=seat, **kwargs)
    return str(refused.value)


def test_the_opponent_claims_the_win_once_the_waiting_time_is_over(game, clock_time):
    names = {"A": game.board.first.name, "B": game.board.second.name}
    online.note_seen(game, "A")  # A opened the game; B never does
    view = online.view(game, "A")
    assert view["appeared"] == {"A": True, "B": False}
    started = clock_services.snapshot(game.board)["started_at_ms"]
    assert view["claim_from_ms"] == started + 5 * MINUTE
    assert _refusal(game, "A") == "The waiting time of 5 minutes is not over: 5:00 to go."
    clock_time.advance(5 * MINUTE - 1000)
    assert _refusal(game, "A").endswith("0:01 to go.")
    assert _refusal(game, "B") == APPEARED.format(names["A"])
    clock_time.advance(1000)
    views = online.claim_no_show(game, seat="A")
    for seat in ("A", "B", None):
        assert views[seat]["over"] and views[seat]["result"] == "1-0"
        assert views[seat]["end_code"] == "end_no_show"
        assert views[seat]["end_params"] == {"seats": "B"}
    result = event_services.current_result(game.board)
    assert (result.kind, result.loser_seat, result.first_vp, result.second_vp) == (
        Result.Kind.FORFEIT, "second", 1, 0)
    assert result.reason == (f"{names['B']} did not appear within 5 minutes of the start of the "
                             f"clocks; claimed by {names['A']}")
    clock = clock_services.snapshot(game.board)
    assert clock["status"] == "finished" and clock["running"] is None
    game.refresh_from_db()
    assert game.no_show == "B" and game.record_id is None
    assert _refusal(game, "A") == "The game is over."
    with pytest.raises(online.OnlineRefused, match=r"^The game is over\.$"):
        online.play(game, "A", {"move": "resign"})
    assert online.view(game, None)["over"]  # a reconnect shows the ended game
    board = game.board
    listing = Client().get(f"/e/{board.round.event.slug}/online/{board.round.number}"
                           "/games.json").json()["games"]
    mine = next(g for g in listing if g["board"] == board.number)
    assert (mine["over"], mine["result"]) == (True, "1-0")  # a program reads it over too


def test_a_player_who_opened_the_game_or_moved_is_never_a_no_show(game, clock_time):
    online.note_seen(game, "A")
    online.note_seen(game, "B")
    first_seen = OnlineGame.objects.get(pk=game.pk).seen_b
    clock_time.advance(30 * MINUTE)
    online.note_seen(game, "B")  # only the first time is kept
    assert OnlineGame.objects.get(pk=game.pk).seen_b == first_seen
    name_b = game.board.second.name
    assert _refusal(game, "A") == APPEARED.format(name_b)
    assert _refusal(game, None) == ("Both players have appeared: the game is played, and the "
                                    "clock decides.")
    assert event_services.current_result(game.board) is None


def test_a_move_is_an_appearance_even_without_a_socket(round_, clock_time):
    """A move proves the seat came (the bot's moves arrive through its socket anyway; a
    restored game's moves were made before the restore forgot its sockets)."""
    arbiter = round_.event.arbiters.get()
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who="arbiter", user=arbiter)
    move = choose_move(online.view(game, "A"), random.Random(2))
    assert online.play(game, "A", move).error is None
    clock_time.advance(6 * MINUTE)
    online.note_seen(game, "B")
    assert _refusal(game, "B").endswith("has appeared: the game is played, and the clock decides.")


def test_the_arbiter_records_it_and_both_absent_is_a_double_forfeit(game, round_, clock_time):
    arbiter = round_.event.arbiters.get()
    assert _refusal(game, None, user=arbiter).endswith("5:00 to go.")
    clock_time.advance(5 * MINUTE)
    clock_services.pause(game.board, who="arbiter", user=arbiter)
    assert _refusal(game, None, user=arbiter) == "The clock is paused."
    clock_services.resume(game.board, who="arbiter", user=arbiter)
    online.claim_no_show(game, seat=None, user=arbiter)
    result = event_services.current_result(game.board)
    assert result.kind == Result.Kind.DOUBLE_FORFEIT and result.entered_by == arbiter
    assert "did not appear within 5 minutes" in result.reason and "claimed" not in result.reason
    assert online.view(game, "A")["result"] == "0-0"


def test_before_the_start_and_with_a_result_nothing_can_be_claimed(round_, clock_time):
    arbiter = round_.event.arbiters.get()
    game = online.mark_online(round_, user=arbiter)[0]
    online.note_seen(game, "A")
    assert _refusal(game, "A") == ("The clocks have not started: the waiting time counts from "
                                   "their start.")
    online.start_round(round_, who="arbiter", user=arbiter)
    clock_time.advance(6 * MINUTE)
    event_services.record_result(game.board, Result.Kind.FORFEIT, loser_seat="second",
                                 source=Result.Source.ARBITER, reason="seen leaving", user=arbiter)
    assert _refusal(game, "A") == "This board already has a result."
    clock_time.advance(5 * MINUTE)  # A's ten minutes ran out while waiting: the clock decides
    assert _refusal(game, "A") == "A flag has fallen: the clock decides this game."


def test_a_backup_keeps_who_appeared_and_who_did_not(game, round_, clock_time):
    online.note_seen(game, "A")
    clock_time.advance(5 * MINUTE)
    online.claim_no_show(game, seat="A")
    data = json.loads(json.dumps(document.export_event(round_.event)))
    assert data["version"] >= 7
    kept = next(b["online"] for r in data["rounds"] for b in r["boards"]
                if b["number"] == game.board.number)
    assert kept["no_show"] == "B" and kept["seen"]["A"] and kept["seen"]["B"] is None
    copy = document.import_event(data, slug="no-show-copy")
    restored = OnlineGame.objects.get(board__round__event=copy, board__number=game.board.number)
    assert restored.no_show == "B" and restored.seen_a is not None and restored.seen_b is None
    assert online.view(restored, "A")["over"]
    kept["no_show"] = "C"
    with pytest.raises(document.BackupError, match="no_show"):
        document.import_event(data, slug="no-show-bad")
