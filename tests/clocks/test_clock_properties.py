"""Property tests for the clock core: random event sequences against an independent model.

The model ticks: it walks time forward, spending the Bronstein delay first and then the main
time, and flags a side the moment both reach zero. The core stores and derives instead, so the
two agree only if the derivation is right. Invariants checked after every step: remaining times
and flags equal the model's, time is conserved (used + remaining = base + increments +
adjustments), nothing is ever negative, flags fall at turn start + remaining + delay, versions
only grow, ignored presses change nothing, and ``at`` is deterministic.
"""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from clocks.core.clock import (
    MAX_ADJUST_MS,
    AlreadyStartedError,
    ClockFinishedError,
    ClockState,
    IgnoredReason,
    InvalidAmountError,
    MissingArgumentError,
    NegativeTimeError,
    NothingToCorrectError,
    NotPausedError,
    NotRunningError,
    NotStartedError,
    Side,
    SideFlaggedError,
    Status,
)
from clocks.core.state_reader import read_state
from clocks.core.timecontrol import MAX_SECONDS, TimeControl

SIDES = st.sampled_from(list(Side))
time_controls = st.one_of(
    st.builds(TimeControl, st.integers(1, 40)),
    st.builds(TimeControl, st.integers(1, 40), increment_s=st.integers(0, 5)),
    st.builds(TimeControl, st.integers(1, 40), delay_s=st.integers(0, 5)),
)


# -- notation ------------------------------------------------------------------------------------


@given(
    st.one_of(
        st.builds(TimeControl, st.integers(1, MAX_SECONDS), st.integers(0, MAX_SECONDS)),
        st.builds(TimeControl, st.integers(1, MAX_SECONDS), delay_s=st.integers(0, MAX_SECONDS)),
    )
)
def test_time_control_notation_round_trips(tc):
    assert TimeControl.parse(str(tc)) == tc
    assert str(TimeControl.parse(str(tc))) == str(tc)


@given(st.text(alphabet="0123456789+d- x", max_size=12))
def test_time_control_parse_accepts_only_what_it_prints(text):
    try:
        tc = TimeControl.parse(text)
    except ValueError:
        return
    canonical = str(tc)
    assert text.strip() in {canonical, f"{canonical}+0", f"{canonical}d0"}


# -- the reference model -------------------------------------------------------------------------


class Model:
    """A ticking clock: the obvious (slow, mutable) way, to check the clever one against."""

    def __init__(self, tc: TimeControl, now: int) -> None:
        self.tc, self.t = tc, now
        self.remaining = dict.fromkeys(Side, tc.base_ms)
        self.used = dict.fromkeys(Side, 0)
        self.increments = dict.fromkeys(Side, 0)
        self.adjustments = dict.fromkeys(Side, 0)
        self.flags: dict[Side, int | None] = dict.fromkeys(Side)
        self.started = self.finished = self.paused = False
        self.turn: Side | None = None
        self.delay_left = 0
        self.press_number = 0
        # the current turn's start and remaining time then; None once a pause or an adjustment
        # interrupted it (its deadline then no longer follows from the start alone)
        self.turn_record: tuple[Side, int, int] | None = None

    @property
    def running(self) -> Side | None:
        return None if self.paused or self.finished else self.turn

    def new_turn(self, side: Side | None) -> None:
        self.turn = side
        self.delay_left = self.tc.delay_ms
        fresh = side is not None and not self.paused
        self.turn_record = (side, self.t, self.remaining[side]) if fresh else None

    def advance(self, to: int) -> None:
        while (side := self.running) is not None:
            if self.delay_left == 0 and self.remaining[side] == 0:
                self.flag(side)
                continue
            if self.t == to:
                break
            step = min(to - self.t, self.delay_left)
            self.delay_left -= step
            self.t += step
            step = min(to - self.t, self.remaining[side])
            self.remaining[side] -= step
            self.used[side] += step
            self.t += step
        self.t = to

    def flag(self, side: Side) -> None:
        if self.turn_record is not None:
            flagged_side, start, remaining_then = self.turn_record
            assert flagged_side is side
            assert self.t == start + remaining_then + self.tc.delay_ms
        self.flags[side] = self.t
        event("flag after an uninterrupted turn" if self.turn_record else "flag")
        other = side.other
        self.new_turn(None if self.flags[other] is not None else other)

    def status(self) -> Status:
        if self.finished:
            return Status.FINISHED
        if not self.started:
            return Status.NOT_STARTED
        if self.paused:
            return Status.PAUSED
        a, b = (self.flags[s] is not None for s in Side)
        if a and b:
            return Status.BOTH_FLAGGED
        if a or b:
            return Status.A_FLAGGED if a else Status.B_FLAGGED
        return Status.RUNNING_A if self.turn is Side.A else Status.RUNNING_B

    def deadline(self) -> int | None:
        side = self.running
        return None if side is None else self.t + self.delay_left + self.remaining[side]

    def hand_turn(self, side: Side) -> None:
        if side is not self.turn:
            self.new_turn(side)


class ClockMachine(RuleBasedStateMachine):
    """Drives ``ClockState`` and ``Model`` with the same events at a monotone fake time."""

    @initialize(
        tc=time_controls,
        start=st.integers(-(10**12), 10**13),
        started=st.sampled_from([True, True, True, False]),
    )
    def setup(self, tc, start, started):
        self.state = ClockState.new(tc)
        self.model = Model(tc, start)
        self.version = 0
        if started:
            self.start()

    # -- helpers --

    def accept(self, new: ClockState) -> None:
        assert new.version > self.version
        self.state, self.version = new, new.version

    def refused(self, error, command) -> None:
        with pytest.raises(error):
            command()

    def open_error(self):
        return ClockFinishedError if self.model.finished else None

    # -- time --

    @rule(ms=st.one_of(st.integers(0, 3), st.integers(0, 30_000)))
    def wait(self, ms):
        self.model.advance(self.model.t + ms)

    @precondition(lambda self: self.model.deadline() is not None)
    @rule(offset=st.sampled_from([-1, 0, 0, 1]))
    def wait_for_deadline(self, offset):
        self.model.advance(max(self.model.t, self.model.deadline() + offset))

    @rule(ms=st.integers(1, 5_000))
    def look_from_a_lagging_process(self, ms):
        earlier = self.model.t - ms
        assert self.state.at(earlier).version <= self.state.at(self.model.t).version
        if self.state.updated_ms is not None and earlier < self.state.updated_ms:
            assert self.state.at(earlier) == self.state.at(self.state.updated_ms)

    # -- events --

    @rule()
    def start(self):
        m = self.model
        error = self.open_error() or (AlreadyStartedError if m.started else None)
        if error:
            return self.refused(error, lambda: self.state.start(m.t))
        self.accept(self.state.start(m.t))
        m.started = True
        m.new_turn(Side.A)
        m.advance(m.t)  # a side set to zero before the start flags at once

    @rule(ms=st.one_of(st.integers(0, 4_000), st.integers(0, 20_000)))
    def play_a_turn(self, ms):
        """The common case: the side to move presses in time (or finds it has flagged)."""
        self.model.advance(self.model.t + ms)
        self.press(self.model.running or Side.A, 0)

    @rule(side=SIDES, offset=st.sampled_from([0, 0, -1, 1, -2]))
    def press(self, side, offset):
        m = self.model
        number = m.press_number + offset
        result = self.state.press(side, number, m.t)
        expected = (
            IgnoredReason.FINISHED if m.finished
            else IgnoredReason.NOT_STARTED if not m.started
            else IgnoredReason.PAUSED if m.paused
            else IgnoredReason.STALE if offset < 0
            else IgnoredReason.AHEAD if offset > 0
            else IgnoredReason.FLAGGED if m.flags[side] is not None
            else IgnoredReason.NOT_YOUR_TURN if side is not m.running
            else None
        )  # fmt: skip
        assert result.ignored is expected
        if expected is not None:
            assert result.state is self.state and result.press is None
            return
        self.accept(result.state)
        event(f"accepted press, opponent flagged: {m.flags[side.other] is not None}")
        m.remaining[side] += m.tc.increment_ms
        m.increments[side] += m.tc.increment_ms
        m.press_number += 1
        assert (result.press.number, result.press.side) == (m.press_number, side)
        assert (result.press.at_ms, result.press.remaining_ms) == (m.t, m.remaining[side])
        assert self.state.presses[-1] == result.press
        m.new_turn(side if m.flags[side.other] is not None else side.other)
        self.model.advance(m.t)

    @rule()
    def pause(self):
        m = self.model
        error = self.open_error() or (NotRunningError if m.running is None else None)
        if error:
            return self.refused(error, lambda: self.state.pause(m.t))
        self.accept(self.state.pause(m.t))
        m.paused = True
        m.turn_record = None

    @rule()
    def resume(self):
        m = self.model
        error = self.open_error() or (None if m.paused else NotPausedError)
        if error:
            return self.refused(error, lambda: self.state.resume(m.t))
        self.accept(self.state.resume(m.t))
        m.paused = False
        m.advance(m.t)

    @rule(
        side=SIDES,
        kind=st.sampled_from(["add", "subtract", "set"]),
        amount=st.one_of(st.integers(0, 3), st.integers(0, 25_000)),
        turn=st.one_of(st.none(), SIDES),
    )
    def adjust(self, side, kind, amount, turn):
        m = self.model
        before = m.remaining[side]
        after = {"add": before + amount, "subtract": before - amount, "set": amount}[kind]
        unflags = m.flags[side] is not None and after > 0
        turn_flagged = turn is not None and m.flags[turn] is not None
        turn_flagged = turn_flagged and not (turn is side and unflags)
        error = self.open_error() or (
            NegativeTimeError if after < 0
            else MissingArgumentError if unflags and turn is None
            else NotStartedError if turn is not None and not m.started
            else SideFlaggedError if turn_flagged
            else None
        )  # fmt: skip
        command = lambda: self.state.adjust(side, kind, amount, m.t, reason="test", turn=turn)  # noqa: E731
        if error:
            return self.refused(error, command)
        self.accept(command())
        m.remaining[side] = after
        m.adjustments[side] += after - before
        if unflags:
            m.flags[side] = None
        if m.turn_record is not None and m.turn_record[0] is side:
            m.turn_record = None
        if turn is not None:
            m.hand_turn(turn)
        assert self.state.log[-1].delta_ms == after - before
        m.advance(m.t)

    @rule(turn=SIDES)
    def correct(self, turn):
        m = self.model
        error = self.open_error() or (
            NothingToCorrectError if turn is m.turn
            else NotStartedError if not m.started
            else SideFlaggedError if m.flags[turn] is not None
            else None
        )  # fmt: skip
        if error:
            return self.refused(error, lambda: self.state.correct(turn, m.t, reason="test"))
        self.accept(self.state.correct(turn, m.t, reason="test"))
        m.hand_turn(turn)
        m.advance(m.t)

    @precondition(lambda self: self.model.press_number >= 4)  # let most runs play a while
    @rule(kind=st.sampled_from(["completed", "resigned", "arbiter"]), side=SIDES)
    def finish(self, kind, side):
        m = self.model
        command = lambda: self.state.finish(kind, m.t, side=side, reason="test")  # noqa: E731
        if m.finished:
            return self.refused(ClockFinishedError, command)
        self.accept(command())
        m.finished, m.paused, m.turn = True, False, None

    # -- invariants --

    @invariant()
    def agrees_with_the_model(self):
        m, now = self.model, self.model.t
        seen = self.state.at(now)
        assert seen.status is m.status()
        assert seen.running is m.running
        assert seen.press_number == m.press_number
        assert seen.next_deadline_ms() == m.deadline()
        for side in Side:
            assert seen.side(side).flagged_at_ms == m.flags[side]
            assert seen.remaining_ms(side, now) == m.remaining[side]

    @invariant()
    def time_is_conserved_and_never_negative(self):
        m, now = self.model, self.model.t
        base = m.tc.base_ms
        for side in Side:
            left = self.state.remaining_ms(side, now)
            assert left >= 0
            assert m.used[side] + left == base + m.increments[side] + m.adjustments[side]
            clock = self.state.side(side)
            assert (clock.increments_ms, clock.adjustments_ms) == (
                m.increments[side],
                m.adjustments[side],
            )

    @invariant()
    def looking_is_deterministic_and_versions_only_grow(self):
        now = self.model.t
        seen = self.state.at(now)
        assert seen.version >= self.state.version >= self.version
        for later in (now + 1, now + 15_000):
            assert self.state.at(later) == seen.at(later)
            assert self.state.at(later).version >= seen.version
        far = self.state.at(now + 10**9)  # long after every deadline: flags are final
        assert far == far.at(now + 2 * 10**9)

    @invariant()
    def persistence_and_snapshot_round_trip(self):
        saved = json.loads(json.dumps(self.state.to_dict()))
        assert ClockState.from_dict(saved) == self.state
        assert read_state(saved) == self.state  # a backup reads every state the core makes
        snap = self.state.snapshot(self.model.t)
        assert json.loads(json.dumps(snap)) == snap
        assert snap["remaining_ms"] == {s.value: self.model.remaining[s] for s in Side}


ClockMachine.TestCase.settings = settings(
    max_examples=120,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestClockMachine = ClockMachine.TestCase


# -- a few direct properties ---------------------------------------------------------------------


@settings(deadline=None, max_examples=200)
@given(
    tc=time_controls,
    turns=st.lists(st.integers(0, 15_000), min_size=1, max_size=12),
    start=st.integers(0, 10**12),
)
def test_an_uninterrupted_turn_flags_at_start_plus_remaining_plus_delay(tc, turns, start):
    state, now = ClockState.new(tc).start(start), start
    for duration in turns:
        side, left = state.at(now).running, None
        if side is None:
            break
        left = state.remaining_ms(side, now)
        deadline = now + left + tc.delay_ms
        assert state.at(now).next_deadline_ms() == deadline
        if now + duration >= deadline:
            flagged = state.at(now + duration)
            assert flagged.side(side).flagged_at_ms == deadline
            assert flagged.remaining_ms(side, now + duration) == 0
            state, now = flagged, deadline
            continue
        now += duration
        state = state.press(side, state.press_number, now).state


@settings(deadline=None, max_examples=200)
@given(tc=time_controls, times=st.lists(st.integers(0, 60_000), min_size=1, max_size=10))
def test_stale_presses_change_nothing(tc, times):
    state, now = ClockState.new(tc).start(0), 0
    for dt in times:
        now += dt
        seen = state.at(now)
        if seen.running is None:
            break
        accepted = state.press(seen.running, seen.press_number, now)
        assert accepted.accepted
        for side in Side:
            duplicate = accepted.state.press(side, seen.press_number, now)
            assert duplicate.ignored is IgnoredReason.STALE
            assert duplicate.state is accepted.state
        state = accepted.state


@settings(deadline=None, max_examples=200)
@given(kind=st.sampled_from(["add", "subtract", "set"]),
       amount=st.one_of(st.integers(), st.integers(-10, MAX_ADJUST_MS + 10)),
       presses=st.integers(1, 5))
def test_any_adjustment_is_refused_or_leaves_a_clock_that_still_runs(kind, amount, presses):
    """Issue #21: an amount past one day was accepted and every later press crashed; now an
    amount outside 0..one day is refused, and whatever is accepted leaves a clock whose
    presses and deadlines stay within the database's 64 bits."""
    clock = ClockState.new(TimeControl.parse("600+5")).start(0)
    try:
        clock = clock.adjust("A", kind, amount, 1_000, reason="arbiter")
    except (InvalidAmountError, NegativeTimeError):
        assert not 0 <= amount <= MAX_ADJUST_MS or kind == "subtract"
        return
    assert 0 <= amount <= MAX_ADJUST_MS
    for number in range(presses):
        side = "A" if number % 2 == 0 else "B"
        clock = clock.press(side, number, 2_000 + number).state
        for s in (Side.A, Side.B):
            assert 0 <= clock.remaining_ms(s, 2_000 + number) < 2**63
