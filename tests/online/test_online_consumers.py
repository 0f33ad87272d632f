"""The online game's sockets through the real ASGI application: a whole game played by two
bot seats, every message to the opponent and to a spectator inspected, reconnects, refusals."""

import random

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from bench.events import create_clock_event
from clocks import flagtimer, groups
from games.dealt import Table, parse_seed
from games.dealt.bot import choose_move
from games.live import tags_for
from games.models import OnlineGame
from games.online import play as online
from tests.sockets import (
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    foreign_origin_refused,
    receive,
    receive_past,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

VIEW_KEYS = {"seat", "cells", "last", "actions", "scores", "lowest", "to_act", "awaiting",
             "bonus", "stopped", "bag", "rack_sizes", "number", "commitment", "over", "end",
             "end_code", "end_params",
             "result", "board", "board_number", "round", "players", "record_id", "clock",
             "appeared", "claim_from_ms"}
END_KEYS = {"seed", "record"}


def _started_game():
    arbiter = get_user_model().objects.create_user("sockarbiter", password="pw-sock-1")
    round_ = create_clock_event(1, arbiter=arbiter, slug="online-sockets")
    game = online.mark_online(round_, user=arbiter)[0]
    online.start_round(round_, who="arbiter", user=arbiter)
    return OnlineGame.objects.select_related("board__round__event", "board__first",
                                             "board__second").get(pk=game.pk)


@pytest_asyncio.fixture
async def game(transactional_db):
    return await database_sync_to_async(_started_game)()


async def _state(communicator, log: list, number: int) -> dict:
    """Read (and log) messages until a state at move ``number`` or later arrives."""
    while True:
        message = await receive(communicator)
        log.append(message)
        if message["type"] in ("state", "refused") and message["view"]["number"] >= number:
            return message


def _truth(game: OnlineGame, moves: list, number: int, seat: str | None) -> dict:
    table = Table.restore(parse_seed(game.seed), moves[:number],
                          profile=game.board.round.event.rules_profile,
                          tags=tags_for(game.board))
    return table.view(seat)


def _check_private(game, moves, log, seat):
    """Every message to ``seat``'s socket (None: a spectator) shows only what it may see: each
    view equals the core's view for that seat at that move, whose independence from the other
    rack and the bag the core's property tests prove, and carries nothing else. A clock
    message never repeats a clock a view already brought."""
    newest_clock = -1
    for message in log:
        assert message["type"] in ("state", "clock", "refused"), message
        if message["type"] == "clock":
            assert set(message) == {"type", "clock"}
            assert "rack" not in message["clock"] and "actions" not in message["clock"]
            assert message["clock"]["version"] > newest_clock
            newest_clock = message["clock"]["version"]
            continue
        view = message["view"]
        newest_clock = max(newest_clock, view["clock"]["version"])
        allowed = VIEW_KEYS | (END_KEYS if view["over"] else set()) | (
            {"rack"} if seat is not None else set()) | (
            {"reach"} if seat is not None and view["to_act"] == seat and not view["over"]
            else set())  # where a tile can go: for the seat to move only
        assert set(view) == allowed, set(view) ^ allowed
        assert view["seat"] == seat
        truth = _truth(game, moves, view["number"], seat)
        assert {k: view[k] for k in truth} == truth


async def test_a_whole_game_through_the_sockets_keeps_each_rack_private(game):
    a = await connect(f"/ws/play/{game.token_a}/")
    b = await connect(f"/ws/play/{game.token_b}/")
    spectator = await connect(f"/ws/watch/{game.board_id}/")
    logs = {"A": [], "B": [], None: []}
    sockets = {"A": a, "B": b, None: spectator}
    views = {seat: (await _state(sockets[seat], logs[seat], 0))["view"] for seat in sockets}
    assert views["A"]["rack"] and views["B"]["rack"] and "rack" not in views[None]
    assert views["A"]["commitment"] == game.commitment == views[None]["commitment"]
    assert views["A"]["clock"]["running"] == "A"
    rng = random.Random(12)
    reconnected = False
    while not views[None]["over"]:
        seat = views[None]["to_act"]
        move = choose_move(views[seat], rng)
        await sockets[seat].send_json_to({"type": "move", **{k: v for k, v in move.items()
                                                             if k != "seat"}})
        number = views[None]["number"] + 1
        for s in sockets:
            views[s] = (await _state(sockets[s], logs[s], number))["view"]
            assert views[s]["number"] == number
        if not reconnected and number >= 10:  # A drops and comes back mid-game
            await a.disconnect()
            a = sockets["A"] = await connect(f"/ws/play/{game.token_a}/")
            again = (await _state(a, logs["A"], number))["view"]
            assert again["rack"] == views["A"]["rack"] and again["cells"] == views["A"]["cells"]
            assert again["clock"]["remaining_ms"].keys() == {"A", "B"}
            assert again["clock"]["press_number"] == views["A"]["clock"]["press_number"]
            views["A"] = again
            reconnected = True
    assert views[None]["seed"] == game.seed and views[None]["result"] in ("1-0", "0-1", "½-½")
    stored = await database_sync_to_async(OnlineGame.objects.get)(pk=game.pk)
    assert stored.record_id is not None
    for seat, communicator in sockets.items():
        while not await communicator.receive_nothing(timeout=0.2):
            logs[seat].append(await receive(communicator))
        await communicator.disconnect()
    for seat in ("B", None):  # the opponent of A and the spectator; and A's own, for symmetry
        await database_sync_to_async(_check_private)(game, stored.moves, logs[seat], seat)
    await database_sync_to_async(_check_private)(game, stored.moves, logs["A"], "A")


async def test_bad_messages_get_precise_errors_and_change_nothing(game):
    a = await connect(f"/ws/play/{game.token_a}/")
    b = await connect(f"/ws/play/{game.token_b}/")
    view = (await receive(a, "state"))["view"]
    await receive(b, "state")
    appeared = (await receive(a, "state"))["view"]["appeared"]  # B opened the game: A is told
    assert appeared == {"A": True, "B": True}
    # on Redis's pub/sub layer the news may reach B's own socket too (it joins the board's group
    # while the news travels): the same view again, nothing else
    while not await b.receive_nothing(timeout=0.3):
        assert (await receive(b, "state"))["view"]["appeared"] == appeared
    await a.send_to(text_data="{not json")
    assert (await receive(a, "error"))["message"] == (
        "not valid JSON: Expecting property name enclosed in double quotes (at line 1, column 2)")
    await a.send_json_to({"type": "dance"})
    assert (await receive(a, "error"))["message"] == "Unknown message type 'dance'."
    await a.send_json_to({"type": "move", "move": "resign", "seat": "A"})
    assert (await receive(a, "error"))["message"] == "Unknown field 'seat' in a move."
    await b.send_json_to({"type": "move", "move": "place", "placement": "e1R-f2R"})
    refused = await receive(b, "refused")
    assert refused["message"] == "wrong seat to act: B cannot place a tile; seat A is to act"
    assert refused["view"]["number"] == 0 and refused["view"]["rack"] != view["rack"]
    await a.send_json_to({"type": "move", "move": "place", "placement": "f6R-f7R",
                          "number": 4})
    assert (await receive(a, "refused"))["message"].startswith(
        "this move answers move 4, but the game is at move 0")
    await a.send_json_to({"type": "move", "move": "flag"})
    assert "the clock says when a flag falls" in (await receive(a, "error"))["message"]
    await a.send_json_to({"type": "move", "move": "place", "placement": "f6R-f7R",
                          "clock": {"A": 600}})  # a claimed clock: answered as documented
    assert (await receive(a, "error"))["message"] == (
        "Time is the server's: the clock says when a flag falls.")
    await a.send_json_to({"type": "move", "move": "resign", "think_ms": -5})
    assert (await receive(a, "error"))["message"] == (
        "'think_ms' must be a whole number between 0 and 86400000.")
    await a.send_to(bytes_data=b'{"type": "sync"}')  # JSON text frames only
    assert (await receive(a, "error"))["message"] == (
        "A message must be a text frame of JSON; this one was binary (16 bytes) and was not "
        "read.")
    assert await a.receive_nothing(timeout=0.2) and await b.receive_nothing(timeout=0.2)
    stored = await database_sync_to_async(OnlineGame.objects.get)(pk=game.pk)
    assert stored.moves == []
    await a.send_json_to({"type": "sync"})
    assert (await receive(a, "state"))["view"]["rack"] == view["rack"]
    await a.disconnect()
    await b.disconnect()


async def test_a_ping_is_answered_at_once_and_changes_nothing(game):
    """The seat page's heartbeat (issue #38): a ping on a seat's or a spectator's socket gets
    a pong with the server's time, and nothing else."""
    a = await connect(f"/ws/play/{game.token_a}/")
    await receive(a, "state")
    await a.send_json_to({"type": "ping"})
    pong = await receive(a, "pong")
    assert set(pong) == {"type", "server_time_ms"} and isinstance(pong["server_time_ms"], int)
    assert await a.receive_nothing(timeout=0.2)
    await a.disconnect()


async def test_refusals_come_in_the_language_of_the_page_that_opened_the_socket(game):
    """The switcher's cookie first, then the browser's Accept-Language (as for pages)."""
    a = await connect(f"/ws/play/{game.token_a}/", language=b"ko")
    b = await connect(f"/ws/play/{game.token_b}/", cookie=b"django_language=ru",
                      language=b"ko")
    await receive(a, "state")
    await receive(b, "state")
    await b.send_json_to({"type": "move", "move": "place", "placement": "e1R-f2R"})
    refused = await receive_past(b, "refused")
    assert refused["message"] == "не тот игрок: B не может выложить фишку; ходит игрок A"
    view = await database_sync_to_async(online.view)(game, "A")
    played = await database_sync_to_async(online.play)(game, "A",
                                                       choose_move(view, random.Random(2)))
    assert played.error is None
    await _state(a, [], 1)  # the move reached A's socket
    await a.send_json_to({"type": "move", "move": "place", "placement": "f6R-f7R",
                          "number": 0})
    stale = (await receive_past(a, "refused"))["message"]
    assert not stale.startswith("stale move") and any("가" <= c <= "힣" for c in stale)
    await a.send_json_to({"type": "dance"})
    unknown = (await receive(a, "error"))["message"]
    assert "'dance'" in unknown and any("가" <= c <= "힣" for c in unknown)
    await a.disconnect()
    await b.disconnect()


async def test_a_false_or_withdrawn_link_is_refused_and_foreign_origins_are_denied(game):
    stranger = await connect("/ws/play/not-a-real-seat-token/")
    error = await receive(stranger, "error")
    assert error["fatal"] and error["message"] == "This player link is not valid."
    closed = await stranger.receive_output(timeout=3)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    a = await connect(f"/ws/play/{game.token_a}/")
    await receive(a, "state")
    await database_sync_to_async(online.reissue_seat_token)(game, "A")
    await a.send_json_to({"type": "move", "move": "resign"})
    assert (await receive(a, "error"))["message"] == "This player link is not valid."
    nobody = await connect("/ws/watch/999999/")
    assert (await receive(nobody, "error"))["message"] == "There is no online game on this board."
    assert await foreign_origin_refused(f"/ws/play/{game.token_b}/")
    assert await foreign_origin_refused(f"/ws/watch/{game.board_id}/")


async def test_a_flag_stored_by_the_flag_timer_reaches_every_socket_and_stops_the_seat(
        game, clock_time):
    a = await connect(f"/ws/play/{game.token_a}/")
    spectator = await connect(f"/ws/watch/{game.board_id}/")
    view = (await receive(a, "state"))["view"]
    await receive(spectator, "state")
    clock_time.now = view["clock"]["deadline_ms"] + 5  # A thinks too long, nobody moves
    flagged, _next = await database_sync_to_async(flagtimer.tick)()
    assert flagged == [game.board_id]
    for communicator in (a, spectator):
        assert (await receive(communicator, "clock"))["clock"]["status"] == "a_flagged"
        after = (await receive(communicator, "state"))["view"]
        assert after["stopped"] == {"A": True, "B": False} and after["to_act"] == "B"
        assert after["actions"] == [{"seat": "A", "action": "flag"}]
    await a.send_json_to({"type": "move", "move": "resign"})
    refused = await receive(a, "refused")
    assert refused["message"] == "seat A has already stopped playing"
    await a.disconnect()
    await spectator.disconnect()


async def test_the_board_page_cannot_press_an_online_games_clock(game):
    board_socket = await connect(f"/ws/board/{game.board.token}/")
    await receive(board_socket, "snapshot")
    await board_socket.send_json_to({"type": "press", "side": "A", "press": 0})
    error = await receive(board_socket, "error")
    assert error["message"] == ("This board is played online: the clock moves with the "
                                "players' moves.")
    snap = (await database_sync_to_async(online.view)(game, None))["clock"]
    assert snap["press_number"] == 0 and snap["running"] == "A"
    await board_socket.disconnect()


async def test_the_board_link_cannot_take_an_online_games_clock_nor_drop_its_sockets(game):
    """Any device holding the board's link (its QR code) sent ``take_over`` again and again:
    the board group's ``clock.holder`` reached the seats and spectators, which had no handler,
    and every socket of the game closed with 1011. The take-over is refused with the reason,
    and a ``clock.holder`` reaching the game's sockets (the arbiter freeing the clock in the
    hall) leaves them open and silent."""
    a = await connect(f"/ws/play/{game.token_a}/")
    watch = await connect(f"/ws/watch/{game.board_id}/")
    await receive(a, "state")
    await receive(watch, "state")
    board_socket = await connect(f"/ws/board/{game.board.token}/?device=phone000000000000000009")
    await receive(board_socket, "snapshot")
    for _attempt in range(3):
        await board_socket.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
        error = await receive(board_socket, "error")
        assert error["message"] == ("This board is played online: the clock moves with the "
                                    "players' moves.")
    await database_sync_to_async(groups.broadcast)(
        [(groups.BOARD.name(game.board_id), {"type": "clock.holder", "holder": "",
                                             "since_ms": 0})])
    await a.send_json_to({"type": "ping"})
    assert (await receive(a))["type"] == "pong"  # no 1011: the socket answers
    assert await watch.receive_nothing(timeout=0.3)
    await watch.send_json_to({"type": "sync"})
    assert (await receive(watch))["type"] == "state"
    for communicator in (a, watch, board_socket):
        await communicator.disconnect()


def _session_of(username: str) -> bytes:
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_the_arbiter_takes_a_flag_back_in_the_hall_and_every_seat_sees_it(
        game, clock_time):
    cookie = await database_sync_to_async(_session_of)("sockarbiter")
    hall = await connect(f"/ws/hall/{game.board.round_id}/", cookie)
    await receive(hall, "hall")
    a = await connect(f"/ws/play/{game.token_a}/")
    b = await connect(f"/ws/play/{game.token_b}/")
    view = (await receive(a, "state"))["view"]
    await receive(b, "state")
    clock_time.now = view["clock"]["deadline_ms"] + 5
    await database_sync_to_async(flagtimer.tick)()
    for seat in (a, b):
        assert (await _state(seat, [], 1))["view"]["stopped"]["A"]
    await hall.send_json_to({"type": "adjust", "board": game.board_id, "side": "A",
                             "kind": "add", "seconds": 30, "reason": "network", "turn": "B"})
    answer = await receive(hall)
    while answer["type"] == "hall":  # the hall's batched snapshots of the flag
        answer = await receive(hall)
    assert answer["type"] == "error" and "seat A is to move" in answer["message"]
    await hall.send_json_to({"type": "adjust", "board": game.board_id, "side": "A",
                             "kind": "add", "seconds": 30, "reason": "network", "turn": "A"})
    back = {}
    for name, seat in (("A", a), ("B", b)):
        back[name] = (await _state(seat, [], 0))["view"]
        assert not back[name]["stopped"]["A"] and back[name]["to_act"] == "A"
        assert back[name]["number"] == 0 and back[name]["clock"]["running"] == "A"
        assert back[name]["clock"]["flags"]["A"] is None
    assert back["A"]["rack"] == view["rack"]
    move = choose_move(back["A"], random.Random(3))
    await a.send_json_to({"type": "move", **{k: v for k, v in move.items() if k != "seat"}})
    assert (await _state(b, [], 1))["view"]["number"] == 1
    for communicator in (hall, a, b):
        await communicator.disconnect()


async def test_a_seat_claims_the_win_when_the_opponent_never_came(clock_time, game):
    """``{"type": "claim"}`` (docs/online-protocol.md): refused with the reason and the view
    until the waiting time is over; then every socket gets the ended game. The server decides
    who came from what it saw: B's socket never opened."""
    a = await connect(f"/ws/play/{game.token_a}/")
    spectator = await connect(f"/ws/watch/{game.board_id}/")
    assert (await receive(a, "state"))["view"]["appeared"] == {"A": True, "B": False}
    await receive(spectator, "state")
    await a.send_json_to({"type": "claim"})
    refused = await receive(a, "refused")
    assert refused["message"] == "The waiting time of 5 minutes is not over: 5:00 to go."
    assert refused["view"]["over"] is False
    await a.send_json_to({"type": "claim", "seat": "B"})
    assert (await receive(a, "error"))["message"] == "Unknown field 'seat' in a claim."
    await spectator.send_json_to({"type": "claim"})
    assert (await receive(spectator, "error"))["message"] == "Spectators cannot make moves."
    clock_time.advance(5 * 60_000)
    await a.send_json_to({"type": "claim"})
    for communicator in (a, spectator):
        view = (await receive(communicator, "state"))["view"]
        assert view["over"] and view["result"] == "1-0" and view["end_code"] == "end_no_show"
        assert view["clock"]["status"] == "finished"
    for communicator in (a, spectator):
        await communicator.disconnect()


async def test_the_arbiters_page_hears_which_seats_are_connected(clock_time, game):
    """``games.online.presence``: a seat is connected while its socket speaks (the heartbeat,
    its moves), offline since it closed or fell silent; never heard: not connected."""
    from games.online import presence

    a = await connect(f"/ws/play/{game.token_a}/")
    await receive(a, "state")
    heard = await database_sync_to_async(presence.seats)(game.pk, clock_time.now)
    assert heard["A"] == {"at": clock_time.now, "live": True}
    assert heard["B"] == {"at": None, "live": False}
    clock_time.advance(presence.LIVE_WITHIN_MS + 1)
    assert not (await database_sync_to_async(presence.seats)(game.pk, clock_time.now))["A"]["live"]
    await a.send_json_to({"type": "ping"})
    await receive(a, "pong")
    assert (await database_sync_to_async(presence.seats)(game.pk, clock_time.now))["A"]["live"]
    await a.disconnect()
    clock_time.advance(1000)
    heard = await database_sync_to_async(presence.seats)(game.pk, clock_time.now)
    assert heard["A"]["live"] is False and heard["A"]["at"] == clock_time.now - 1000
