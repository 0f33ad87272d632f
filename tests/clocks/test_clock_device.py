"""One clock device per board, and a press credited only for silence the server observed,
through the real ASGI application's sockets on a hand-moved server clock.

The scoresheet's QR code opens the board page on any phone: the first device keeps the clock,
another one watches, and the clock moves only by both players' agreement on the new device
(the device keeping it silent for a minute) or by the arbiter in the hall, logged. A client
that speaks the protocol gains at most about a second a press on a link the server hears at the
page's pace; through a silence it observed, the silence beyond the heartbeat.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from bench.events import create_clock_event
from clocks import flagtimer, holder, services
from clocks.models import Clock, ClockLogEntry
from tests.sockets import (
    TABLET,
    board_path,
    close_worker_connections,  # noqa: F401  (autouse fixture)
    connect,
    receive,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PHONE = "phone000000000000000002"


@pytest.fixture
def arbiter(transactional_db):
    return get_user_model().objects.create_user("devicearbiter", password="pw-device-1")


@pytest.fixture
def board(arbiter):
    round_ = create_clock_event(1, arbiter=arbiter, slug="one-device")
    board = round_.boards.select_related("round__event").get()
    services.start(board, who=arbiter.username, user=arbiter)
    return board


@pytest.fixture
def hall_cookie(arbiter):
    client = Client()
    client.force_login(arbiter)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def opened(board, device):
    """A board page's socket for ``device``, and what it was told on opening."""
    socket = await connect(board_path(board, device))
    first = await receive(socket, "snapshot")
    return socket, first["device"], first["clock"]


async def next_of(socket, kind, past=("snapshot", "hall")):
    """The next message of ``kind``, past the snapshots a change broadcasts (and ``past``)."""
    while (message := await receive(socket))["type"] in past:
        pass
    assert message["type"] == kind, message
    return message


def measured(side, number, elapsed, epoch=1):
    return {"type": "press", "side": side, "press": number, "elapsed_ms": elapsed,
            "epoch": epoch}


def log_of(board):
    return list(ClockLogEntry.objects.filter(clock__board=board, action="device")
                .order_by("id").values_list("who", "detail"))


def code(device):
    return holder.device_code(holder.device_key(device))


async def test_the_first_device_keeps_the_clock_and_another_only_watches(board):
    tablet, told, _clock = await opened(board, TABLET)
    assert told == {"type": "device", "holds": True, "kept": True, "asked": False,
                    "code": code(TABLET)}
    phone, told, _clock = await opened(board, PHONE)
    assert (told["holds"], told["kept"]) == (False, True)
    await phone.send_json_to(measured("A", 0, 3_000))
    refused = await next_of(phone, "pressed")
    assert (refused["status"], refused["reason"]) == ("refused", "refused")
    assert "Another device keeps this board's clock" in refused["message"]
    await phone.send_json_to({"type": "press", "side": "A", "press": 0})  # the old protocol
    assert "Another device" in (await next_of(phone, "error"))["message"]
    assert await database_sync_to_async(services.presses)(board) == []
    await tablet.send_json_to(measured("A", 0, 50))
    assert (await next_of(tablet, "pressed"))["status"] == "accepted"
    assert await database_sync_to_async(log_of)(board) == [
        ("board page", {"how": "first", "handed_over": False, "device": code(TABLET)})]
    for socket in (tablet, phone):
        await socket.disconnect()


async def test_a_tablet_whose_battery_died_hands_over_with_both_players_agreeing(board,
                                                                                  clock_time):
    tablet, _told, _clock = await opened(board, TABLET)
    phone, _told, _clock = await opened(board, PHONE)
    await phone.send_json_to({"type": "take_over", "agreed": ["A"]})
    assert "Both players must agree" in (await next_of(phone, "error"))["message"]
    await tablet.disconnect()  # the battery died
    clock_time.advance(holder.QUIET_MS - 1_000)  # heard within the minute: the arbiter decides
    await phone.send_json_to({"type": "take_over", "agreed": ["B", "A"]})
    assert (await next_of(phone, "device"))["asked"] is True
    clock_time.advance(1_000)  # a minute without the tablet: the players' word is enough
    await phone.send_json_to({"type": "take_over", "agreed": ["B", "A"]})
    assert (await next_of(phone, "device"))["holds"] is True
    await phone.send_json_to(measured("A", 0, 50))
    assert (await next_of(phone, "pressed"))["status"] == "accepted"
    # the tablet, charged, comes back: it watches, its queued press is refused with the reason
    tablet, told, _clock = await opened(board, TABLET)
    assert (told["holds"], told["kept"]) == (False, True)
    await tablet.send_json_to(measured("B", 1, 50))
    assert "Another device" in (await next_of(tablet, "pressed"))["message"]
    assert [who for who, _detail in await database_sync_to_async(log_of)(board)] == [
        "board page", "players"]
    for socket in (tablet, phone):
        await socket.disconnect()


async def test_while_the_clock_device_is_connected_the_arbiter_hands_over(board, hall_cookie):
    hall = await connect(f"/ws/hall/{board.round_id}/", hall_cookie)
    await receive(hall, "hall")
    tablet, _told, _clock = await opened(board, TABLET)
    phone, _told, _clock = await opened(board, PHONE)
    link = (await next_of(hall, "link"))["link"]
    while link["viewers"] != 1:
        link = (await next_of(hall, "link"))["link"]
    assert (link["state"], link["holder"]["how"]) == ("live", "first")
    await phone.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
    assert (await next_of(phone, "device"))["asked"] is True  # one phone could claim both
    link = (await next_of(hall, "link"))["link"]
    [request] = link["requests"]
    assert (request["code"], request["connected"]) == (code(PHONE), True)
    await hall.send_json_to({"type": "hand_over", "board": board.pk})
    done = await next_of(hall, "done")
    assert (done["action"], done["outcome"], done["device"]) == ("hand_over", "arbiter",
                                                                 code(PHONE))
    assert (await next_of(phone, "device"))["holds"] is True
    assert (await next_of(tablet, "device"))["holds"] is False
    link = (await next_of(hall, "link"))["link"]
    assert (link["holder"]["how"], link["requests"]) == ("arbiter", [])
    await tablet.send_json_to(measured("A", 0, 50))
    assert (await next_of(tablet, "pressed"))["status"] == "refused"
    # with no device asking, the arbiter frees the clock: the next whose players agree
    await hall.send_json_to({"type": "hand_over", "board": board.pk})
    assert (await next_of(hall, "done"))["outcome"] == "freed"
    for socket, device in ((phone, PHONE), (tablet, TABLET)):
        assert (await next_of(socket, "device")) == {"type": "device", "holds": False,
                                                     "kept": False, "asked": False,
                                                     "code": code(device)}
    await tablet.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
    assert (await next_of(tablet, "device"))["holds"] is True
    assert [who for who, _detail in await database_sync_to_async(log_of)(board)] == [
        "board page", "devicearbiter", "devicearbiter", "players"]
    for socket in (hall, tablet, phone):
        await socket.disconnect()


async def test_a_client_heard_throughout_gains_about_a_second_a_press(board, clock_time):
    """A door of old: pinging every second, five presses each claiming 3 s after 40 s of the
    presser's own turn moved 149 s to the opponent. Now a second a press at most, also at the
    page's own pace (a ping every 1.25 s)."""
    started = await database_sync_to_async(Clock.objects.get)(board=board)
    clock_time.now = started.core.started_at_ms
    cheat, _told, snap = await opened(board, TABLET)
    for number in range(5):
        for _ping in range(32):
            clock_time.advance(1_250)
            await cheat.send_to(text_data='{"type":"ping"}')
            await next_of(cheat, "pong")
        side = "A" if number % 2 == 0 else "B"
        await cheat.send_json_to(measured(side, number, 3_000, snap["epoch"]))
        answer = await next_of(cheat, "pressed")
        assert answer["status"] == "accepted" and answer["late_ms"] <= 1_000
        assert answer["dated"] == "heard"
    clock = (await database_sync_to_async(Clock.objects.get)(board=board)).core
    assert clock.a.credited_ms + clock.b.credited_ms <= 5_000
    await cheat.disconnect()


async def test_an_honest_outage_is_credited_the_silence_the_server_observed(board, clock_time):
    started = await database_sync_to_async(Clock.objects.get)(board=board)
    clock_time.now = started.core.started_at_ms
    tablet, _told, snap = await opened(board, TABLET)
    clock_time.advance(2_000)
    await tablet.send_to(text_data='{"type":"ping"}')
    await receive(tablet, "pong")
    last_heard = clock_time.now
    # the Wi-Fi drops; A presses 3 s into the game on the tablet; the page drops its socket
    await tablet.disconnect()
    clock_time.advance(30_000)
    back, _told, _snap = await opened(board, TABLET)  # the same device, 30 s later
    await back.send_json_to(measured("A", 0, 3_000, snap["epoch"]))
    answer = await next_of(back, "pressed")
    assert (answer["status"], answer["dated"]) == ("accepted", "device")
    assert answer["late_ms"] == clock_time.now - (started.core.started_at_ms + 3_000)
    assert answer["late_ms"] <= clock_time.now - last_heard
    entry = await database_sync_to_async(
        lambda: ClockLogEntry.objects.filter(clock__board=board, action="press").get())()
    assert entry.detail["reconciled"]["silence_ms"] == [last_heard, clock_time.now]
    await back.disconnect()


# --- the hand-offs: a takeover, several devices asking, a flag, late bytes --------------------


async def ping(socket, clock_time, times=1, every=1_250):
    """The page's heartbeat at its pace: a ping each ``every`` ms, each answered."""
    for _n in range(times):
        clock_time.advance(every)
        await socket.send_to(text_data='{"type":"ping"}')
        await next_of(socket, "pong")


async def start_at(board, clock_time):
    clock = await database_sync_to_async(Clock.objects.get)(board=board)
    clock_time.now = clock.core.started_at_ms
    return clock.core.started_at_ms


async def test_a_takeover_carries_no_credit_from_the_time_the_device_watched(board, clock_time,
                                                                             hall_cookie):
    """The issue's theft: a phone opened from the QR code watches silently; the tablet's link
    drops for a few seconds; both boxes ticked on the phone, it pressed with ``elapsed_ms: 0``
    and moved the whole silence (up to the budget) to the opponent. The tablet was heard
    within the minute, so the arbiter decides; handed the clock, the phone's press is
    credited the allowance at most, as is one made after the tablet's minute of silence."""
    await start_at(board, clock_time)
    tablet, _told, snap = await opened(board, TABLET)
    phone, _told, _clock = await opened(board, PHONE)
    await ping(tablet, clock_time, times=16)  # 20 s of A's turn at the page's pace
    await tablet.disconnect()  # the tablet's link drops
    clock_time.advance(3_600)
    await phone.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
    told = await next_of(phone, "device")
    assert (told["holds"], told["asked"], told["code"]) == (False, True, code(PHONE))
    await phone.send_json_to(measured("A", 0, 0, snap["epoch"]))
    assert "Another device" in (await next_of(phone, "pressed"))["message"]
    hall = await connect(f"/ws/hall/{board.round_id}/", hall_cookie)
    await receive(hall, "hall")
    await hall.send_json_to({"type": "hand_over", "board": board.pk})
    assert (await next_of(hall, "done", ("snapshot", "hall", "link")))["device"] == code(PHONE)
    assert (await next_of(phone, "device"))["holds"] is True
    await phone.send_json_to(measured("A", 0, 0, snap["epoch"]))
    answer = await next_of(phone, "pressed")
    assert answer["status"] == "accepted" and answer["late_ms"] <= 1_000
    # the phone keeps it, watches silently for 190 s while B thinks... a new phone takes over
    # once the phone is silent for a minute, and presses at once: nothing from before
    other = "phone000000000000000003"
    third, _told, _clock = await opened(board, other)
    await phone.disconnect()
    clock_time.advance(190_000)
    await third.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
    assert (await next_of(third, "device"))["holds"] is True
    await third.send_json_to(measured("B", 1, 0, snap["epoch"]))
    answer = await next_of(third, "pressed")
    assert answer["status"] == "accepted" and answer["late_ms"] <= 1_000
    clock = (await database_sync_to_async(Clock.objects.get)(board=board)).core
    assert clock.a.credited_ms + clock.b.credited_ms <= 2_000
    for socket in (hall, third):
        await socket.disconnect()


async def test_several_devices_asking_each_keep_a_request_and_the_arbiter_names_one(
        board, clock_time, hall_cookie):
    await start_at(board, clock_time)
    tablet, _told, _clock = await opened(board, TABLET)
    hall = await connect(f"/ws/hall/{board.round_id}/", hall_cookie)
    await receive(hall, "hall")
    phones = [f"phone0000000000000001{n}" for n in range(6)]
    sockets = []
    for n, device in enumerate(phones):
        socket, _told, _clock = await opened(board, device)
        clock_time.advance(1_000)
        await socket.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
        assert (await next_of(socket, "device"))["asked"] is True
        if n == 2:  # the same device asking twice keeps one request
            await socket.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
            await next_of(socket, "device")
        sockets.append(socket)
    # as the hall reads it on opening: one request per device, the first one pushed out
    link = (await database_sync_to_async(services.round_snapshots)(board.round))[0]["link"]
    assert [r["code"] for r in link["requests"]] == [code(d) for d in phones[1:]]
    assert all(r["connected"] and r["at_ms"] >= r["opened_ms"] for r in link["requests"])
    hall_news = ("snapshot", "hall", "link")
    await hall.send_json_to({"type": "hand_over", "board": board.pk})
    assert "choose one" in (await next_of(hall, "error", hall_news))["message"]
    await hall.send_json_to({"type": "hand_over", "board": board.pk,
                             "device": "not a device asking"})
    assert "has not asked" in (await next_of(hall, "error", hall_news))["message"]
    chosen = link["requests"][2]
    await hall.send_json_to({"type": "hand_over", "board": board.pk,
                             "device": chosen["device"]})
    assert (await next_of(hall, "done", hall_news))["device"] == chosen["code"]
    assert (await next_of(sockets[3], "device"))["holds"] is True
    for socket in sockets[1:3] + sockets[4:]:
        assert (await next_of(socket, "device"))["asked"] is False  # answered: not theirs
    for socket in (hall, tablet, *sockets):
        await socket.disconnect()


async def test_a_fallen_flag_stands_through_a_takeover_and_a_press_claiming_time(
        arbiter, clock_time, hall_cookie):
    """The issue's flag: 20 s for each side, A's flag fell at 20 s with the tablet live; after
    the takeover, a press of A's claiming 5 s lifted it and flagged B instead."""
    round_ = await database_sync_to_async(create_clock_event)(
        1, arbiter=arbiter, slug="flag-stands", time_control="20")
    board = await database_sync_to_async(
        lambda: round_.boards.select_related("round__event").get())()
    await database_sync_to_async(services.start)(board, who=arbiter.username, user=arbiter)
    await start_at(board, clock_time)
    tablet, _told, snap = await opened(board, TABLET)
    phone, _told, _clock = await opened(board, PHONE)
    await ping(tablet, clock_time, times=17)  # 21.25 s: A's flag has fallen
    await database_sync_to_async(flagtimer.tick)()
    clock = (await database_sync_to_async(Clock.objects.get)(board=board)).core
    assert clock.a.flagged_at_ms is not None
    hall = await connect(f"/ws/hall/{board.round_id}/", hall_cookie)
    await receive(hall, "hall")
    await phone.send_json_to({"type": "take_over", "agreed": ["A", "B"]})
    await next_of(phone, "device")
    await hall.send_json_to({"type": "hand_over", "board": board.pk})
    await next_of(hall, "done", ("snapshot", "hall", "link"))
    await next_of(phone, "device")
    await phone.send_json_to(measured("A", 0, 5_000, snap["epoch"]))
    answer = await next_of(phone, "pressed")
    assert (answer["status"], answer["reason"]) == ("refused", "flagged")
    after = (await database_sync_to_async(Clock.objects.get)(board=board)).core
    assert after.a.flagged_at_ms == clock.a.flagged_at_ms and after.b.flagged_at_ms is None
    for socket in (hall, tablet, phone):
        await socket.disconnect()


async def test_late_bytes_of_the_old_socket_leave_an_honest_outage_its_credit(board,
                                                                             clock_time):
    """The issue's outage, the server's side of it: A pressed online at 3 s, the Wi-Fi went at
    6 s, B pressed offline at 10 s and A at 16 s, the network came back at 17 s. TCP delivers
    the ping the page wrote into its old socket during the outage, then the page's new socket
    sends the two presses. Charged: A 3 + 6 s, B 7 s, each within 0.3 s."""
    start = await start_at(board, clock_time)
    tablet, _told, snap = await opened(board, TABLET)
    clock_time.now = start + 3_000
    await tablet.send_json_to(measured("A", 0, 3_000, snap["epoch"]))
    assert (await next_of(tablet, "pressed"))["status"] == "accepted"
    await ping(tablet, clock_time, times=2)  # 5.5 s: the last message heard
    clock_time.now = start + 17_000
    await tablet.send_to(text_data='{"type":"ping"}')  # written at 6.75 s, delivered now
    await next_of(tablet, "pong")
    clock_time.now = start + 17_600  # the page's new socket, after its backoff
    back, _told, _clock = await opened(board, TABLET)
    await back.send_json_to(measured("B", 1, 7_000, snap["epoch"]))
    await back.send_json_to(measured("A", 2, 6_000, snap["epoch"]))
    for _press in range(2):
        assert (await next_of(back, "pressed"))["status"] == "accepted"
    presses = await database_sync_to_async(services.presses)(board)
    assert [p.side.value for p in presses] == ["A", "B", "A"]
    for press, at in zip(presses, (3_000, 10_000, 16_000), strict=True):
        assert abs(press.at_ms - (start + at)) <= 300
    for socket in (tablet, back):
        await socket.disconnect()


async def test_two_sockets_the_page_opens_at_once_after_an_outage_both_count_its_silence(
        board, clock_time):
    """A reloaded page's first socket and its retry reach the server together when the network
    returns (the browser's attempt TCP kept, and a new one): the second replaces the first
    before the first is watched, and the queued press it sends is still credited the silence
    the server observed, not just the transport's allowance."""
    start = await start_at(board, clock_time)
    tablet, _told, snap = await opened(board, TABLET)
    await ping(tablet, clock_time, times=2)  # 2.5 s: the last message heard
    last_heard = clock_time.now
    await tablet.disconnect()  # the page was reloaded during the outage
    clock_time.now = start + 20_000  # the network returns
    first, second = await asyncio.gather(connect(board_path(board, TABLET)),
                                         connect(board_path(board, TABLET)))
    await receive(second, "snapshot")
    await second.send_json_to(measured("A", 0, 6_000, snap["epoch"]))  # pressed at 6 s
    answer = await next_of(second, "pressed", past=("snapshot", "hall", "replaced"))
    assert (answer["status"], answer["dated"]) == ("accepted", "device")
    presses = await database_sync_to_async(services.presses)(board)
    assert [p.at_ms for p in presses] == [start + 6_000]
    entry = await database_sync_to_async(
        lambda: ClockLogEntry.objects.filter(clock__board=board, action="press").get())()
    assert entry.detail["reconciled"]["silence_ms"][0] == last_heard
    for socket in (first, second):
        await socket.disconnect()
