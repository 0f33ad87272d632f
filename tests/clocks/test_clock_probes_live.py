"""A client written from docs/clock.md alone, against live workers: one daphne worker (any
configuration), and two on PostgreSQL + Redis (CI's second pass), devices and the hall spread
over both. The server's clock is jumped instead of waited out (``tests.browser.server_time``).

Each of the issue's hand-offs, as a cheating player would try it:

- a live link at the page's pace (a ping every 1.25 s), presses claiming whatever they like
  0.9 s after a ping: about a second a press, no more;
- a phone that watched silently asks for the clock while the tablet's link is down: the arbiter
  is asked, the hall names the phone, and once handed the clock its press at once is credited
  the allowance at most;
- a flag that fell on a live tablet stays fallen through a takeover and a press claiming 5 s;
- a device holding an online board's link asks for its clock again and again: refused, and
  the game's seat and spectator sockets stay open;

and an honest tablet through an outage whose bytes TCP kept: its late ping arrives on its old
socket, then its new socket (on the other worker) sends the presses it made offline, each
dated where it was made.
"""

from __future__ import annotations

import contextlib
import json
import os
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from bench.events import create_clock_event
from bench.servers import AsgiServer
from clocks import holder, services
from clocks.models import Clock
from games.models import OnlineGame
from games.online import play as online
from tests.browser.server_time import APPLICATION, ServerTime
from tests.clocks.servers import wait_for_other_sessions_to_end

pytestmark = [pytest.mark.django_db(transaction=True)]

websockets_sync = pytest.importorskip("websockets.sync.client")

SCALE_OUT = (os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
             and bool(os.environ.get("REDIS_URL")))
SLACK_MS = 150  # the real milliseconds between the test's messages, on a loaded machine


class Venue:
    """The workers (and the server clock they share) a probe talks to."""

    def __init__(self, workers: list[AsgiServer], clock: ServerTime) -> None:
        self.workers, self.clock = workers, clock

    def socket(self, path: str, worker: int = 0, cookie: str | None = None):
        port = self.workers[worker % len(self.workers)].port
        headers = {"Cookie": cookie} if cookie else None
        return websockets_sync.connect(f"ws://127.0.0.1:{port}{path}",
                                       origin=f"http://127.0.0.1:{port}",
                                       additional_headers=headers, open_timeout=20,
                                       close_timeout=1)


@pytest.fixture(params=["one worker", "two workers"])
def venue(request, tmp_path, monkeypatch):
    if request.param == "two workers" and not SCALE_OUT:
        pytest.skip("two workers need DATABASE_URL=postgres://... and REDIS_URL")
    if request.param == "two workers":
        assert "postgresql" in settings.DATABASES["default"]["ENGINE"]
    clock = ServerTime(tmp_path / "server-time")
    monkeypatch.setattr(services, "now_ms", clock.now_ms)
    count = 2 if request.param == "two workers" else 1
    workers = [AsgiServer(flag_timer=count == 1, extra_env=clock.env, application=APPLICATION)
               for _n in range(count)]
    try:
        yield Venue([w.wait_listening() for w in workers], clock)
    finally:
        for worker in workers:
            print(f"worker log:\n{worker.log_tail()}")
            worker.stop()
        wait_for_other_sessions_to_end()


def next_of(ws, *kinds: str, timeout: float = 10) -> dict:
    """The next message of one of ``kinds`` (past the snapshots and links a change brings)."""
    while (message := json.loads(ws.recv(timeout=timeout)))["type"] not in kinds:
        pass
    return message


def ping(ws, venue: Venue, every_ms: int = 1_250, times: int = 1) -> None:
    for _n in range(times):
        venue.clock.jump(every_ms)
        ws.send('{"type":"ping"}')
        next_of(ws, "pong")


def press(ws, side: str, number: int, claim: int, epoch: int) -> dict:
    ws.send(json.dumps({"type": "press", "side": side, "press": number, "elapsed_ms": claim,
                        "epoch": epoch}))
    return next_of(ws, "pressed")


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_a_client_of_the_protocol_gains_about_a_second_at_every_hand_off(venue):
    with contextlib.ExitStack() as sockets:
        probe_every_hand_off(venue, sockets)


def probe_every_hand_off(venue: Venue, sockets: contextlib.ExitStack) -> None:
    def opened(path: str, worker: int = 0, cookie: str | None = None):
        return sockets.enter_context(venue.socket(path, worker, cookie))

    arbiter = get_user_model().objects.create_user("probearbiter", password="pw-probe-1")
    round_ = create_clock_event(3, arbiter=arbiter, slug="probes", time_control="600")
    paced, taken, honest = round_.boards.select_related("round__event").order_by("number")
    for board in (paced, taken):
        services.start(board, who="arbiter", user=arbiter)
    played_online = create_clock_event(1, arbiter=arbiter, slug="probes-online")
    game = online.mark_online(played_online, user=arbiter)[0]
    online.start_round(played_online, who="arbiter", user=arbiter)
    game = OnlineGame.objects.select_related("board").get(pk=game.pk)
    hall = opened(f"/ws/hall/{round_.pk}/", 1, cookie_of(arbiter))
    next_of(hall, "hall")

    # a live link at the page's pace (and slower), presses claiming everything
    with venue.socket(f"/ws/board/{paced.token}/?device=probetablet000000001") as tablet:
        snap = next_of(tablet, "snapshot")["clock"]
        for number in range(6):
            ping(tablet, venue, times=32)  # 40 s of the turn, heard every heartbeat
            venue.clock.jump(900)  # 0.9 s after a ping, claiming the whole turn
            answer = press(tablet, "AB"[number % 2], number, 0, snap["epoch"])
            assert answer["status"] == "accepted"
            assert answer["late_ms"] <= 1_000 + SLACK_MS, answer
        ping(tablet, venue, every_ms=2_000, times=3)  # slower than the page: the gap beyond
        answer = press(tablet, "A", 6, 0, snap["epoch"])  # the heartbeat, 0.75 s
        assert answer["late_ms"] <= 1_000 + 750 + SLACK_MS, answer
    state = Clock.objects.get(board=paced).core
    assert state.a.credited_ms + state.b.credited_ms <= 7 * 1_000 + 750 + 7 * SLACK_MS

    # a phone that watched asks while the tablet's link is down: the arbiter decides
    phone_id, tablet_id = "probephone0000000002", "probetablet000000003"
    tablet = opened(f"/ws/board/{taken.token}/?device={tablet_id}", 0)
    snap = next_of(tablet, "snapshot")["clock"]
    phone = opened(f"/ws/board/{taken.token}/?device={phone_id}", 1)
    assert next_of(phone, "snapshot")["device"]["holds"] is False
    ping(tablet, venue, times=16)
    tablet.socket.close()  # the Wi-Fi drops: nothing more from the tablet, no closing
    venue.clock.jump(3_600)
    phone.send('{"type":"take_over","agreed":["A","B"]}')
    told = next_of(phone, "device")
    assert (told["holds"], told["asked"]) == (False, True)
    assert "Another device" in press(phone, "A", 0, 0, snap["epoch"])["message"]
    code = holder.device_code(holder.device_key(phone_id))
    request = next(r for r in services.round_snapshots(round_)[1]["link"]["requests"])
    assert (request["code"], request["connected"]) == (code, True)
    hall.send(json.dumps({"type": "hand_over", "board": taken.pk}))
    assert next_of(hall, "done")["device"] == code
    assert next_of(phone, "device")["holds"] is True
    answer = press(phone, "A", 0, 0, snap["epoch"])
    assert answer["status"] == "accepted" and answer["late_ms"] <= 1_000 + SLACK_MS, answer

    # A's flag falls with the phone live; a takeover and a press claiming 5 s leave it fallen
    ping(phone, venue, times=5)
    venue.clock.jump(600_000)  # B's whole time: B's flag falls
    ping(phone, venue, times=2)
    clock = services.snapshot(taken)
    assert clock["flags"]["B"] is not None
    other = opened(f"/ws/board/{taken.token}/?device=probeother0000000004", 0)
    next_of(other, "snapshot")
    other.send('{"type":"take_over","agreed":["A","B"]}')
    assert next_of(other, "device")["asked"] is True
    hall.send(json.dumps({"type": "hand_over", "board": taken.pk}))
    next_of(hall, "done")
    assert next_of(other, "device")["holds"] is True
    answer = press(other, "B", 1, 5_000, clock["epoch"])
    assert (answer["status"], answer["reason"]) == ("refused", "flagged"), answer
    after = services.snapshot(taken)
    assert after["flags"] == clock["flags"]

    # an honest outage: the late ping on the old socket, the presses on a new one elsewhere
    device = "probehonest000000006"
    started = services.start(honest, who="arbiter", user=arbiter).snapshot["started_at_ms"]
    with venue.socket(f"/ws/board/{honest.token}/?device={device}", 0) as old:
        snap = next_of(old, "snapshot")["clock"]
        ping(old, venue, times=3)
        heard = venue.clock.now_ms()
        venue.clock.jump(2_000)
        made = [venue.clock.now_ms()]  # A presses offline 2 s into the outage, B 5 s later
        venue.clock.jump(5_000)
        made.append(venue.clock.now_ms())
        venue.clock.jump(6_000)
        time.sleep(1.5)  # the old worker sees the silence (it looks once a second)
        old.send('{"type":"ping"}')  # written during the outage, delivered as it returns
        next_of(old, "pong")
        deadline = time.monotonic() + 5
        while not any(isinstance(v, dict) for v in Clock.objects.get(
                board=honest).link.get("sockets", {}).values()):
            assert time.monotonic() < deadline, Clock.objects.get(board=honest).link
            time.sleep(0.1)  # reported heard again, in the burst only
        with venue.socket(f"/ws/board/{honest.token}/?device={device}", 1) as new:
            next_of(new, "snapshot")
            arrival = venue.clock.now_ms()
            answers = [press(new, "A", 0, made[0] - started, snap["epoch"]),
                       press(new, "B", 1, made[1] - made[0], snap["epoch"])]
    assert [a["status"] for a in answers] == ["accepted", "accepted"], [
        (a["status"], a.get("reason"), a.get("message")) for a in answers]
    for stored, at in zip(services.presses(honest), made, strict=True):
        assert abs(stored.at_ms - at) <= 300 + SLACK_MS, (stored, made, heard, arrival)

    # an online game's board: its link's take-over is refused, its sockets stay open
    seat = opened(f"/ws/play/{game.token_a}/", 1)
    watch = opened(f"/ws/watch/{game.board.pk}/", 0)
    next_of(seat, "state")
    next_of(watch, "state")
    with venue.socket(f"/ws/board/{game.board.token}/?device=probeattack000000005", 0) as bad:
        next_of(bad, "snapshot")
        for _attempt in range(5):
            bad.send('{"type":"take_over","agreed":["A","B"]}')
            assert "played online" in next_of(bad, "error")["message"]
    time.sleep(0.5)
    for ws in (seat, watch):
        ws.send('{"type":"ping"}')
        assert next_of(ws, "pong")["type"] == "pong"  # open: no 1011
