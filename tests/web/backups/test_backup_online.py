"""Backups of online rounds (issue #15): a round played online comes back from its JSON backup
exactly where it stood, with the personal links already printed on the players' slips."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backups import automatic, document
from bench.events import create_clock_event, delete_event
from clocks import services as clock_services
from clocks.models import Clock, ClockLogEntry
from games.dealt import Table, parse_seed
from games.dealt.bot import choose_move
from games.engine import Placement
from games.models import GameRecord, OnlineGame, OnlineRound
from games.online import play as online
from tests.fake_time import FakeTime
from tests.web.backups.backup_fuzz import imported_whole_or_refused, spoiled
from tournament.models import Board, Event, Result, Round

pytestmark = pytest.mark.django_db

ROWS = (Event, Round, Board, Result, GameRecord, OnlineRound, OnlineGame, Clock, ClockLogEntry)


def _counts():
    return [model.objects.count() for model in ROWS]


def _move(game, rng, clock_time, step_ms=3000):
    """The seat to act makes a random legal move three seconds later (the bot's choice)."""
    seat = online.view(game, None)["to_act"]
    clock_time.advance(step_ms)
    played = online.play(game, seat, choose_move(online.view(game, seat), rng))
    assert played.error is None, played.error
    return seat


def _round_trip(round_, **options):
    """Export the event, delete it, import the backup (as after a crash of the server)."""
    data = json.loads(json.dumps(document.export_event(round_.event)))
    delete_event(round_)
    return data, document.import_event(copy.deepcopy(data), **options)


def _play(arbiter, clock_time):
    """Round 1 of two boards online and started: board 1 played to its end, board 2 after
    seven moves (every clock note A and B had at the end of their turns is in the moves)."""
    round_ = create_clock_event(2, arbiter=arbiter, slug="online-open")
    finished, going = online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter1", user=arbiter)
    rng = random.Random(8)
    while not online.view(finished, None)["over"]:
        _move(finished, rng, clock_time)
    for _ in range(7):
        _move(going, rng, clock_time)
    return round_


@pytest.fixture
def online_round(arbiter, clock_time):
    return _play(arbiter, clock_time)


@pytest.fixture(scope="module")
def backup(django_db_setup, django_db_blocker):
    """The backup of such a round's event, played once for the module's crafted copies (the
    event itself is rolled back: a crafted file is imported on a server without it)."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        clock_time = FakeTime()
        patch.setattr(clock_services, "now_ms", clock_time)
        with transaction.atomic():
            user = get_user_model().objects.create_user("arbiter1", password="pw-arbiter-1")
            round_ = _play(user, clock_time)
            data = json.loads(json.dumps(document.export_event(round_.event)))
            transaction.set_rollback(True)
    return data


def _game(data, board):
    return data["rounds"][0]["boards"][board]["online"]


def test_a_round_played_online_comes_back_where_it_stood(online_round, arbiter, clock_time):
    going = OnlineGame.objects.get(board__round=online_round, board__number=2)
    before = {seat: online.view(going, seat) for seat in ("A", "B")}
    data, event = _round_trip(online_round, arbiter=arbiter)
    assert document.export_event(event) == data  # seeds, moves, links, record link, times
    assert data["version"] == document.VERSION == 8
    round_ = event.rounds.get()
    assert OnlineRound.objects.get(round=round_).marked_by == arbiter

    done = OnlineGame.objects.get(board__round=round_, board__number=1)
    record = GameRecord.objects.get(board=done.board)
    assert done.record == record and _game(data, 0)["record"] == 0
    result = Result.objects.get(board=done.board, status=Result.Status.ACCEPTED)
    assert result.source == Result.Source.RECORD and result.record_link.record == record
    assert online.view(done, None)["over"] and online.view(done, None)["record_id"] == record.pk
    assert clock_services.snapshot(done.board)["finished"]["kind"] in ("completed", "resigned")

    moves = _game(data, 1)["moves"]
    for seat in ("A", "B"):
        game, opened = online.seat_for_token(_game(data, 1)[f"token_{seat.lower()}"])
        assert opened == seat and game.moves == moves
        view = online.view(game, seat)
        for key in ("rack", "cells", "scores", "to_act", "awaiting", "number", "commitment"):
            assert view[key] == before[seat][key], key
    clock = view["clock"]
    notes = {m["seat"]: m["clock"] for m in moves if "clock" in m}
    assert clock["status"] == "paused" and clock["turn"] == before["A"]["to_act"]
    assert clock["remaining_ms"] == {seat: notes[seat] * 1000 for seat in ("A", "B")}

    seat = view["to_act"]
    assert online.play(game, seat, {"move": "resign"}).error == "The clock is paused."
    assert clock_services.resume_round(round_, who="arbiter1", user=arbiter) == 1
    clock_time.advance(2000)
    played = online.play(game, seat, choose_move(online.view(game, seat), random.Random(1)))
    assert played.error is None and played.view["number"] == len(moves) + 1
    assert played.view["clock"]["remaining_ms"][seat] <= notes[seat] * 1000 - 2000


def test_a_seat_that_had_flagged_stays_stopped_and_its_opponent_plays_on(arbiter, clock_time):
    round_ = create_clock_event(1, arbiter=arbiter, slug="flag-open")
    (game,) = online.mark_online(round_, user=arbiter)
    online.start_round(round_, who="arbiter1", user=arbiter)
    rng = random.Random(3)
    for _ in range(3):
        _move(game, rng, clock_time)
    while online.view(game, None)["to_act"] != "A":
        _move(game, rng, clock_time)
    clock_time.advance(601_000)  # A's ten minutes run out while it thinks
    online.sync(game)
    _data, event = _round_trip(round_)
    game = OnlineGame.objects.get(board__round__event=event)
    view = online.view(game, "B")
    assert view["stopped"] == {"A": True, "B": False} and view["to_act"] == "B"
    assert view["clock"]["remaining_ms"]["A"] == 0 and view["clock"]["turn"] == "B"
    clock_services.resume_round(event.rounds.get(), who="arbiter1")
    for _ in range(2):  # B's turn ends, the clock flags A at once, B plays again
        assert _move(game, rng, clock_time) == "B"
    clock = online.view(game, "B")["clock"]
    assert clock["status"] == "a_flagged" and clock["running"] == "B"


def test_a_round_whose_games_had_no_move_gets_no_clocks(arbiter, clock_time):
    round_ = create_clock_event(2, arbiter=arbiter, slug="dealt-open")
    online.mark_online(round_, user=arbiter)
    data, event = _round_trip(round_)
    round_ = event.rounds.get()
    assert OnlineGame.objects.filter(board__round=round_).count() == 2
    assert not Clock.objects.filter(board__round=round_).exists()
    assert online.start_round(round_, who="arbiter1") == 2  # started as usual
    assert document.export_event(event) == data


def test_an_automatic_backup_restores_beside_the_original_with_new_personal_links(
        online_round, arbiter_client, settings, tmp_path):
    """The original keeps its links (the slips in the players' hands go on opening it): the
    copy, restored from the original's own export page, gets links of its own."""
    settings.BACKUP_DIR = tmp_path
    written = automatic.write_now(online_round.event, "manual")
    assert written.stat().st_mode & 0o777 == 0o600  # it holds the links: the server's only
    data = automatic.load(online_round.event, written.name)
    response = arbiter_client.post(reverse("arbiter_restore_backup",
                                           args=[online_round.event.slug, written.name]))
    assert response.status_code == 302
    twin_event = Event.objects.get(slug="online-open-restored")
    for index in (0, 1):
        original = _game(data, index)
        twin = OnlineGame.objects.get(board__round__event=twin_event, board__number=index + 1)
        assert twin.seed == original["seed"] and twin.moves == original["moves"]
        assert {twin.token_a, twin.token_b}.isdisjoint({original["token_a"],
                                                         original["token_b"]})
        game, seat = online.seat_for_token(original["token_b"])
        assert game.board.round == online_round and seat == "B"
    log = ClockLogEntry.objects.filter(clock__board__round__event=twin_event)
    assert set(log.values_list("who", flat=True)) == {"arbiter1"}
    assert clock_services.snapshot(twin.board)["status"] == "paused"


def test_an_old_backup_without_online_games_still_imports(backup):
    data = copy.deepcopy(backup)
    data["version"] = 1
    for round_ in data["rounds"]:
        del round_["online"]
        for board in round_["boards"]:
            del board["online"]
    event = document.import_event(data)
    assert not online.is_online(event.rounds.get())
    assert not OnlineGame.objects.filter(board__round__event=event).exists()
    assert Result.objects.filter(board__round__event=event).count() == 1


def test_an_event_played_online_round_after_round_stays_so_after_a_restore(arbiter):
    round_ = create_clock_event(1, arbiter=arbiter, slug="online-everywhere")
    online.mark_event_online(round_.event, user=arbiter)
    data = json.loads(json.dumps(document.export_event(round_.event)))
    assert data["event"]["online"]["marked_by"] == arbiter.username
    delete_event(round_)
    event = document.import_event(data)
    assert online.is_event_online(event) and online.is_online(event.rounds.get())
    assert document.export_event(event)["event"]["online"] == data["event"]["online"]
    crafted = copy.deepcopy(data)
    crafted["event"]["slug"], crafted["event"]["online"] = "crafted", {"marked_at": "soon"}
    with pytest.raises(document.BackupError, match=r"event\.online\.marked_at"):
        document.import_event(crafted)


def _set(board, key, value):
    return lambda d: d["rounds"][0]["boards"][board]["online"].update({key: value})


def _move_of(board, index, **changes):
    return lambda d: d["rounds"][0]["boards"][board]["online"]["moves"][index].update(changes)


def _tile_not_in_the_rack(data):
    """The first move of board 2 on its cells, but with a double that A's rack lacks."""
    game = data["rounds"][0]["boards"][1]["online"]
    rack = Table(parse_seed(game["seed"])).rack("A")
    tile = next(t for t in ("RR", "GG", "BB", "OO", "YY", "PP") if t not in rack)
    placement = Placement.parse(game["moves"][0]["placement"])
    game["moves"][0]["placement"] = f"{placement.first}{tile[0]}-{placement.second}{tile[1]}"
    return tile


def _token(data, board, seat):
    return data["rounds"][0]["boards"][board]["online"][f"token_{seat}"]


PATH = "rounds[0].boards[1].online"
CRAFTED = [
    (_set(1, "seed", "zz" * 32), f"{PATH}.seed: a seed is 64 hex digits"),
    (_set(1, "seed", "ab" * 31), f"{PATH}.seed: a seed is 64 hex digits"),
    (_set(1, "commitment", "0" * 64), f"{PATH}.commitment: does not match the deal of this seed"),
    (_set(1, "seed", "ab" * 32), f"{PATH}.commitment: does not match the deal of this seed"),
    (_move_of(1, 2, seat="C"), f"{PATH}.moves[2]: seat must be A or B, not 'C'"),
    (_move_of(1, 0, seat="B"), f"{PATH}.moves[0]: wrong seat to act: B cannot place a tile; "
                               "seat A is to act"),
    (_tile_not_in_the_rack, f"{PATH}.moves[0]: tile '{{tile}}' is not in seat A's rack"),
    (_set(1, "moves", "all of them"), f"{PATH}.moves: expected a list"),
    (_set(1, "token_a", "short"), f"{PATH}.token_a: a personal link is 10 to 32 of the"),
    (_set(1, "token_b", "with/a/slash/in/it"), f"{PATH}.token_b: a personal link is"),
    (_set(1, "token_b", None), f"{PATH}.token_b: expected text"),
    (lambda d: _set(1, "token_b", _token(d, 0, "a"))(d),
     f"{PATH}.token_b: the same link as rounds[0].boards[0].online.token_a"),
    (lambda d: _set(1, "token_b", _token(d, 1, "a"))(d),
     f"{PATH}.token_b: the same link as {PATH}.token_a"),
    (lambda d: _set(1, "token_a", d["rounds"][0]["boards"][0]["token"])(d),
     f"{PATH}.token_a: the same link as rounds[0].boards[0].token"),
    (_set(0, "record", 3), "rounds[0].boards[0].online.record: no record 3 on this board"),
    (_set(1, "record", 0), f"{PATH}.record: no record 0 on this board"),
    (lambda d: d["rounds"][0]["boards"][1].update(second=None), f"{PATH}: a bye has no online"),
    (lambda d: d["rounds"][0].update(online=None),
     f"{PATH}: only the boards of a round played online have online games"),
    (lambda d: d["rounds"][0].update(status="drafted"),
     f"{PATH}.moves: the round is not published yet"),
]


@pytest.mark.parametrize(("change", "says"), CRAFTED)
def test_a_crafted_online_game_is_refused_whole_with_its_path(backup, change, says):
    data = copy.deepcopy(backup)
    tile = change(data)
    before = _counts()
    with pytest.raises(document.BackupError) as refused:
        document.import_event(data)
    assert says.format(tile=tile) in str(refused.value)
    assert _counts() == before


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=70)
    | st.sampled_from(["place", "swap", "refill", "flag", "resign", "A", "B", "f10R-f9G"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["seat", "move", "placement", "clock", "number"]), inner, max_size=4),
    max_leaves=12,
)
WHERE = st.lists(st.sampled_from(["online", "moves", "seed", "commitment", "token_a", "token_b",
                                  "record", "created_at", "marked_by", "seat", "move",
                                  "placement", "clock"]) | st.integers(0, 8),
                 min_size=1, max_size=4)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(junk=JUNK, board=st.sampled_from([None, 0, 1]), where=WHERE)
def test_junk_in_an_online_game_never_escapes_as_anything_but_a_refusal(backup, junk, board,
                                                                         where):
    start = ["rounds", 0] if board is None else ["rounds", 0, "boards", board]
    event = imported_whole_or_refused(spoiled(backup, start, where, junk), _counts)
    if event is not None:
        delete_event(event.rounds.get())


def test_the_import_page_says_a_refusal_in_the_readers_language(backup, arbiter_client):
    crafted = copy.deepcopy(backup)
    _set(1, "seed", "zz" * 32)(crafted)
    upload = io.BytesIO(json.dumps(crafted).encode())
    upload.name = "event.json"
    page = arbiter_client.post(reverse("event_import"), {"backup": upload}, follow=True,
                               HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f"{PATH}.seed: начальное значение — это 64 шестнадцатеричные цифры" in page
    assert not Event.objects.exists()
