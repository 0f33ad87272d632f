"""The decision of a self-running event (``autopilot.core``), worked examples and properties."""

from hypothesis import given
from hypothesis import strategies as st

from autopilot.core import (
    MINUTE_MS,
    Kind,
    Plan,
    RoundState,
    Schedule,
    next_step,
    round_start_ms,
    withdrawn_for_misses,
)

T = 1_700_000_000_000
PLAN = Plan(first_round_ms=T, schedule=Schedule.AFTER, minutes=5, rounds=7)


def test_runs_itself_waits_for_round_one_then_pairs_it():
    assert next_step(PLAN, None, T - 1).kind is Kind.WAIT
    assert next_step(PLAN, None, T - 1).at_ms == T
    assert next_step(PLAN, None, T) == next_step(PLAN, None, T + 10**6)
    assert next_step(PLAN, None, T).kind is Kind.PAIR and next_step(PLAN, None, T).round == 1


def test_runs_itself_takes_a_round_from_draft_to_running_clocks():
    draft = RoundState(1, "drafted")
    assert next_step(PLAN, draft, T).kind is Kind.PUBLISH
    assert next_step(PLAN, RoundState(1, "published"), T).kind is Kind.DEAL
    assert next_step(PLAN, RoundState(1, "published", dealt=True), T).kind is Kind.START
    playing = RoundState(1, "published", dealt=True, started=True, unfinished=3)
    assert next_step(PLAN, playing, T) == next_step(PLAN, playing, T + 10**9)
    assert next_step(PLAN, playing, T).kind is Kind.WAIT


def test_runs_itself_forfeits_no_shows_when_their_time_comes():
    waiting = RoundState(2, "published", dealt=True, started=True, unfinished=2,
                         no_show_at_ms=T + 5 * MINUTE_MS)
    step = next_step(PLAN, waiting, T)
    assert step.kind is Kind.WAIT and step.at_ms == T + 5 * MINUTE_MS
    assert next_step(PLAN, waiting, T + 5 * MINUTE_MS).kind is Kind.FORFEIT


def test_runs_itself_closes_a_finished_round_unless_disputed():
    done = RoundState(3, "published", dealt=True, started=True)
    assert next_step(PLAN, done, T).kind is Kind.CLOSE
    disputed = RoundState(3, "published", dealt=True, started=True, disputes=1)
    assert next_step(PLAN, disputed, T).kind is Kind.BLOCKED


def test_runs_itself_pairs_the_next_round_minutes_after_the_last_game():
    closed = RoundState(3, "closed", ended_ms=T + 40 * MINUTE_MS)
    assert next_step(PLAN, closed, T + 44 * MINUTE_MS).at_ms == T + 45 * MINUTE_MS
    step = next_step(PLAN, closed, T + 45 * MINUTE_MS)
    assert (step.kind, step.round) == (Kind.PAIR, 4)
    assert next_step(PLAN, RoundState(7, "closed", ended_ms=T), T).kind is Kind.FINISH
    assert next_step(PLAN, RoundState(7, "closed", ended_ms=T), T, finished=True).kind \
        is Kind.WAIT


def test_runs_itself_on_fixed_times_never_before_the_round_before_ended():
    fixed = Plan(first_round_ms=T, schedule=Schedule.FIXED, minutes=30, rounds=7)
    assert round_start_ms(fixed, 3, T + 10 * MINUTE_MS) == T + 60 * MINUTE_MS
    assert round_start_ms(fixed, 3, T + 70 * MINUTE_MS) == T + 70 * MINUTE_MS


def test_runs_itself_withdraws_at_the_limit_of_missed_games():
    missed = {1: 2, 2: 1, 3: 3, 4: 2}
    assert withdrawn_for_misses(missed, 2) == [1, 3, 4]
    assert withdrawn_for_misses(missed, 2, frozenset({3})) == [1, 4]
    assert withdrawn_for_misses(missed, 0) == []


states = st.builds(
    RoundState, number=st.integers(1, 9),
    status=st.sampled_from(["drafted", "published", "closed"]), dealt=st.booleans(),
    started=st.booleans(), unfinished=st.integers(0, 5), disputes=st.integers(0, 2),
    no_show_at_ms=st.none() | st.integers(T - 10**7, T + 10**7),
    ended_ms=st.integers(T - 10**7, T + 10**7))
plans = st.builds(Plan, first_round_ms=st.integers(T - 10**7, T + 10**7),
                  schedule=st.sampled_from(list(Schedule)), minutes=st.integers(0, 120),
                  rounds=st.integers(1, 9))


@given(plans, st.none() | states, st.integers(T - 10**7, T + 10**7))
def test_runs_itself_never_skips_a_round_nor_acts_on_a_future_one(plan, latest, now):
    step = next_step(plan, latest, now)
    if latest is None:
        assert step.kind in (Kind.WAIT, Kind.PAIR) and (step.round in (None, 1))
        return
    if step.kind is Kind.PAIR:
        # only after the latest round is closed, the next number, never beyond the plan
        assert latest.status == "closed" and step.round == latest.number + 1 <= plan.rounds
        assert now >= round_start_ms(plan, step.round, latest.ended_ms)
    elif step.kind is not Kind.WAIT:
        assert step.round == latest.number
    if step.kind is Kind.WAIT and step.at_ms is not None:
        assert step.at_ms > now  # a wait always ends in the future: the runner never spins


@given(plans, states, st.integers(T - 10**7, T + 10**7))
def test_runs_itself_decides_the_same_way_twice(plan, latest, now):
    """A restarted server asks again and gets the same step (the decision keeps no memory)."""
    assert next_step(plan, latest, now) == next_step(plan, latest, now)


def test_runs_itself_never_publishes_a_draft_paired_by_hand():
    step = next_step(PLAN, RoundState(2, "drafted", by_hand=True), T)
    assert (step.kind, step.round, step.why) == (Kind.BLOCKED, 2, "draft")
