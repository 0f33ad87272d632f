"""Worked examples for the pure clock core (``clocks.core.clock``, ``clocks.core.timecontrol``).

Times are written as ``minutes * MIN + seconds * S`` so the arithmetic can be checked by eye.
"""

import doctest
import json
import re

import pytest

import clocks.core.clock
import clocks.core.hearing
import clocks.core.timecontrol
from clocks.core.clock import (
    MAX_ADJUST_MS,
    AdjustKind,
    AlreadyStartedError,
    ArbiterAction,
    ClockFinishedError,
    ClockState,
    Finish,
    FinishKind,
    IgnoredReason,
    InvalidAmountError,
    MissingArgumentError,
    NegativeTimeError,
    NothingToCorrectError,
    NotPausedError,
    NotRunningError,
    NotStartedError,
    Press,
    Side,
    SideFlaggedError,
    Status,
    UnknownChoiceError,
)
from clocks.core.timecontrol import DEFAULT_TIME_CONTROL, TimeControl, TimeControlError

S = 1000
MIN = 60 * S
T0 = 1_700_000_000_000  # a realistic epoch in ms: nothing may assume that time starts at 0
A, B = Side.A, Side.B


def started(tc: str = "600", at: int = T0) -> ClockState:
    return ClockState.new(tc).start(at)


def play(state: ClockState, *turns: int, at: int = T0) -> tuple[ClockState, int]:
    """Press after each duration in ``turns`` (alternating sides as the clock says)."""
    now = at
    for duration in turns:
        now += duration
        result = state.press(state.at(now).running, state.press_number, now)
        assert result.accepted, result.ignored
        state = result.state
    return state, now


# -- time control notation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("600", TimeControl(600)),
        ("600+5", TimeControl(600, increment_s=5)),
        ("600d10", TimeControl(600, delay_s=10)),
        ("1", TimeControl(1)),
        ("86400+0", TimeControl(86400)),
        (" 300d0 ", TimeControl(300)),
    ],
)
def test_time_control_parses_the_record_notation(text, value):
    assert TimeControl.parse(text) == value


@pytest.mark.parametrize("text", ["600", "600+5", "600d10", "5400+30"])
def test_time_control_prints_what_it_parses(text):
    assert str(TimeControl.parse(text)) == text


def test_default_time_control_is_ten_minutes_without_increment():
    assert TimeControl.parse("600") == DEFAULT_TIME_CONTROL
    assert (DEFAULT_TIME_CONTROL.base_ms, DEFAULT_TIME_CONTROL.increment_ms) == (600_000, 0)
    assert TimeControl.parse("600d10").delay_ms == 10_000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid time control ''"),
        ("10m", "invalid time control '10m'"),
        ("600+5d3", "invalid time control '600+5d3'"),
        ("-600", "invalid time control '-600'"),
        ("0600", "invalid time control '0600'"),
        ("600+", "invalid time control '600+'"),
        ("0", "invalid time control '0': base_s must be at least 1 second"),
        ("100000", "invalid time control '100000': base_s must be between 0 and 86400 seconds"),
        ("600d90000", "invalid time control '600d90000': delay_s must be between 0 and 86400"),
    ],
)
def test_time_control_refuses_bad_notation_quoting_it(text, message):
    with pytest.raises(TimeControlError, match="^" + re.escape(message)):
        TimeControl.parse(text)


def test_time_control_refuses_impossible_values():
    with pytest.raises(TimeControlError, match="not both"):
        TimeControl(600, increment_s=5, delay_s=5)
    with pytest.raises(TimeControlError, match=r"whole number of seconds, got 1\.5"):
        TimeControl(600, increment_s=1.5)
    with pytest.raises(TimeControlError, match="got 600"):
        TimeControl.parse(600)


# -- start, snapshot -----------------------------------------------------------------------------


def test_a_new_clock_shows_full_time_and_nothing_running():
    clock = ClockState.new()
    assert clock.status is Status.NOT_STARTED
    assert clock.next_deadline_ms() is None
    assert clock.snapshot(T0) == {
        "version": 0,
        "server_time_ms": T0,
        "status": "not_started",
        "started_at_ms": None,
        "running": None,
        "turn": None,
        "paused": False,
        "press_number": 0,
        "epoch": 0,
        "turn_elapsed_ms": 0,
        "compensated_ms": 0,
        "credited_ms": {"A": 0, "B": 0},
        "remaining_ms": {"A": 600_000, "B": 600_000},
        "delay_left_ms": 0,
        "deadline_ms": None,
        "flags": {"A": None, "B": None},
        "finished": None,
        "time_control": "600",
    }


def test_start_runs_a_first_and_only_once():
    clock = started()
    assert (clock.status, clock.running, clock.version) == (Status.RUNNING_A, A, 1)
    assert clock.remaining_ms(A, T0 + 61 * S) == 9 * MIN - 1 * S
    assert clock.remaining_ms(B, T0 + 61 * S) == 10 * MIN
    assert clock.next_deadline_ms() == T0 + 10 * MIN
    with pytest.raises(AlreadyStartedError, match=f"started at {T0} ms already"):
        clock.start(T0 + S)


def test_snapshot_while_running_is_json_and_interpolatable():
    clock, now = play(started("600d10"), 25 * S)
    snap = clock.snapshot(now + 4 * S)
    assert json.loads(json.dumps(snap)) == snap
    assert snap["running"] == snap["turn"] == "B"
    assert snap["remaining_ms"] == {"A": 10 * MIN - 15 * S, "B": 10 * MIN}
    assert snap["delay_left_ms"] == 6 * S
    assert snap["deadline_ms"] == now + 10 * S + 10 * MIN
    assert (snap["version"], snap["press_number"], snap["server_time_ms"]) == (2, 1, now + 4 * S)


# -- presses -------------------------------------------------------------------------------------


def test_a_press_completes_a_turn_and_records_it():
    result = started().press(A, 0, T0 + 12 * S)
    assert result.accepted
    assert result.press == Press(1, A, T0 + 12 * S, 10 * MIN - 12 * S)
    clock = result.state
    assert (clock.running, clock.press_number, clock.version) == (B, 1, 2)
    assert clock.presses == (result.press,)
    assert clock.remaining_ms(A, T0 + 50 * S) == 10 * MIN - 12 * S
    assert clock.remaining_ms(B, T0 + 50 * S) == 10 * MIN - 38 * S


def test_press_records_carry_the_clock_times_of_every_turn():
    clock, _ = play(started("600+5"), 10 * S, 20 * S, 30 * S)
    assert [(p.number, p.side, p.remaining_ms) for p in clock.presses] == [
        (1, A, 10 * MIN - 10 * S + 5 * S),
        (2, B, 10 * MIN - 20 * S + 5 * S),
        (3, A, 10 * MIN - 40 * S + 10 * S),
    ]
    assert [p.at_ms - T0 for p in clock.presses] == [10 * S, 30 * S, 60 * S]


@pytest.mark.parametrize(
    ("side", "number", "reason"),
    [
        (A, 0, IgnoredReason.STALE),  # A's duplicate of the press just accepted
        (B, 0, IgnoredReason.STALE),  # B pressing for a turn that is gone
        (B, 2, IgnoredReason.AHEAD),
        (A, 1, IgnoredReason.NOT_YOUR_TURN),
    ],
)
def test_stale_duplicate_and_out_of_turn_presses_change_nothing(side, number, reason):
    clock = started().press(A, 0, T0 + 5 * S).state
    result = clock.press(side, number, T0 + 6 * S)
    assert (result.accepted, result.ignored, result.press) == (False, reason, None)
    assert result.state is clock


def test_a_press_ahead_of_the_server_is_ignored_even_from_the_side_to_move():
    """A client claiming a press number the server has not reached (a confused or forged
    client) must not complete the turn, although the side, the turn and the time all fit."""
    clock = started()
    for number in (1, 2, 10**6):
        result = clock.press(A, number, T0 + 5 * S)
        assert (result.ignored, result.press, result.state) == (IgnoredReason.AHEAD, None, clock)
        assert result.state is clock
    assert clock.press(A, 0, T0 + 5 * S).accepted  # the right number still works


def test_presses_before_start_while_paused_and_after_finish_are_ignored():
    assert ClockState.new().press(A, 0, T0).ignored is IgnoredReason.NOT_STARTED
    assert started().pause(T0 + S).press(A, 0, T0 + 2 * S).ignored is IgnoredReason.PAUSED
    done = started().finish("completed", T0 + S)
    assert done.press(A, 0, T0 + 2 * S).ignored is IgnoredReason.FINISHED


def test_press_checks_its_arguments():
    with pytest.raises(TypeError, match="press_number must be an int, got '0'"):
        started().press(A, "0", T0)
    with pytest.raises(TypeError, match="now_ms must be an int"):
        started().press(A, 0, T0 + 0.5)
    with pytest.raises(ValueError, match="'C' is not a valid Side"):
        started().press("C", 0, T0)


# -- flags ---------------------------------------------------------------------------------------


def test_a_flag_falls_exactly_at_the_deadline_whoever_looks_whenever():
    clock, now = play(started(), 20 * S, 30 * S)  # A: 9:40 left, runs from T0 + 50 s
    deadline = now + 9 * MIN + 40 * S
    assert clock.next_deadline_ms() == deadline
    assert clock.at(deadline - 1).status is Status.RUNNING_A
    late, later = clock.at(deadline), clock.at(deadline + 3 * MIN)
    assert late == later  # the flag time is the deadline, not the moment of asking
    assert (late.status, late.running, late.version) == (Status.A_FLAGGED, B, clock.version + 1)
    assert late.a.flagged_at_ms == deadline
    assert late.remaining_ms(A, deadline + 3 * MIN) == 0
    # B's clock started at A's deadline, not when somebody noticed
    assert late.remaining_ms(B, deadline + 3 * MIN) == 10 * MIN - 30 * S - 3 * MIN
    assert late.snapshot(deadline + S)["flags"] == {"A": deadline, "B": None}


def test_a_press_at_the_deadline_is_too_late():
    clock = started()
    result = clock.press(A, 0, T0 + 10 * MIN)
    assert result.ignored is IgnoredReason.FLAGGED
    assert result.state is clock
    assert clock.press(A, 0, T0 + 10 * MIN - 1).accepted


def test_the_side_left_alone_keeps_running_and_completes_turns():
    clock = started("60+2").press(A, 0, T0 + 20 * S).state  # A: 42 s, B runs from T0 + 20 s
    flagged = clock.at(T0 + 80 * S)  # B's 60 s ran out
    assert (flagged.status, flagged.running) == (Status.B_FLAGGED, A)
    assert flagged.b.flagged_at_ms == T0 + 80 * S
    result = flagged.press(A, 1, T0 + 90 * S)  # A's turn started at B's flag
    assert result.press == Press(2, A, T0 + 90 * S, 42 * S - 10 * S + 2 * S)
    alone = result.state
    assert (alone.running, alone.press_number, alone.status) == (A, 2, Status.B_FLAGGED)
    assert alone.press(B, 2, T0 + 91 * S).ignored is IgnoredReason.FLAGGED
    assert alone.next_deadline_ms() == T0 + 90 * S + 34 * S


def test_both_flagged_stops_everything():
    clock = started("60").at(T0 + 2 * MIN)
    assert clock.status is Status.BOTH_FLAGGED
    assert (clock.a.flagged_at_ms, clock.b.flagged_at_ms) == (T0 + MIN, T0 + 2 * MIN)
    assert (clock.running, clock.next_deadline_ms(), clock.version) == (None, None, 3)
    assert clock.remaining_ms(A, T0 + 5 * MIN) == clock.remaining_ms(B, T0 + 5 * MIN) == 0
    with pytest.raises(NotRunningError, match=r"no clock is running \(both_flagged\)"):
        clock.pause(T0 + 3 * MIN)


# -- increment and delay -------------------------------------------------------------------------


def test_bronstein_delay_makes_short_turns_free():
    clock, _ = play(started("600d10"), 7 * S, 10 * S, 25 * S)
    assert [p.remaining_ms for p in clock.presses] == [10 * MIN, 10 * MIN, 10 * MIN - 15 * S]


def test_bronstein_delay_shows_main_time_frozen_then_running_and_moves_the_deadline():
    clock = started("60d10")
    assert clock.next_deadline_ms() == T0 + 10 * S + MIN
    snap = clock.snapshot(T0 + 4 * S)
    assert (snap["remaining_ms"]["A"], snap["delay_left_ms"]) == (MIN, 6 * S)
    snap = clock.snapshot(T0 + 14 * S)
    assert (snap["remaining_ms"]["A"], snap["delay_left_ms"]) == (MIN - 4 * S, 0)
    assert clock.at(T0 + 70 * S).a.flagged_at_ms == T0 + 70 * S
    assert clock.at(T0 + 70 * S - 1).status is Status.RUNNING_A


def test_a_pause_does_not_renew_the_delay():
    clock = started("600d10").pause(T0 + 6 * S).resume(T0 + 5 * MIN)
    assert clock.remaining_ms(A, T0 + 5 * MIN + 3 * S) == 10 * MIN
    result = clock.press(A, 0, T0 + 5 * MIN + 6 * S)  # 12 s of turn: 2 s over the delay
    assert result.press.remaining_ms == 10 * MIN - 2 * S


def test_fischer_increment_after_every_completed_turn_but_not_at_start():
    clock = started("600+5")
    assert clock.remaining_ms(A, T0) == 10 * MIN
    clock, _ = play(clock, 1 * S, 1 * S)
    assert clock.a.increments_ms == clock.b.increments_ms == 5 * S
    assert [p.remaining_ms for p in clock.presses] == [10 * MIN + 4 * S] * 2


# -- pause and resume ----------------------------------------------------------------------------


def test_pause_freezes_the_side_to_move_and_resume_continues_its_turn():
    clock = started().press(A, 0, T0 + 10 * S).state.pause(T0 + 30 * S)
    assert (clock.status, clock.running, clock.turn, clock.paused) == (Status.PAUSED, None, B, True)
    assert clock.next_deadline_ms() is None
    assert clock.remaining_ms(B, T0 + 40 * MIN) == 10 * MIN - 20 * S
    clock = clock.resume(T0 + 40 * MIN)
    assert clock.remaining_ms(B, T0 + 40 * MIN + 5 * S) == 10 * MIN - 25 * S
    assert clock.next_deadline_ms() == T0 + 40 * MIN + 10 * MIN - 20 * S


def test_pause_during_a_flag_remembers_the_side_playing_alone():
    clock = started("60").at(T0 + 70 * S).pause(T0 + 70 * S)
    assert (clock.status, clock.turn) == (Status.PAUSED, B)
    resumed = clock.resume(T0 + 5 * MIN)
    assert resumed.status is Status.A_FLAGGED
    assert resumed.next_deadline_ms() == T0 + 5 * MIN + 50 * S


def test_pause_and_resume_refuse_the_wrong_moment():
    with pytest.raises(NotRunningError, match=r"not_started"):
        ClockState.new().pause(T0)
    with pytest.raises(NotRunningError, match=r"\(paused\)"):
        started().pause(T0 + S).pause(T0 + 2 * S)
    with pytest.raises(NotPausedError, match=r"not paused \(running_a\)"):
        started().resume(T0 + S)


# -- arbiter: adjust, correct --------------------------------------------------------------------


def test_adjust_adds_subtracts_and_sets_with_a_reason_kept_in_the_log():
    clock = started().press(A, 0, T0 + 30 * S).state  # A 9:30, B runs
    clock = clock.adjust(A, "add", 2 * MIN, T0 + 40 * S, reason="opponent's phone rang")
    clock = clock.adjust(B, AdjustKind.SUBTRACT, MIN, T0 + 50 * S, reason=" illegal move ")
    clock = clock.adjust(A, "set", 5 * MIN, T0 + 60 * S, reason="clock malfunction")
    assert clock.remaining_ms(A, T0 + 60 * S) == 5 * MIN
    assert clock.remaining_ms(B, T0 + 60 * S) == 10 * MIN - 30 * S - MIN
    assert clock.log == (
        ArbiterAction("add", T0 + 40 * S, A, 2 * MIN, B, "opponent's phone rang"),
        ArbiterAction("subtract", T0 + 50 * S, B, -MIN, B, "illegal move"),
        ArbiterAction("set", T0 + 60 * S, A, 5 * MIN - 11 * MIN - 30 * S, B, "clock malfunction"),
    )
    assert (clock.a.adjustments_ms, clock.b.adjustments_ms) == (-4 * MIN - 30 * S, -MIN)
    assert clock.version == 5


def test_adjust_refuses_negative_time_bad_amounts_and_missing_reasons():
    clock = started()
    with pytest.raises(NegativeTimeError, match="cannot subtract 600001 ms: A has 600000 ms left"):
        clock.adjust(A, "subtract", 600_001, T0, reason="penalty")
    with pytest.raises(InvalidAmountError, match="got -5"):
        clock.adjust(A, "set", -5, T0, reason="penalty")
    with pytest.raises(InvalidAmountError, match=r"got 1\.5"):
        clock.adjust(A, "add", 1.5, T0, reason="penalty")
    with pytest.raises(MissingArgumentError, match="an adjustment needs a reason, got '  '"):
        clock.adjust(A, "add", 5, T0, reason="  ")
    with pytest.raises(UnknownChoiceError, match=r"unknown adjustment kind 'double' \(one of add"):
        clock.adjust(A, "double", 5, T0, reason="penalty")
    # issue #21: past one day (10**300 was accepted, and every later press crashed)
    with pytest.raises(InvalidAmountError, match="from 0 to 86400000, got 86400001"):
        clock.adjust(A, "add", MAX_ADJUST_MS + 1, T0, reason="penalty")
    with pytest.raises(InvalidAmountError, match="got a number of 997 bits"):
        clock.adjust(A, "add", 10**300, T0, reason="penalty")
    assert clock.adjust(A, "set", MAX_ADJUST_MS, T0, reason="one day").remaining_ms(A, T0) == (
        MAX_ADJUST_MS)
    with pytest.raises(UnknownChoiceError, match="unknown side 'C'"):
        clock.adjust("C", "add", 5, T0, reason="penalty")
    with pytest.raises(UnknownChoiceError, match="unknown finish kind 'exploded'"):
        clock.finish("exploded", T0, reason="penalty")
    with pytest.raises(UnknownChoiceError, match=r"unknown side \['A'\]"):
        clock.correct(["A"], T0, reason="penalty")


def test_setting_the_running_side_to_zero_flags_it_at_once():
    clock = started().adjust(A, "set", 0, T0 + 5 * S, reason="time forfeited")
    assert (clock.status, clock.a.flagged_at_ms, clock.running) == (
        Status.A_FLAGGED,
        T0 + 5 * S,
        B,
    )
    assert clock.version == 3  # start, adjust, flag


def test_unflagging_needs_the_side_to_move_and_gets_it():
    flagged = started("60").at(T0 + 70 * S)  # A flagged at 60 s, B running for 10 s
    with pytest.raises(MissingArgumentError, match="un-flagging A needs the side to move"):
        flagged.adjust(A, "add", MIN, T0 + 70 * S, reason="clock was set wrong")
    keep_b = flagged.adjust(A, "add", MIN, T0 + 70 * S, reason="clock set wrong", turn=B)
    assert (keep_b.status, keep_b.running, keep_b.a.flagged_at_ms) == (Status.RUNNING_B, B, None)
    assert keep_b.remaining_ms(B, T0 + 80 * S) == 40 * S  # B's turn goes on
    give_a = flagged.adjust(A, "add", MIN, T0 + 70 * S, reason="clock set wrong", turn=A)
    assert (give_a.status, give_a.running) == (Status.RUNNING_A, A)
    assert give_a.remaining_ms(A, T0 + 80 * S) == 50 * S
    assert give_a.remaining_ms(B, T0 + 80 * S) == 50 * S  # B's interrupted turn was charged
    assert give_a.log[-1].turn is A


def test_adding_nothing_keeps_the_flag_and_a_flagged_side_cannot_get_the_turn():
    both = started("60").at(T0 + 3 * MIN)
    same = both.adjust(A, "add", 0, T0 + 3 * MIN, reason="checked")
    assert (same.status, same.a.flagged_at_ms) == (Status.BOTH_FLAGGED, T0 + MIN)
    with pytest.raises(SideFlaggedError, match="B is flagged"):
        both.adjust(A, "add", S, T0 + 3 * MIN, reason="wrong flag", turn=B)
    revived = both.adjust(A, "add", S, T0 + 3 * MIN, reason="wrong flag", turn=A)
    assert revived.status is Status.B_FLAGGED
    assert revived.at(T0 + 3 * MIN + S).status is Status.BOTH_FLAGGED


def test_correct_gives_the_turn_back_without_rewinding_counters():
    clock = started().press(A, 0, T0 + 10 * S).state  # A pressed too early
    fixed = clock.correct(A, T0 + 15 * S, reason="A pressed before placing a tile")
    assert (fixed.running, fixed.press_number, fixed.version) == (A, 1, 3)
    assert fixed.remaining_ms(B, T0 + 20 * S) == 10 * MIN - 5 * S
    assert fixed.remaining_ms(A, T0 + 20 * S) == 10 * MIN - 15 * S
    assert fixed.log[-1] == ArbiterAction(
        "correct", T0 + 15 * S, None, 0, A, "A pressed before placing a tile"
    )
    assert fixed.press(A, 0, T0 + 21 * S).ignored is IgnoredReason.STALE
    assert fixed.press(A, 1, T0 + 21 * S).accepted


def test_correct_refuses_nonsense():
    with pytest.raises(NotStartedError, match="has not started"):
        ClockState.new().correct(A, T0, reason="x")
    with pytest.raises(NothingToCorrectError, match="A already has the turn"):
        started().correct(A, T0, reason="x")
    with pytest.raises(MissingArgumentError, match="a correction needs a reason"):
        started().correct(B, T0, reason="")
    with pytest.raises(SideFlaggedError, match="A is flagged"):
        started("60").at(T0 + 70 * S).pause(T0 + 70 * S).correct(A, T0 + 71 * S, reason="x")


def test_correct_while_paused_changes_who_resumes():
    clock = started().pause(T0 + 20 * S).correct(B, T0 + 30 * S, reason="wrong press")
    assert (clock.status, clock.turn) == (Status.PAUSED, B)
    assert clock.remaining_ms(A, T0 + MIN) == 10 * MIN - 20 * S
    assert clock.resume(T0 + MIN).next_deadline_ms() == T0 + MIN + 10 * MIN


# -- finish --------------------------------------------------------------------------------------


def test_finish_charges_the_running_turn_and_freezes_the_clock():
    clock = started("600+5").press(A, 0, T0 + 10 * S).state
    done = clock.finish("resigned", T0 + 30 * S, side=B, reason="lost position")
    assert done.finished == Finish(FinishKind.RESIGNED, T0 + 30 * S, B, "lost position")
    assert (done.status, done.running, done.turn) == (Status.FINISHED, None, None)
    assert done.remaining_ms(B, T0 + 60 * MIN) == 10 * MIN - 20 * S
    assert done.snapshot(T0 + 60 * MIN)["finished"] == {
        "kind": "resigned",
        "at_ms": T0 + 30 * S,
        "side": "B",
        "reason": "lost position",
    }
    for command in (
        lambda: done.start(T0 + MIN),
        lambda: done.pause(T0 + MIN),
        lambda: done.resume(T0 + MIN),
        lambda: done.adjust(A, "add", 1, T0 + MIN, reason="x"),
        lambda: done.correct(A, T0 + MIN, reason="x"),
        lambda: done.finish("completed", T0 + MIN),
    ):
        with pytest.raises(ClockFinishedError, match=f"finished at {T0 + 30 * S} ms .resigned."):
            command()


def test_finish_needs_a_resigning_side_and_an_arbiters_reason():
    with pytest.raises(MissingArgumentError, match="the side that resigned"):
        started().finish("resigned", T0)
    with pytest.raises(MissingArgumentError, match="an arbiter's decision needs a reason"):
        started().finish(FinishKind.ARBITER, T0)
    forfeit = ClockState.new().finish("arbiter", T0, side=B, reason="B absent")
    assert (forfeit.status, forfeit.started_at_ms) == (Status.FINISHED, None)


def test_finish_after_a_flag_keeps_the_flag():
    done = started("60").finish("completed", T0 + 90 * S)
    assert (done.a.flagged_at_ms, done.remaining_ms(B, T0 + 90 * S)) == (T0 + MIN, 30 * S)
    assert done.version == 3


# -- time, persistence, documentation ------------------------------------------------------------


def test_time_never_runs_backwards_inside_a_clock():
    clock = started().press(A, 0, T0 + 10 * S).state
    assert clock.remaining_ms(B, T0) == 10 * MIN  # asked "before" the last change
    result = clock.press(B, 1, T0 + 5 * S)  # a process whose clock lags by 5 s
    assert result.press.at_ms == T0 + 10 * S
    assert result.press.remaining_ms == 10 * MIN


def test_to_dict_round_trips_through_json():
    clock = started("60d3").press(A, 0, T0 + 10 * S).state
    clock = clock.adjust(B, "add", 7, T0 + 11 * S, reason="spilled coffee").pause(T0 + 12 * S)
    clock = clock.resume(T0 + 20 * S).at(T0 + 5 * MIN).finish("resigned", T0 + 6 * MIN, side=A)
    saved = json.loads(json.dumps(clock.to_dict()))
    assert ClockState.from_dict(saved) == clock
    assert ClockState.from_dict(ClockState.new().to_dict()) == ClockState.new()


@pytest.mark.parametrize("module", [clocks.core.clock, clocks.core.timecontrol,
                                    clocks.core.hearing])
def test_documented_examples_run(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
