"""Presses measured by the board's device (issue #22): dated where the device saw them, within
bounds. Worked examples first, then properties: with budget enough, a press that waited in the
device's queue leaves the clock exactly as if it had arrived at once; whatever the device
claims, a reconciled turn is never negative, never longer than the server saw, never shorter
than the device measured, the sides' used times add up to the running time, the budget holds,
and replaying the same commands gives the same state.
"""

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clocks.core.clock import (
    ClockState,
    Dated,
    IgnoredReason,
    InvalidAmountError,
    Side,
    Status,
)
from clocks.core.timecontrol import TimeControl

A, B = Side.A, Side.B
BUDGET = 180_000


def started(tc: str = "600", at: int = 0) -> ClockState:
    return ClockState.new(tc).start(at)


# -- worked examples -----------------------------------------------------------------------------


def test_a_late_press_is_dated_where_the_device_saw_it():
    # the log line: "press 1, measured by the board: 5.8 s, arrived 11.2 s late"
    clock = started()
    result = clock.press(A, 0, 17_000, measured_ms=5_800, epoch=1, budget_ms=BUDGET)
    assert result.accepted
    assert result.press.at_ms == 5_800
    assert (result.reconciled.late_ms, result.reconciled.dated) == (11_200, Dated.DEVICE)
    state = result.state
    assert state.remaining_ms(A, 17_000) == 600_000 - 5_800
    assert state.remaining_ms(B, 17_000) == 600_000 - 11_200  # B's turn began at 5.8 s
    assert (state.compensated_ms, state.compensated_to_ms) == (11_200, 17_000)


def test_a_device_measuring_more_than_the_server_saw_is_dated_on_arrival():
    result = started().press(A, 0, 17_000, measured_ms=20_000, epoch=1, budget_ms=BUDGET)
    assert (result.press.at_ms, result.reconciled.dated, result.reconciled.late_ms) == (
        17_000, Dated.ARRIVAL, 0)
    assert result.state.compensated_ms == 0


def test_past_the_budget_a_press_is_dated_on_arrival():
    result = started().press(A, 0, 17_000, measured_ms=5_800, epoch=1, budget_ms=10_000)
    assert result.press.at_ms == 17_000
    assert result.reconciled.dated is Dated.BUDGET
    assert result.state.compensated_ms == 0


def test_presses_queued_through_one_outage_share_its_time_in_the_budget():
    clock = started()
    # offline from 2 s to 20 s; A pressed at 3 s, B at 7 s; both arrive at 20 s
    first = clock.press(A, 0, 20_000, measured_ms=3_000, epoch=1, budget_ms=BUDGET)
    second = first.state.press(B, 1, 20_000, measured_ms=4_000, epoch=1, budget_ms=BUDGET)
    assert [p.at_ms for p in second.state.presses] == [3_000, 7_000]
    assert (first.reconciled.cost_ms, second.reconciled.cost_ms) == (17_000, 0)
    assert second.state.compensated_ms == 17_000  # the outage, once
    assert second.state.remaining_ms(A, 20_000) == 600_000 - 3_000 - 13_000


def test_a_copy_of_a_counted_press_is_a_duplicate_and_changes_nothing():
    state = started().press(A, 0, 5_000, measured_ms=5_000, epoch=1, budget_ms=BUDGET).state
    again = state.press(A, 0, 9_000, measured_ms=5_000, epoch=1, budget_ms=BUDGET)
    assert again.ignored is IgnoredReason.DUPLICATE
    assert again.state is state
    # without a measurement (the old protocol) the same copy is merely stale
    assert state.press(A, 0, 9_000).ignored is IgnoredReason.STALE


def test_an_arbiter_command_given_during_the_outage_wins():
    clock = started().pause(4_000).resume(8_000)  # the device saw none of it (epoch 1)
    result = clock.press(A, 0, 12_000, measured_ms=6_000, epoch=1, budget_ms=BUDGET)
    assert result.ignored is IgnoredReason.ARBITER
    assert result.state is clock
    # the device that saw the resume (epoch 3) measures the running time only
    result = clock.press(A, 0, 12_000, measured_ms=5_000, epoch=3, budget_ms=BUDGET)
    assert result.press.at_ms == 9_000  # 4 s before the pause, 1 s after the resume
    assert result.reconciled.late_ms == 3_000


def test_a_press_is_never_dated_before_its_running_stretch_began():
    clock = started().pause(4_000).resume(8_000)
    result = clock.press(A, 0, 12_000, measured_ms=1_000, epoch=3, budget_ms=BUDGET)
    assert result.press.at_ms == 8_000  # measured clamped to the 4 s before the pause
    assert result.reconciled.measured_ms == 4_000


def test_a_flag_stored_during_the_outage_is_withdrawn_when_the_device_pressed_in_time():
    clock = started("10")
    stored = clock.at(12_000)  # the flag timer stored A's flag at its deadline, 10 s
    assert stored.status is Status.A_FLAGGED
    result = stored.press(A, 0, 15_000, measured_ms=8_000, epoch=1, budget_ms=BUDGET)
    assert result.accepted and result.reconciled.unflagged
    state = result.state
    assert state.side(A).flagged_at_ms is None
    assert state.remaining_ms(A, 15_000) == 2_000
    assert state.remaining_ms(B, 15_000) == 10_000 - 7_000  # B's turn began at 8 s
    assert state.running is B and result.reconciled.late_ms == 7_000


def test_a_flag_stands_when_the_device_agrees_or_something_was_played_after_it():
    stored = started("10").at(12_000)
    late = stored.press(A, 0, 15_000, measured_ms=10_500, epoch=1, budget_ms=BUDGET)
    assert late.ignored is IgnoredReason.FLAGGED and late.state is stored
    after = stored.press(B, 0, 13_000).state  # B, alone, pressed after the flag
    assert after.press(A, 0, 15_000, measured_ms=8_000, epoch=1,
                       budget_ms=BUDGET).ignored is IgnoredReason.STALE
    short = stored.press(A, 0, 15_000, measured_ms=8_000, epoch=1, budget_ms=1_000)
    assert (short.ignored, short.reconciled.dated) == (IgnoredReason.FLAGGED, Dated.BUDGET)


def test_the_reconciliation_survives_storage():
    state = started("10").at(11_000)
    assert state.flag_turn is not None
    assert ClockState.from_dict(state.to_dict()) == state
    old = state.to_dict()
    for key in ("epoch", "compensated_ms", "compensated_to_ms", "flag_turn"):
        old.pop(key)
    assert ClockState.from_dict(old) == replace(state, epoch=0, flag_turn=None)


def test_a_negative_measurement_is_refused():
    with pytest.raises(InvalidAmountError, match="measured_ms"):
        started().press(A, 0, 1_000, measured_ms=-1, epoch=1)


# -- properties ----------------------------------------------------------------------------------

time_controls = st.one_of(
    st.builds(TimeControl, st.integers(1, 30)),
    st.builds(TimeControl, st.integers(1, 30), increment_s=st.integers(0, 3)),
    st.builds(TimeControl, st.integers(1, 30), delay_s=st.integers(0, 3)),
)


def ledger(state: ClockState) -> tuple:
    return (state.a, state.b, state.turn, state.press_number, state.presses,
            state.turn_started_ms, state.turn_elapsed_ms)


@settings(deadline=None, max_examples=300)
@given(tc=time_controls, gaps=st.lists(st.integers(1, 12_000), min_size=1, max_size=8),
       delays=st.lists(st.integers(0, 20_000), min_size=8, max_size=8))
def test_with_budget_enough_a_queued_press_counts_as_if_it_had_arrived_at_once(tc, gaps, delays):
    reference = server = ClockState.new(tc).start(0)
    device_time, arrival = 0, 0
    for gap, delay in zip(gaps, delays, strict=False):
        device_time += gap
        seen = reference.at(device_time)
        if seen.running is None:
            break
        side, measured = seen.running, seen.snapshot(device_time)["turn_elapsed_ms"]
        number = seen.press_number
        reference = seen.press(side, number, device_time).state
        arrival = max(arrival, device_time + delay)
        assume(server.at(arrival).status is not Status.BOTH_FLAGGED)
        result = server.press(side, number, arrival, measured_ms=measured, epoch=1,
                              budget_ms=10**9)
        assert result.accepted, result.ignored
        server = result.state
    assert ledger(server.at(arrival)) == ledger(reference.at(arrival))


@settings(deadline=None, max_examples=300)
@given(base=st.integers(1, 30), budget=st.integers(0, 60_000),
       steps=st.lists(st.tuples(st.booleans(), st.integers(0, 15_000), st.integers(0, 30_000)),
                      min_size=1, max_size=12))
def test_whatever_the_device_claims_a_reconciled_timeline_stays_within_bounds(base, budget,
                                                                                steps):
    tc = TimeControl(base)  # no increment, no delay: used time is running time
    state, now, commands = ClockState.new(tc).start(0), 0, []
    for wrong_side, wait, measured in steps:
        now += wait
        seen = state.at(now)
        side = seen.turn or A  # when both are flagged: a late press of A's, to withdraw one
        side = side.other if wrong_side else side
        command = (side, seen.press_number, now, measured)
        commands.append(command)
        result = state.press(side, seen.press_number, now, measured_ms=measured, epoch=1,
                             budget_ms=budget)
        if result.accepted and not result.reconciled.unflagged:
            charged = result.press.at_ms - seen.turn_started_ms
            server_saw = now - seen.turn_started_ms
            assert min(measured, server_saw) <= charged <= server_saw
        if not result.accepted:
            assert result.state is state
        state = result.state
        later = state.at(now)
        assert 0 <= later.compensated_ms <= budget
        used = later.a.used_ms + later.b.used_ms + (
            0 if later.turn is None else now - later.turn_started_ms)
        # the sides' used times add up to the running time (until both flags stop it)
        stopped = max(later.a.flagged_at_ms or 0, later.b.flagged_at_ms or 0)
        assert used == (now if later.turn is not None else stopped)
        assert all(later.remaining_ms(s, now) >= 0 for s in Side)
        stamps = [p.at_ms for p in later.presses]
        assert stamps == sorted(stamps) and all(t <= now for t in stamps)
        assert ClockState.from_dict(later.to_dict()) == later
    replayed = ClockState.new(tc).start(0)
    for side, number, at, measured in commands:
        replayed = replayed.press(side, number, at, measured_ms=measured, epoch=1,
                                  budget_ms=budget).state
    assert replayed == state


def test_an_online_seat_is_credited_its_lag_up_to_the_cap_from_the_budget():
    clock = started()
    result = clock.press(A, 0, 10_400, measured_ms=10_000, budget_ms=BUDGET, cap_ms=1_000)
    assert (result.press.at_ms, result.reconciled.late_ms) == (10_000, 400)
    result = clock.press(A, 0, 13_000, measured_ms=10_000, budget_ms=BUDGET, cap_ms=1_000)
    assert (result.press.at_ms, result.reconciled.late_ms) == (12_000, 1_000)  # capped
    result = clock.press(A, 0, 13_000, measured_ms=10_000, budget_ms=600, cap_ms=1_000)
    assert result.reconciled.late_ms == 600  # what is left of the quota
    assert result.state.compensated_ms == 600
    flagged = started("10").at(12_000)
    assert flagged.press(A, 0, 12_000, measured_ms=9_000, budget_ms=BUDGET,
                         cap_ms=1_000).ignored is IgnoredReason.FLAGGED
