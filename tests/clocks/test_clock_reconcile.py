"""Presses measured by the board's device: dated where the device saw it, within what the
server observed. Worked examples first, then properties: with budget and silence enough, a
press that waited in the device's queue leaves the clock exactly as if it had arrived at once,
also across the arbiter's commands given meanwhile; whatever the device claims, a reconciled
turn is never negative, never longer than the server saw, never credited more than the silence
the server observed beyond the page's heartbeat (a live link: the allowance), a fallen flag
stands, the sides' used times add up to the running time, the budget holds, and replaying the
same commands gives the same state.
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
from clocks.core.hearing import ALLOWANCE_MS, HEARTBEAT_MS, Silence
from clocks.core.state_reader import read_state
from clocks.core.timecontrol import TimeControl

A, B = Side.A, Side.B
BUDGET = 180_000


def started(tc: str = "600", at: int = 0) -> ClockState:
    return ClockState.new(tc).start(at)


def offline(state: ClockState, side, number, arrival, measured, *, since, epoch=1,
            budget=BUDGET):
    """A press the device kept through an outage: the server last heard it at its pace at
    ``since``, and the press arrived at the end of the silence (its credit: the allowance plus
    the silence beyond the heartbeat)."""
    return state.press(side, number, arrival, measured_ms=measured, epoch=epoch,
                       budget_ms=budget, silence=Silence(since, arrival))


# -- worked examples -----------------------------------------------------------------------------


def test_a_late_press_is_dated_where_the_device_saw_it():
    # the issue's log line: "press 1, measured by the board: 5.8 s, arrived 11.2 s late"
    result = offline(started(), A, 0, 17_000, 5_800, since=4_000)
    assert result.accepted
    assert result.press.at_ms == 5_800
    assert (result.reconciled.late_ms, result.reconciled.dated) == (11_200, Dated.DEVICE)
    state = result.state
    assert state.remaining_ms(A, 17_000) == 600_000 - 5_800
    assert state.remaining_ms(B, 17_000) == 600_000 - 11_200  # B's turn began at 5.8 s
    assert (state.compensated_ms, state.compensated_to_ms) == (11_200, 17_000)
    assert (state.a.credited_ms, state.b.credited_ms) == (11_200, 0)
    assert state.snapshot(17_000)["credited_ms"] == {"A": 11_200, "B": 0}


def test_a_device_measuring_more_than_the_server_saw_is_dated_on_arrival():
    result = offline(started(), A, 0, 17_000, 20_000, since=4_000)
    assert (result.press.at_ms, result.reconciled.dated, result.reconciled.late_ms) == (
        17_000, Dated.ARRIVAL, 0)
    assert result.state.compensated_ms == 0


def test_the_issues_door_a_device_heard_throughout_gains_at_most_the_allowance():
    """Five presses each claiming 3 s after 40 s of the presser's own turn, from a socket that
    pinged every second: 149 s moved to the opponent before; now about a second each."""
    state, now, moved = started(), 0, 0
    for number in range(5):
        now += 40_000
        side = state.at(now).running
        result = state.press(side, number, now, measured_ms=3_000, epoch=1, budget_ms=BUDGET,
                             silence=None)  # a ping 0.9 s before the press: no silence
        assert result.accepted
        assert (result.reconciled.late_ms, result.reconciled.dated) == (1_000, Dated.HEARD)
        assert result.reconciled.claimed_ms >= 37_000
        moved += result.reconciled.late_ms
        state = result.state
    assert moved == 5_000
    assert state.a.credited_ms + state.b.credited_ms == 5_000


def test_a_press_is_credited_at_most_the_silence_the_server_observed():
    # the device went silent at 12 s, its press arrives at 17 s claiming 11.2 s: credited the
    # allowance and the silence beyond the page's heartbeat, 1 + 5 - 1.25 s
    result = offline(started(), A, 0, 17_000, 5_800, since=12_000)
    assert (result.press.at_ms, result.reconciled.late_ms) == (12_250, 4_750)
    assert (result.reconciled.dated, result.reconciled.claimed_ms) == (Dated.HEARD, 11_200)


def test_past_the_budget_a_press_is_credited_what_is_left_of_it():
    result = offline(started(), A, 0, 17_000, 5_800, since=0, budget=10_000)
    assert result.press.at_ms == 7_000  # 10 s credited of the 11.2 s claimed
    assert (result.reconciled.dated, result.reconciled.late_ms) == (Dated.BUDGET, 10_000)
    assert result.state.compensated_ms == 10_000
    used_up = offline(result.state, B, 1, 30_000, 2_000, since=17_000, budget=10_000)
    assert (used_up.press.at_ms, used_up.reconciled.dated) == (30_000, Dated.BUDGET)
    assert used_up.state.compensated_ms == 10_000


def test_presses_queued_through_one_outage_share_its_time_in_the_budget():
    clock = started()
    # offline from 2 s to 20 s; A pressed at 3 s, B at 7 s; both arrive at 20 s
    first = offline(clock, A, 0, 20_000, 3_000, since=2_000)
    second = offline(first.state, B, 1, 20_000, 4_000, since=2_000)
    assert [p.at_ms for p in second.state.presses] == [3_000, 7_000]
    assert (first.reconciled.cost_ms, second.reconciled.cost_ms) == (17_000, 0)
    assert second.state.compensated_ms == 17_000  # the outage, once
    assert second.state.remaining_ms(A, 20_000) == 600_000 - 3_000 - 13_000
    assert (second.state.a.credited_ms, second.state.b.credited_ms) == (17_000, 13_000)


def test_a_copy_of_a_counted_press_is_a_duplicate_and_changes_nothing():
    state = offline(started(), A, 0, 5_000, 5_000, since=0).state
    again = offline(state, A, 0, 9_000, 5_000, since=0)
    assert again.ignored is IgnoredReason.DUPLICATE
    assert again.state is state
    # without a measurement (the old protocol) the same copy is merely stale
    assert state.press(A, 0, 9_000).ignored is IgnoredReason.STALE


def test_a_press_made_after_an_arbiters_command_it_had_not_seen_is_refused():
    clock = started().pause(4_000).resume(8_000)  # the device saw none of it (epoch 1)
    result = offline(clock, A, 0, 12_000, 6_000, since=0)  # made at 6 s: after the pause
    assert result.ignored is IgnoredReason.ARBITER
    assert result.state is clock
    # the device that saw the resume (epoch 3) measures the running time only
    result = offline(clock, A, 0, 12_000, 5_000, since=8_000, epoch=3)
    assert result.press.at_ms == 9_000  # 4 s before the pause, 1 s after the resume
    assert result.reconciled.late_ms == 3_000


def test_presses_made_before_the_arbiters_pause_are_placed_before_it():
    """The issue's board: A, B, A pressed offline (so B is to move) while the arbiter paused
    and resumed in the hall. The presses made before the pause come first, the pause and the
    resume are given again after them, and B's clock runs, not A's."""
    clock = started()
    # offline from 1 s; A at 5 s, B at 9 s, A at 12 s on the device; paused at 20 s, resumed
    # at 30 s in the hall; the Wi-Fi returns at 40 s
    clock = clock.pause(20_000).resume(30_000)
    first = offline(clock, A, 0, 40_000, 5_000, since=1_000)
    assert first.accepted and first.reconciled.before_commands == 2
    second = offline(first.state, B, 1, 40_000, 4_000, since=1_000)
    third = offline(second.state, A, 2, 40_000, 3_000, since=1_000)
    state = third.state
    assert [p.at_ms for p in state.presses] == [5_000, 9_000, 12_000]
    assert state.running is B and state.epoch == clock.epoch
    # B's turn: 12 s to 20 s, paused to 30 s, running since: 18 s by 40 s
    assert state.remaining_ms(B, 40_000) == 600_000 - 4_000 - 18_000
    assert state.remaining_ms(A, 40_000) == 600_000 - 5_000 - 3_000
    assert state.version == clock.version + 3
    # a fourth press, made on the device at 25 s (while the clock was paused): refused
    late = offline(state, B, 3, 40_000, 13_000, since=1_000)
    assert late.ignored is IgnoredReason.ARBITER and late.state is state


def test_an_adjustment_during_the_outage_is_given_again_after_the_presses_before_it():
    clock = started().adjust(A, "add", 30_000, 10_000, reason="A +30 s")
    result = offline(clock, A, 0, 15_000, 6_000, since=2_000)  # A pressed at 6 s
    state = result.state
    assert result.accepted and state.running is B
    assert state.remaining_ms(A, 15_000) == 600_000 + 30_000 - 6_000
    assert state.remaining_ms(B, 15_000) == 600_000 - 9_000
    assert [e.kind for e in state.log] == ["add"] and state.log[0].at_ms == 10_000


def test_a_correction_the_presses_already_made_true_is_kept_as_given():
    clock = started().correct(B, 10_000, reason="A forgot to press")
    result = offline(clock, A, 0, 15_000, 6_000, since=2_000)  # A had pressed, at 6 s
    state = result.state
    assert result.accepted and state.running is B
    assert state.remaining_ms(B, 15_000) == 600_000 - 9_000  # B's turn began at 6 s
    assert [e.kind for e in state.log] == ["correct"]


def test_the_placed_press_is_credited_within_the_silence_and_the_budget_too():
    clock = started().pause(20_000).resume(30_000)
    # the server heard the device until 21 s: the press claiming 5 s cannot be placed before
    # the pause at 20 s
    heard = offline(clock, A, 0, 40_000, 5_000, since=21_000)
    assert heard.ignored is IgnoredReason.ARBITER
    short = offline(clock, A, 0, 40_000, 5_000, since=1_000, budget=15_000)
    assert short.ignored is IgnoredReason.ARBITER  # 15 s of budget reach back to 25 s only
    partly = offline(clock, A, 0, 40_000, 5_000, since=1_000, budget=30_000)
    assert (partly.press.at_ms, partly.reconciled.dated) == (10_000, Dated.BUDGET)
    enough = offline(clock, A, 0, 40_000, 5_000, since=1_000, budget=35_000)
    assert enough.press.at_ms == 5_000 and enough.state.compensated_ms == 35_000


def test_a_press_is_never_dated_before_its_running_stretch_began():
    clock = started().pause(4_000).resume(8_000)
    result = offline(clock, A, 0, 12_000, 1_000, since=0, epoch=3)
    assert result.press.at_ms == 8_000  # measured clamped to the 4 s before the pause
    assert result.reconciled.measured_ms == 4_000


def test_a_fallen_flag_stands_when_the_device_pressed_in_time_and_says_so():
    clock = started("10")
    stored = clock.at(12_000)  # the flag timer stored A's flag at its deadline, 10 s
    assert stored.status is Status.A_FLAGGED
    result = offline(stored, A, 0, 15_000, 8_000, since=7_000)
    assert result.ignored is IgnoredReason.FLAGGED and result.state is stored
    assert result.reconciled.before_flag  # made at 8 s by the device: for the arbiter
    assert (result.reconciled.late_ms, result.reconciled.claimed_ms) == (7_000, 7_000)


def test_a_flag_stands_when_the_device_agrees_the_server_heard_it_or_play_went_on():
    stored = started("10").at(12_000)
    late = offline(stored, A, 0, 15_000, 10_500, since=7_000)
    assert late.ignored is IgnoredReason.FLAGGED and late.state is stored
    assert not late.reconciled.before_flag
    heard = offline(stored, A, 0, 15_000, 8_000, since=14_500)  # heard until after the flag
    assert (heard.ignored, heard.reconciled.dated) == (IgnoredReason.FLAGGED, Dated.HEARD)
    assert not heard.reconciled.before_flag
    after = stored.press(B, 0, 13_000).state  # B, alone, pressed after the flag
    assert offline(after, A, 0, 15_000, 8_000, since=7_000).ignored is IgnoredReason.STALE
    short = offline(stored, A, 0, 15_000, 8_000, since=7_000, budget=1_000)
    assert (short.ignored, short.reconciled.dated) == (IgnoredReason.FLAGGED, Dated.BUDGET)


def test_a_press_placed_before_the_arbiters_commands_does_not_lift_a_flag_that_fell_after():
    """A pressed offline at 3 s; the arbiter paused and resumed in the hall meanwhile, and the
    server flagged A at its deadline after the resume. Placing the press before the pause
    would lift the flag: refused, the flag stands, and the arbiter is told."""
    clock = started("10").pause(5_000).resume(6_000).at(20_000)
    assert clock.status is Status.A_FLAGGED and clock.a.flagged_at_ms == 11_000
    result = offline(clock, A, 0, 20_000, 3_000, since=1_000)
    assert result.ignored is IgnoredReason.FLAGGED and result.state is clock
    assert result.reconciled.before_flag and result.reconciled.before_commands == 2


def test_the_reconciliation_and_the_recent_commands_survive_storage():
    state = started("10").at(11_000)
    assert state.flag_turn is not None
    assert ClockState.from_dict(state.to_dict()) == state
    old = state.to_dict()
    for key in ("epoch", "compensated_ms", "compensated_to_ms", "flag_turn", "recent_commands"):
        old.pop(key)
    for side in ("a", "b"):
        old[side].pop("credited_ms")
    assert ClockState.from_dict(old) == replace(state, epoch=0, flag_turn=None,
                                                recent_commands=None)
    commanded = started().adjust(B, "add", 5_000, 2_000, reason="noise").pause(3_000)
    saved = commanded.to_dict()
    assert "presses" not in saved["recent_commands"]["before"]
    assert ClockState.from_dict(saved) == commanded == read_state(saved)


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
    return (state.a.used_ms, state.a.increments_ms, state.a.adjustments_ms, state.a.flagged_at_ms,
            state.b.used_ms, state.b.increments_ms, state.b.adjustments_ms, state.b.flagged_at_ms,
            state.turn, state.press_number, state.presses, state.turn_started_ms,
            state.turn_elapsed_ms, state.paused)


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
        result = offline(server, side, number, arrival, measured, since=-10**6, budget=10**9)
        if server.at(arrival).flagged(side):  # it arrived after the deadline: the flag stands
            assert result.ignored is IgnoredReason.FLAGGED and result.state is server
            assert result.reconciled.before_flag  # and the arbiter is told it came in time
            return
        assert result.accepted, result.ignored
        server = result.state
    assert ledger(server.at(arrival)) == ledger(reference.at(arrival))


commands = st.lists(st.tuples(st.sampled_from(["pause", "adjust", "correct"]),
                              st.integers(1, 8_000), st.integers(0, 20_000), st.booleans()),
                    min_size=1, max_size=3)


@settings(deadline=None, max_examples=300)
@given(gaps=st.lists(st.integers(1, 9_000), min_size=1, max_size=6), orders=commands,
       outage=st.integers(0, 5_000), back=st.integers(1, 60_000))
def test_presses_queued_across_the_arbiters_commands_count_as_if_they_had_arrived_at_once(
        gaps, orders, outage, back):
    """The device goes offline at ``outage`` and presses at its times; meanwhile the arbiter
    gives commands; the Wi-Fi returns ``back`` ms after the last of both. The presses made
    before the first command count as if they had arrived at once, the commands after them;
    the presses made after it are refused. Budget enough; the silence covers the outage."""
    tc = TimeControl(600)
    presses = []
    t = outage
    for gap in gaps:
        t += gap
        presses.append(t)
    moments, t = [], outage
    for kind, gap, amount, flag in orders:
        t += gap
        moments.append((t, kind, amount, flag))
    first_command = moments[0][0]
    assume(all(p != first_command for p in presses))
    arrival = max(presses[-1], moments[-1][0]) + back

    def give(state, at, kind, amount, flag):
        if kind == "pause":
            return state.resume(at) if state.at(at).paused else state.pause(at)
        if kind == "adjust":
            return state.adjust(A if flag else B, "add", amount, at, reason="noise")
        return state.correct(state.at(at).turn.other, at, reason="wrong side")

    # the server: the commands as they came (after the start, the first of the recent ones)
    server = ClockState.new(tc).start(0)
    for at, kind, amount, flag in moments:
        server = give(server, at, kind, amount, flag)
    given_commands = server.recent_commands.commands[1:]
    # the reference: everything in the order it happened, each press on arrival at once, the
    # commands as the arbiter gave them
    events = sorted([(p, 0, None) for p in presses if p < first_command]
                    + [(c.at_ms, 1, c) for c in given_commands], key=lambda e: e[:2])
    reference = ClockState.new(tc).start(0)
    for at, is_command, command in events:
        if is_command:
            reference = reference.replayed((command,))
        else:
            seen = reference.at(at)
            reference = seen.press(seen.running, seen.press_number, at).state
    device = ClockState.new(tc).start(0)  # the device's own timeline: no commands seen
    for at in presses:
        seen = device.at(at)
        side, number = seen.running, seen.press_number
        measured = seen.snapshot(at)["turn_elapsed_ms"]
        device = seen.press(side, number, at).state
        # the server last heard the device at its pace a heartbeat before the outage began
        result = offline(server, side, number, arrival, measured, since=outage - HEARTBEAT_MS,
                         budget=10**9)
        if at < first_command:
            assert result.accepted, (at, result.ignored)
            assert result.reconciled.before_commands == len(moments)
        else:
            assert result.ignored is IgnoredReason.ARBITER and result.state is server
        server = result.state
        assert read_state(server.to_dict()) == server
    assert ledger(server.at(arrival)) == ledger(reference.at(arrival))
    assert server.epoch == reference.epoch


@settings(deadline=None, max_examples=300)
@given(base=st.integers(1, 30), budget=st.integers(0, 60_000),
       steps=st.lists(st.tuples(st.booleans(), st.integers(0, 15_000), st.integers(0, 30_000),
                                st.integers(0, 20_000)),
                      min_size=1, max_size=12))
def test_whatever_the_device_claims_a_reconciled_timeline_stays_within_bounds(base, budget,
                                                                                steps):
    tc = TimeControl(base)  # no increment, no delay: used time is running time
    state, now, log = ClockState.new(tc).start(0), 0, []
    for wrong_side, wait, measured, silence in steps:
        now += wait
        heard = Silence(max(0, now - silence), now)
        seen = state.at(now)
        side = seen.turn or A  # when both are flagged: a late press of A's, which must fail
        side = side.other if wrong_side else side
        log.append((side, seen.press_number, now, measured, heard))
        result = state.press(side, seen.press_number, now, measured_ms=measured, epoch=1,
                             budget_ms=budget, silence=heard)
        if result.reconciled is not None and result.accepted:
            # never more than the silence the server observed beyond the heartbeat; a link
            # heard at the page's pace: the allowance
            assert result.reconciled.late_ms <= ALLOWANCE_MS + max(0, silence - HEARTBEAT_MS)
            if silence <= HEARTBEAT_MS:
                assert result.reconciled.late_ms <= ALLOWANCE_MS
        for flagged in (s for s in Side if seen.flagged(s)):  # a fallen flag stands
            assert result.state.at(now).side(flagged).flagged_at_ms == (
                seen.side(flagged).flagged_at_ms)
        if result.accepted:
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
        assert read_state(later.to_dict()) == later
    replayed = ClockState.new(tc).start(0)
    for side, number, at, measured, heard in log:
        replayed = replayed.press(side, number, at, measured_ms=measured, epoch=1,
                                  budget_ms=budget, silence=heard).state
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
