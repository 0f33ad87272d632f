"""The board socket protocol as a state machine: any number of devices, in any order.

Devices open the board's socket, ping at any pace, fall silent, lose the network (their bytes
kept, as TCP keeps them, and delivered late on the socket the page has meanwhile given up),
open new sockets, ask to take the clock over and press with any claim; the arbiter pauses,
resumes, adjusts and hands the clock over; the flag timer ticks. All of it through the real
ASGI application's consumers, on a hand-moved server clock (hypothesis's rule-based state
machine).

After every step:

- a press is credited at most the allowance plus the silence the server observed before it
  beyond the page's heartbeat (read again from the whole list of what the device's sockets
  heard, as docs/clock.md states the rule), and never for time before its device took the
  clock;
- a device heard live at the page's pace gains at most the allowance;
- a fallen flag stands, unless the arbiter adds time to that side;
- a device that was honest through an outage whose bytes were delivered late is credited
  within 0.3 s of where it pressed;
- no socket of the board closes with 1011, and no consumer raises.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bench.events import create_clock_event
from clocks import flagtimer, holder, services
from clocks.core.hearing import ALLOWANCE_MS, BURST_MS, HEARTBEAT_MS, SILENCE_MS
from clocks.models import Clock, ClockLogEntry
from tests.fake_time import FakeTime
from tests.sockets import HOST, ORIGIN, board_path
from tournament.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

NAMES = ("tablet", "phone", "other")
PAGE_DROPS_MS = 2_750  # the board page gives up a socket silent this long (static/js/clock.js)
BUDGET_MS = 180_000
A, B = "A", "B"
#: what a message the page sends is answered with
ANSWERS = {"ping": ("pong",), "press": ("pressed",), "message": ("device", "error")}


@dataclass
class Device:
    """One browser: its id, its open socket (None: none), what its page knows of the clock,
    and what it wrote while its network was out (kept, as TCP keeps it)."""

    name: str
    id: str
    socket: WebsocketCommunicator | None = None
    pace: str = "paced"  # paced: pings at the page's heartbeat; silent: sends nothing itself
    out_since: int | None = None  # the network is out since then (server ms)
    held: list[tuple[str, str, dict | None]] = field(default_factory=list)
    dropped: bool = False  # the page gave the socket up during the outage
    last_received: int = 0
    pinged_in_silence: bool = False
    # the page's own model of the clock (static/js/board.js), for honest presses
    running: str | None = None
    turn_start: int = 0
    press_number: int = 0
    epoch: int = 0
    queue: list[dict] = field(default_factory=list)


class BoardSockets(RuleBasedStateMachine):
    """One board, three devices, the arbiter, the flag timer."""

    time: FakeTime
    arbiter = None
    examples = itertools.count()

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.number = next(self.examples)
        self.time.now = 1_800_000_000_000 + self.number * 100_000_000
        self.devices = {n: Device(n, f"{n}{self.number:06d}device0000000") for n in NAMES}
        self.heard: dict[str, list[tuple[int, str]]] = {n: [] for n in NAMES}
        self.flags: dict[str, int] = {}
        self.adjusted: set[str] = set()
        self.commands_at: list[int] = []
        self.failures: list[str] = []
        self.given_up: list[WebsocketCommunicator] = []
        self.checks: list[tuple] = []

    @initialize(time_control=st.sampled_from(["20", "600", "600"]))
    def a_board_whose_clock_runs(self, time_control):
        """A board of a published round, its clock started: 20 s a side (flags fall) or ten
        minutes."""
        round_ = create_clock_event(1, arbiter=self.arbiter, slug=f"machine-{self.number}",
                                    time_control=time_control)
        self.board = round_.boards.select_related("round__event").get()
        services.start(self.board, who="arbiter", user=self.arbiter)

    # --- plumbing ---------------------------------------------------------------------------

    def run(self, coroutine):
        """Run ``coroutine`` on the machine's loop, then check the presses it got answered
        (reading the clock row, which the loop's thread may not do)."""
        result = self.loop.run_until_complete(coroutine)
        checks, self.checks = self.checks, []
        for check in checks:
            self._check_press(*check)
        self._track_flags()
        return result

    def teardown(self) -> None:
        async def close_all():
            for socket in [d.socket for d in self.devices.values() if d.socket] + self.given_up:
                with contextlib.suppress(BaseException):  # closed by the server already
                    await socket.disconnect()

        self.run(close_all())
        self.run(database_sync_to_async(connections.close_all)())
        self.loop.close()

    def clock(self) -> Clock:
        return Clock.objects.get(board=self.board)

    async def _take(self, device: Device, socket: WebsocketCommunicator,
                    until: tuple[str, ...] = ()) -> list[dict]:
        """What the server has sent ``socket``, handled as the page would (when it is the
        page's socket); with ``until``, waiting for a message of one of those types first."""
        messages, waiting = [], bool(until)
        while True:
            if waiting:
                output = await socket.receive_output(timeout=5)
            elif await socket.receive_nothing(timeout=0.002, interval=0.001):
                return messages
            else:
                output = await socket.receive_output()
            if output["type"] == "websocket.close":
                if output.get("code") == 1011:
                    self.failures.append(f"{device.name}'s socket closed with 1011")
                return messages
            if output["type"] != "websocket.send":
                continue
            message = json.loads(output["text"])
            messages.append(message)
            if socket is device.socket and device.out_since is None:
                self._page_hears(device, message)
            if message["type"] in until:
                waiting = False

    def _page_hears(self, device: Device, message: dict) -> None:
        device.last_received = self.time.now
        device.pinged_in_silence = False
        if message["type"] == "pressed":
            device.queue = [p for p in device.queue
                            if (p["press"], p["side"]) != (message["press"], message["side"])]
        clock = message.get("clock")
        if clock and not device.queue:  # the server's snapshot wins once nothing waits
            device.running = clock["running"]
            device.press_number = clock["press_number"]
            device.epoch = clock["epoch"]
            device.turn_start = clock["server_time_ms"] - clock["turn_elapsed_ms"]

    async def _send(self, device: Device, text: str, kind: str,
                    press: dict | None = None) -> None:
        """The page writes ``text`` into its socket: heard now, or kept while it is out."""
        if device.out_since is not None:
            if not device.dropped:
                device.held.append((text, kind, press))
            return
        await self._deliver(device, device.socket, text, kind, press)

    async def _deliver(self, device: Device, socket: WebsocketCommunicator, text: str,
                       kind: str, press: dict | None, late: bool = False) -> None:
        arrival = self.time.now
        self.heard[device.name].append((arrival, "late" if late else kind))
        await socket.send_to(text_data=text)
        for message in await self._take(device, socket, ANSWERS[kind]):
            if message["type"] == "pressed" and message["status"] == "accepted":
                self.checks.append((device, press, message, arrival))

    def _drain_all(self) -> None:
        async def drain():
            for device in self.devices.values():
                if device.socket is not None and device.out_since is None:
                    await self._take(device, device.socket)

        self.run(drain())

    # --- the devices ------------------------------------------------------------------------

    @rule(name=st.sampled_from(NAMES))
    def open_page(self, name):
        """A device opens the board page (again: a reload, its older socket replaced), and
        sends the presses its page still has queued."""
        device = self.devices[name]
        if device.out_since is not None:
            return

        async def open_():
            if device.socket is not None:
                self.given_up.append(device.socket)
            socket = WebsocketCommunicator(application, board_path(self.board, device.id),
                                           headers=[HOST, ORIGIN])
            connected, _ = await socket.connect(timeout=5)
            assert connected
            device.socket, device.last_received = socket, self.time.now
            self.heard[name].append((self.time.now, "open"))
            await self._take(device, socket, ("snapshot",))
            for press in list(device.queue):
                await self._send(device, press_text(press), "press", press)

        self.run(open_())

    @rule(name=st.sampled_from(NAMES), pace=st.sampled_from(["paced", "silent"]))
    def set_pace(self, name, pace):
        self.devices[name].pace = pace

    @rule(name=st.sampled_from(NAMES))
    def ping(self, name):
        """A ping whenever a client likes (the page's own come with the time, ``time_passes``)."""
        device = self.devices[name]
        if device.socket is not None:
            self.run(self._send(device, '{"type":"ping"}', "ping"))

    @rule(ms=st.integers(1, 8_000) | st.integers(55_000, 70_000))
    def time_passes(self, ms):
        """Time goes by: every page at its pace pings a heartbeat after its last message from
        the server; a page whose network is out pings once, then gives its socket up."""
        end = self.time.now + ms
        while True:
            for device in self.devices.values():
                if device.socket is None or device.pace != "paced":
                    continue
                quiet = self.time.now - device.last_received
                if device.out_since is None and quiet >= HEARTBEAT_MS:
                    self.run(self._send(device, '{"type":"ping"}', "ping"))
                elif device.out_since is not None:
                    if not device.pinged_in_silence and quiet >= HEARTBEAT_MS:
                        device.pinged_in_silence = True
                        self.run(self._send(device, '{"type":"ping"}', "ping"))
                    if quiet > PAGE_DROPS_MS:
                        device.dropped = True
            due = [d.last_received + HEARTBEAT_MS for d in self.devices.values()
                   if d.socket is not None and d.pace == "paced" and not d.dropped]
            due += [d.last_received + PAGE_DROPS_MS + 1 for d in self.devices.values()
                    if d.out_since is not None and not d.dropped and d.pace == "paced"]
            later = [t for t in due if t > self.time.now]
            if self.time.now >= end:
                break
            self.time.now = min([end, *later])
        self._drain_all()

    @rule(name=st.sampled_from(NAMES))
    def network_goes(self, name):
        device = self.devices[name]
        if device.socket is not None and device.out_since is None:
            device.out_since, device.held, device.dropped = self.time.now, [], False

    @rule(name=st.sampled_from(NAMES), late_first=st.booleans())
    def network_returns(self, name, late_first):
        """What TCP kept reaches the server on the old socket, before the page's new socket
        opens (or after it, and then the server has closed the old one: lost); a page that
        kept its socket just goes on."""
        device = self.devices[name]
        if device.out_since is None:
            return
        held, dropped, old = device.held, device.dropped, device.socket
        device.out_since, device.held = None, []

        async def deliver():
            for text, kind, press in held:
                await self._deliver(device, old, text, kind, press, late=True)

        if not dropped:
            self.run(deliver())
            device.last_received = self.time.now
            return
        if late_first:
            self.run(deliver())
        self.open_page(name)

    @rule(name=st.sampled_from(NAMES))
    def take_over(self, name):
        device = self.devices[name]
        if device.socket is not None:
            self.run(self._send(device, '{"type":"take_over","agreed":["A","B"]}', "message"))

    @rule(name=st.sampled_from(NAMES), claims=st.lists(st.integers(0, 60_000), min_size=1,
                                                       max_size=4),
          gap=st.integers(0, 6_000))
    def presses_on_a_live_link(self, name, claims, gap):
        """The issue's live link as one step: a page heard at its pace presses, each press
        claiming whatever it likes for the side that runs, ``gap`` ms apart."""
        device = self.devices[name]
        if device.out_since is not None:
            return
        if device.socket is None:
            self.open_page(name)
        device.pace = "paced"
        self.time_passes(SILENCE_MS + BURST_MS + HEARTBEAT_MS)  # heard at its pace a while
        for claim in claims:
            self.time_passes(max(1, gap))
            self.press(name, device.running or A, claim, False)

    @rule(name=st.sampled_from(NAMES), before=st.integers(0, 6_000),
          offline=st.lists(st.integers(0, 20_000), min_size=1, max_size=3),
          back=st.integers(0, 20_000), late_first=st.booleans(),
          command=st.none() | st.tuples(st.integers(0, 20_000),
                                        st.sampled_from(["pause", "add A", "add B"])))
    def an_outage_with_presses(self, name, before, offline, back, late_first, command):
        """The issue's outage as one step: a page at its pace for ``before`` ms, its network
        goes, its players press at ``offline`` ms into the outage (the page's own timeline),
        the arbiter perhaps gives a ``command`` in the hall meanwhile (a pause is resumed at
        once), and the network returns ``back`` ms after the last of them."""
        device = self.devices[name]
        if device.out_since is not None:
            return
        if device.socket is None:
            self.open_page(name)
        device.pace = "paced"
        if not self._keeps_the_clock(device):  # the device keeping the clock has the outage
            self.take_over(name)
            self.arbiter_hands_over(name)
        self.time_passes(3 * HEARTBEAT_MS + before)
        self.network_goes(name)
        went = self.time.now
        steps = [(offset, "press") for offset in offline]
        if command is not None:
            steps.append(command)
        for offset, step in sorted(steps):
            self.time_passes(max(0, went + offset - self.time.now) or 1)
            if step == "press":
                self.press(name, A, None, False)
            else:
                self.arbiter_command(step)
                if step == "pause":
                    self.arbiter_command("resume")
        self.time_passes(max(1, back))
        self.network_returns(name, late_first)

    @rule(name=st.sampled_from(NAMES), watched=st.integers(0, 200_000),
          claim=st.integers(0, 200_000))
    def a_watcher_takes_over_and_presses(self, name, watched, claim):
        """The issue's theft as one step: a device opens the board page from the QR code and
        watches silently, asks for the clock with both boxes ticked, the arbiter hands it over
        in the hall, and it presses at once claiming ``claim`` ms."""
        device = self.devices[name]
        if device.out_since is not None:
            return
        if device.socket is None:
            self.open_page(name)
        device.pace = "silent"
        self.time_passes(watched)
        self.take_over(name)
        self.arbiter_hands_over(name)
        self.press(name, device.running or A, claim, False)

    @rule(name=st.sampled_from(NAMES), side=st.sampled_from([A, B]),
          claim=st.none() | st.integers(0, 120_000), stale_epoch=st.booleans())
    def press(self, name, side, claim, stale_epoch):
        """A press: honest (``claim`` None: the page's own model, its running side), or a
        client claiming ``claim`` ms for ``side``."""
        device = self.devices[name]
        if device.socket is None:
            return
        if claim is None:
            if device.running is None:
                return
            press = {"side": device.running, "press": device.press_number,
                     "elapsed_ms": self.time.now - device.turn_start, "epoch": device.epoch,
                     "honest": True, "made_at": self.time.now}
            device.queue.append(press)
            device.running = B if device.running == A else A
            device.turn_start, device.press_number = self.time.now, device.press_number + 1
        else:
            press = {"side": side, "press": device.press_number, "elapsed_ms": claim,
                     "epoch": max(0, device.epoch - stale_epoch), "honest": False,
                     "made_at": self.time.now}
        self.run(self._send(device, press_text(press), "press", press))

    def _keeps_the_clock(self, device: Device) -> bool:
        return self.clock().holder == holder.device_key(device.id)

    # --- the arbiter and the flag timer ---------------------------------------------------

    @rule(command=st.sampled_from(["pause", "resume", "add A", "add B", "subtract A",
                                   "subtract B"]))
    def arbiter_command(self, command):
        def give():
            board, who, user = self.board, "arbiter", self.arbiter
            try:
                if command == "pause":
                    services.pause(board, who=who, user=user)
                elif command == "resume":
                    services.resume(board, who=who, user=user)
                else:
                    kind, side = command.split()
                    state = services.clock_for(board).core.at(services.now_ms())
                    turn = (state.turn.value if state.turn else side) if state.flagged(
                        side) else None
                    services.adjust(board, side, kind, 5_000, reason="machine", turn=turn,
                                    who=who, user=user)
                    if kind == "add":
                        self.adjusted.add(side)
            except services.ClockRefused:
                return False
            return True

        if self.run(database_sync_to_async(give)()):
            self.commands_at.append(self.time.now)
        self._drain_all()

    @rule(name=st.none() | st.sampled_from(NAMES))
    def arbiter_hands_over(self, name):
        device = None if name is None else holder.device_key(self.devices[name].id)

        def hand():
            with contextlib.suppress(holder.HandOverRefused):
                holder.hand_over(self.board, now=services.now_ms(), user=self.arbiter,
                                 device=device)

        self.run(database_sync_to_async(hand)())
        self._drain_all()

    @rule()
    def flag_timer_ticks(self):
        self.run(database_sync_to_async(flagtimer.tick)())
        self._drain_all()

    # --- what must hold ---------------------------------------------------------------------

    def _check_press(self, device: Device, press: dict, answer: dict, arrival: int) -> None:
        STATS["presses checked"] += 1
        late = answer["late_ms"]
        since = self.clock().holder_since_ms
        if since is not None and arrival - since <= BURST_MS:
            STATS["presses just after taking the clock"] += 1
        if late > ALLOWANCE_MS + max(0, arrival - (since or 0) - HEARTBEAT_MS):
            self.failures.append(f"{device.name} credited {late} ms for time before it took "
                                 f"the clock at {since} (press at {arrival})")
        allowed = observed_bound(self.heard[device.name], since)
        if late > allowed:
            self.failures.append(f"{device.name} credited {late} ms where {allowed} ms was "
                                 f"observed: {self.heard[device.name][-12:]}")
        if at_page_pace(self.heard[device.name], since):
            STATS["presses at the page's pace"] += 1
            if late > ALLOWANCE_MS:
                self.failures.append(f"{device.name} at the page's pace credited {late} ms")
        if press is not None and press["honest"] and self._honest_outage(device, press,
                                                                         arrival):
            STATS["honest presses through an outage"] += 1
            if any(kind == "late" and t > press["made_at"]
                   for t, kind in self.heard[device.name]):
                STATS["... with late bytes"] += 1
            dated = arrival - late
            if abs(dated - press["made_at"]) > 300:
                self.failures.append(f"{device.name}'s honest press made at "
                                     f"{press['made_at']} dated {dated}")

    def _honest_outage(self, device: Device, press: dict, arrival: int) -> bool:
        """Whether an honest press's credit must be its offline time: made while the network
        was out long enough for the page to give its socket up, by the device keeping the clock
        since before, heard at the page's pace before the outage, the arbiter doing nothing
        meanwhile, budget left."""
        live = [t for t, kind in self.heard[device.name] if kind != "late"]
        before = [t for t in live if t <= press["made_at"]]
        clock = self.clock()
        return (len(before) >= 3 and before[-1] < press["made_at"]
                and arrival - before[-1] > PAGE_DROPS_MS
                and all(b - a <= HEARTBEAT_MS for a, b in itertools.pairwise(before[-3:]))
                and (clock.holder_since_ms or 0) < before[-3]
                and not any(before[-3] <= t <= arrival for t in self.commands_at)
                and clock.core.compensated_ms + (arrival - before[-1]) < BUDGET_MS)

    @invariant()
    def flags_stand_and_nothing_failed(self):
        self._track_flags()
        assert self.failures == []

    def _track_flags(self) -> None:
        """A fallen flag stands (checked after every exchange with the server, within a step
        too), unless the arbiter added time to that side."""
        if not hasattr(self, "board"):
            return
        state = self.clock().core.at(self.time.now)
        for side in (A, B):
            flagged = state.side(side).flagged_at_ms
            if side in self.flags and flagged != self.flags[side] and side not in self.adjusted:
                self.failures.append(f"{side}'s flag at {self.flags[side]} was lifted")
            if flagged is not None:
                self.flags[side] = flagged
                STATS["states with a flag"] += 1
            else:
                self.flags.pop(side, None)
        self.adjusted.clear()


#: what the runs went through: each kind of check must have been met (the test says so)
STATS: collections.Counter = collections.Counter()


def press_text(press: dict) -> str:
    return json.dumps({"type": "press", **{k: press[k] for k in ("side", "press", "elapsed_ms",
                                                                 "epoch")}})


def observed_bound(events: list[tuple[int, str]], holder_since: int | None) -> int:
    """The most the last event (a press) may be credited, read from everything the server heard
    from the device, as docs/clock.md states it: the allowance, plus the silence beyond the
    heartbeat before the burst the press arrived in. A gap of more than ``SILENCE_MS``, or a
    socket's opening more than a heartbeat after the device's last message at its pace, ends a
    silence; so does a gap beyond the heartbeat, counted from the message before it. Its burst
    is what arrives within ``BURST_MS`` of its end. A silence starts at the device's last
    message at its pace: the one before the gap, unless the gap follows a burst the device
    never followed at its pace (a message past the burst within ``SILENCE_MS`` of the one
    before). Only the part after the device took the clock counts."""
    start, end, back = events[0][0], events[0][0], True
    previous = events[0][0]
    for t, kind in events[1:]:
        gap, paced = t - previous, previous if back else start
        if kind == "open" and t - paced > HEARTBEAT_MS:
            start, end, back = paced, t, False
        elif kind == "open":
            start, end, back = t, t, True
        elif t - end <= BURST_MS:
            pass
        elif gap > SILENCE_MS:
            start, end, back = (previous if back else start), t, False
        elif gap > HEARTBEAT_MS:
            start, end, back = previous, t, True
        else:
            back = True
        previous = t
    if events[-1][0] - end > BURST_MS:
        return ALLOWANCE_MS
    start = start if holder_since is None else max(start, holder_since)
    return ALLOWANCE_MS + max(0, end - start - HEARTBEAT_MS)


def at_page_pace(events: list[tuple[int, str]], holder_since: int | None) -> bool:
    """Whether the device was heard live at the page's pace (a heartbeat at most between two
    messages, its socket not reopened, nothing late) for a silence and a burst's length before
    its last press, having kept the clock since before."""
    arrival = events[-1][0]
    window = [(t, kind) for t, kind in events if t >= arrival - SILENCE_MS - BURST_MS]
    earlier = [t for t, _kind in events if t < arrival - SILENCE_MS - BURST_MS]
    return (bool(earlier) and (holder_since or 0) <= earlier[-1]
            and all(kind in ("ping", "press", "message") for _t, kind in window)
            and all(b - a <= HEARTBEAT_MS
                    for a, b in itertools.pairwise([earlier[-1], *(t for t, _k in window)])))


@pytest.mark.long_story  # consumer logic: the same on either database (the live probes of
# tests/clocks/test_clock_probes_live.py take these hand-offs on PostgreSQL + Redis)
def test_the_board_socket_protocol_holds_at_every_hand_off(transactional_db, monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(services, "now_ms", fake)
    BoardSockets.time = fake
    BoardSockets.arbiter = get_user_model().objects.create_user("machinearbiter",
                                                               password="pw-machine-1")
    case = BoardSockets.TestCase
    case.settings = settings(max_examples=50, stateful_step_count=20, deadline=None,
                             derandomize=True,
                             suppress_health_check=[HealthCheck.too_slow,
                                                    HealthCheck.filter_too_much])
    STATS.clear()
    case().runTest()
    print(dict(STATS))
    for kind in ("presses checked", "presses just after taking the clock",
                 "presses at the page's pace", "honest presses through an outage",
                 "... with late bytes", "states with a flag"):
        assert STATS[kind] > 0, (kind, dict(STATS))
    assert ClockLogEntry.objects.filter(action="press").exists()
