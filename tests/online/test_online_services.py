"""Online games in the database: the switch, the seat links, moves with the clock, the end."""

import random

import pytest
from django.contrib.auth import get_user_model

from bench.events import create_clock_event
from clocks import flagtimer
from clocks import services as clock_services
from games.dealt import check_deal
from games.dealt.bot import choose_move
from games.models import GameRecord, OnlineGame
from games.online import play as online
from tournament import services
from tournament.boards.tokens import TokenRefused
from tournament.models import Result


@pytest.fixture
def round_(db):
    arbiter = get_user_model().objects.create_user("onlinearbiter", password="pw-online-1")
    return create_clock_event(2, arbiter=arbiter, slug="online-open")


@pytest.fixture
def arbiter(round_):
    return round_.event.arbiters.get()


@pytest.fixture
def game(round_, arbiter, clock_time):
    games = online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter", user=arbiter)
    return games[0]


def _move(game, rng, clock_time, step_ms=3000):
    seat = online.view(game, "A")["to_act"]
    clock_time.now += step_ms
    move = choose_move(online.view(game, seat), rng)
    return seat, online.play(game, seat, move)


def test_marking_a_round_online_deals_every_board_with_two_seat_links(round_, arbiter):
    games = online.mark_online(round_, user=arbiter)
    assert len(games) == 2 and online.is_online(round_)
    tokens = {g.token_a for g in games} | {g.token_b for g in games}
    assert len(tokens) == 4 and not tokens & {b.token for b in round_.boards.all()}
    assert all(len(g.seed) == 64 and len(g.commitment) == 64 for g in games)
    assert online.mark_online(round_, user=arbiter)[0].seed == games[0].seed  # once only
    found, seat = online.seat_for_token(games[0].token_b)
    assert found.pk == games[0].pk and seat == "B"
    with pytest.raises(TokenRefused, match="This player link is not valid"):
        online.seat_for_token(round_.boards.get(number=1).token)
    old = games[0].token_a
    online.reissue_seat_token(games[0], "A")
    with pytest.raises(TokenRefused, match="not valid"):
        online.seat_for_token(old)


def test_a_round_that_began_over_the_board_cannot_go_online(round_, arbiter, clock_time):
    clock_services.start(round_.boards.get(number=2), who="arbiter")
    with pytest.raises(online.OnlineRefused, match="Board 2 has already begun"):
        online.mark_online(round_, user=arbiter)
    assert not online.is_online(round_) and not OnlineGame.objects.exists()


def test_moves_wait_for_the_clock_to_start(round_, arbiter, clock_time):
    game = online.mark_online(round_, user=arbiter)[0]
    view = online.view(game, "A")
    rng = random.Random(1)
    played = online.play(game, "A", choose_move(view, rng))
    assert played.error == "The game has not started yet: the arbiter starts the clocks."
    assert OnlineGame.objects.get(pk=game.pk).moves == []


def test_the_turn_ends_with_the_move_and_the_next_clock_starts(game, clock_time):
    rng = random.Random(4)
    view = online.view(game, "A")
    assert view["clock"]["running"] == "A" and view["rack"] and view["number"] == 0
    clock_time.now += 7000
    played = online.play(game, "A", choose_move(view, rng))
    assert played.error is None
    if played.view["awaiting"] == "choice":  # a swap is allowed: the turn is still open
        assert played.view["clock"]["running"] == "A"
        played = online.play(game, "A", {"move": "refill", "number": 1})
    clock = played.view["clock"]
    assert clock["running"] == "B" and clock["press_number"] == 1
    assert clock["remaining_ms"]["A"] == 593_000
    stored = OnlineGame.objects.get(pk=game.pk)
    assert stored.moves[-1]["clock"] == 593


def test_bad_moves_are_refused_precisely_and_change_nothing(game, clock_time):
    view = online.view(game, "A")
    rng = random.Random(2)
    move = choose_move(view, rng)
    with pytest.raises(online.OnlineRefused, match="This link plays seat B"):
        online.play(game, "B", {**move, "seat": "A"})
    with pytest.raises(online.OnlineRefused, match="A move must be a JSON object"):
        online.play(game, "A", "place")
    with pytest.raises(online.OnlineRefused, match="the clock says when a flag falls"):
        online.play(game, "A", {"move": "flag"})
    out_of_turn = online.play(game, "B", {**move, "seat": "B"})
    assert out_of_turn.error == "wrong seat to act: B cannot place a tile; seat A is to act"
    ahead = online.play(game, "A", {**move, "number": 5})  # issue #21: say what happened
    assert ahead.error == ("this move answers move 5, but the game is at move 0: the client is "
                           "ahead of the game; nothing changed, reload the game")
    assert OnlineGame.objects.get(pk=game.pk).moves == []
    assert clock_services.snapshot(game.board)["press_number"] == 0
    assert online.play(game, "A", move).error is None
    duplicate = online.play(game, "A", move)
    assert duplicate.error.startswith("stale move")


def test_a_complete_game_stores_its_record_and_result_from_the_record(game, clock_time):
    rng = random.Random(8)
    while not online.view(game, None)["over"]:
        _seat, played = _move(game, rng, clock_time)
        assert played.error is None, played.error
    final = online.view(game, None)
    assert final["seed"] and final["record"]["tags"]["Result"] == final["result"]
    stored = GameRecord.objects.get(board=game.board)
    assert stored.submitted_via == "online"
    result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
    assert result.source == Result.Source.RECORD and result.record_link.record_id == stored.pk
    check_deal(stored.text, final["seed"], final["commitment"])
    assert final["commitment"] == game.commitment
    assert clock_services.snapshot(game.board)["finished"]["kind"] == "completed"
    with pytest.raises(online.OnlineRefused, match="The game is over"):
        online.play(game, "A", {"move": "resign"})


def test_a_flagged_seat_stops_and_the_opponent_plays_on_alone(game, clock_time):
    rng = random.Random(3)
    for _ in range(4):
        _move(game, rng, clock_time)
    while online.view(game, None)["to_act"] != "A":
        _move(game, rng, clock_time)
    clock_time.now += 601_000  # A's ten minutes run out while it thinks
    view = online.view(game, None)
    assert view["stopped"] == {"A": True, "B": False} and view["to_act"] == "B"
    assert any(a == {"seat": "A", "action": "flag"} for a in view["actions"])
    refused = online.play(game, "A", {"move": "place", "placement": "a2R-a3R",
                                      "number": view["number"]})
    assert refused.error == ("wrong seat to act: A cannot place a tile; seat A has flagged and "
                             "takes no further turns")
    assert view["clock"]["status"] == "a_flagged" and view["clock"]["running"] == "B"
    while not online.view(game, None)["over"]:
        seat, played = _move(game, rng, clock_time, step_ms=1000)
        assert seat == "B" and played.error is None, played.error
    stored = GameRecord.objects.get(board=game.board)
    assert "A flag" in stored.text
    assert Result.objects.get(board=game.board, status=Result.Status.ACCEPTED).source == "record"


def test_a_resignation_ends_the_game_and_the_other_side_wins(game, clock_time):
    rng = random.Random(5)
    _move(game, rng, clock_time)
    played = online.play(game, "A", {"move": "resign"})
    assert played.error is None and played.view["result"] == "0-1"
    result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
    assert result.kind == Result.Kind.RESIGNATION and result.source == Result.Source.RECORD
    assert clock_services.snapshot(game.board)["finished"]["kind"] == "resigned"


def test_a_move_is_judged_at_one_instant_the_clock_read_and_the_press_alike(game, clock_time):
    """The clock is taken once per move (one lock, one time): a move that reaches the clock a
    millisecond before the deadline stands, however long the rest of the move takes."""
    rng = random.Random(6)
    view = online.view(game, "A")
    deadline = view["clock"]["deadline_ms"]
    clock_time.later = [deadline - 1, deadline + 500]  # the second reading is never asked for
    played = online.play(game, "A", choose_move(view, rng))
    if played.view["awaiting"] == "choice":
        played = online.play(game, "A", {"move": "refill"})
    assert played.error is None
    assert played.view["clock"]["running"] == "B" and not played.view["stopped"]["A"]
    assert played.view["clock"]["remaining_ms"]["A"] == 1


def test_a_move_after_the_deadline_does_not_stand_and_the_flag_does(game, clock_time):
    rng = random.Random(6)
    view = online.view(game, "A")
    clock_time.now = view["clock"]["deadline_ms"] + 1
    played = online.play(game, "A", choose_move(view, rng))
    assert played.error == "seat A has flagged and takes no further turns"
    stored = OnlineGame.objects.get(pk=game.pk)
    assert [m["move"] for m in stored.moves] == ["flag"]
    view = online.view(game, "B")
    assert view["stopped"]["A"] and view["to_act"] == "B"
    assert view["clock"]["running"] == "B"


def test_the_flag_timer_ends_a_game_nobody_looks_at_when_both_flags_fall(game, clock_time):
    rng = random.Random(9)
    for _ in range(3):
        _move(game, rng, clock_time)
    deadline = online.view(game, None)["clock"]["deadline_ms"]
    clock_time.now = deadline + 1
    assert game.board_id in flagtimer.tick()[0]  # the seat to act flags
    stored = OnlineGame.objects.get(pk=game.pk)
    assert stored.moves[-1]["move"] == "flag" and stored.record_id is None
    clock_time.now = online.view(game, None)["clock"]["deadline_ms"] + 1
    flagtimer.tick()  # the other, playing alone, runs out too: the game is over
    stored = OnlineGame.objects.get(pk=game.pk)
    assert stored.record_id is not None
    assert [m["move"] for m in stored.moves[-2:]] == ["flag", "flag"]
    result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
    assert result.source == Result.Source.RECORD


def _fresh_view(game, seat):
    """The view a worker that never saw the game would show (no kept table)."""
    online._tables.pop(game.pk, None)
    return online.view(game, seat)


@pytest.mark.django_db(transaction=True)  # tables are kept when a move's transaction commits
def test_a_kept_table_catches_up_with_moves_another_worker_made(game, clock_time):
    rng = random.Random(21)
    for _ in range(3):
        _move(game, rng, clock_time)
    stale = online._table(OnlineGame.objects.get(pk=game.pk))  # this worker's table, then...
    for _ in range(3):  # ...another worker makes three moves this one never sees
        online._tables.pop(game.pk, None)
        _move(game, rng, clock_time)
    online._tables[game.pk] = stale
    kept_moves = len(stale.moves)
    seat, played = _move(game, rng, clock_time)
    assert played.error is None
    assert online._tables[game.pk] is stale and len(stale.moves) > kept_moves + 3
    assert played.view == {**_fresh_view(game, seat), "clock": played.view["clock"]}


@pytest.mark.django_db(transaction=True)
def test_a_move_that_rolls_back_leaves_no_kept_table_ahead_of_the_database(
        game, clock_time, monkeypatch):
    rng = random.Random(22)
    _move(game, rng, clock_time)
    before = OnlineGame.objects.get(pk=game.pk).moves

    def fail(_game):
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patched, pytest.raises(RuntimeError):
        patched.setattr(online.online_rows, "save", fail)
        _move(game, rng, clock_time)
    assert OnlineGame.objects.get(pk=game.pk).moves == before
    assert game.pk not in online._tables or online._tables[game.pk].moves == before
    _seat, played = _move(game, rng, clock_time)
    assert played.error is None and played.view["number"] == len(before) + 1


def test_a_move_is_four_statements_under_one_lock_of_the_game_and_one_of_the_clock(
        game, clock_time):
    """Lock and read the game, lock and read the clock, write the clock (on PostgreSQL with its
    log entry in the same statement), write the moves; plus the transaction's own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    rng = random.Random(23)
    _move(game, rng, clock_time)
    seat = online.view(game, None)["to_act"]
    move = choose_move(online.view(game, seat), rng)
    clock_time.now += 1000
    with CaptureQueriesContext(connection) as queries:
        played = online.play(game, seat, move)
    assert played.error is None
    work = [q["sql"] for q in queries.captured_queries
            if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]
    expected = 4 if connection.vendor == "postgresql" else 5
    assert len(work) == expected, work


def _arbiter(game, arbiter, **content):
    from clocks.consumers import run_arbiter_command

    return run_arbiter_command(game.board, content, arbiter)


def _flag_a(game, rng, clock_time):
    while online.view(game, None)["to_act"] != "A":
        _move(game, rng, clock_time)
    clock_time.now = online.view(game, None)["clock"]["deadline_ms"] + 1
    flagtimer.tick()
    view = online.view(game, None)
    assert view["stopped"]["A"] and view["to_act"] == "B"
    return view


def test_time_given_back_to_a_flagged_seat_withdraws_its_flag_while_nothing_followed(
        game, arbiter, clock_time):
    rng = random.Random(31)
    _move(game, rng, clock_time)
    flagged = _flag_a(game, rng, clock_time)
    _arbiter(game, arbiter, type="adjust", side="A", kind="add", seconds=60,
             reason="the server was unreachable", turn="A")
    view = online.view(game, "A")
    assert not view["stopped"]["A"] and view["to_act"] == "A"
    assert view["number"] == flagged["number"] - 1
    assert view["clock"]["running"] == "A" and view["clock"]["flags"]["A"] is None
    assert all(m["move"] != "flag" for m in OnlineGame.objects.get(pk=game.pk).moves)
    seat, played = _move(game, rng, clock_time)  # A plays on
    assert seat == "A" and played.error is None


def test_a_flag_followed_by_moves_cannot_be_taken_back_and_nothing_changes(
        game, arbiter, clock_time):
    rng = random.Random(32)
    _move(game, rng, clock_time)
    _flag_a(game, rng, clock_time)
    seat, played = _move(game, rng, clock_time)  # B plays on alone
    assert seat == "B" and played.error is None
    before = OnlineGame.objects.get(pk=game.pk).moves
    clock_before = clock_services.snapshot(game.board)
    with pytest.raises(clock_services.ClockRefused, match="can no longer be taken back"):
        _arbiter(game, arbiter, type="adjust", side="A", kind="add", seconds=60,
                 reason="too late", turn="A")
    assert OnlineGame.objects.get(pk=game.pk).moves == before
    assert clock_services.snapshot(game.board)["version"] == clock_before["version"]


def test_the_clocks_turn_stays_the_one_the_moves_give(game, arbiter, clock_time):
    rng = random.Random(33)
    _move(game, rng, clock_time)
    to_act = online.view(game, None)["to_act"]
    other = "A" if to_act == "B" else "B"
    with pytest.raises(clock_services.ClockRefused, match=f"seat {to_act} is to move"):
        _arbiter(game, arbiter, type="correct", turn=other, reason="a wrong press")
    flagged = _flag_a(game, rng, clock_time)
    with pytest.raises(clock_services.ClockRefused, match="seat A is to move"):
        _arbiter(game, arbiter, type="adjust", side="A", kind="add", seconds=60,
                 reason="given back", turn="B")
    assert online.view(game, None)["number"] == flagged["number"]
    _arbiter(game, arbiter, type="pause")
    assert online.play(game, "B", choose_move(online.view(game, "B"), rng)).error == (
        "The clock is paused.")
    _arbiter(game, arbiter, type="resume")
    assert online.play(game, "B", choose_move(online.view(game, "B"), rng)).error is None


@pytest.mark.django_db
def test_a_round_robin_game_the_pairing_forfeited_is_not_dealt_and_the_round_goes_online(
        arbiter, clock_time):
    """An absence in a round robin is a forfeit from the pairing on: that board has nothing to
    play, and it no longer keeps the round from going online as if it had begun over the
    board (the round then stayed over the board without a word)."""
    event = services.create_event(name="Small Online", slug="small-online", arbiter=arbiter,
                                  pairing_system="round_robin", rounds_planned=3)
    players = [services.add_player(event, name=name) for name in ("Ada", "Ben", "Cleo", "Dan")]
    services.set_absence(players[3], 1)
    online.mark_event_online(event, user=arbiter)
    round_ = services.publish_round(services.pair_next_round(event))
    decided = Result.objects.get(board__round=round_, source=Result.Source.PAIRING)
    assert online.is_online(round_)
    games = OnlineGame.objects.filter(board__round=round_)
    assert games.count() == 1 and not games.filter(board=decided.board).exists()
    assert online.start_round(round_, who="arbiter", user=arbiter) >= 1
    assert games.count() == 1  # starting the clocks deals nothing for the decided board
