"""Swiss pairing: worked examples, and FIDE's absolute criteria over random events."""

from __future__ import annotations

import random
from dataclasses import replace

import hypothesis
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pairing_scenarios import run_event, start_event

from tournament.bridges.pairing_simulation import new_event, play_round
from tournament.pairing import (
    Board,
    EngineError,
    Event,
    InvalidEvent,
    NoLegalPairing,
    Player,
    Result,
    RoundPairing,
    RoundRecord,
    Settings,
    Status,
    pair_swiss,
)

# --- independent statements of the rules, used as oracles -----------------------------------


def blocked(event: Event, a: int, b: int) -> bool:
    """C.1 and forbidden pairs, computed from the histories (not via Event.met)."""
    counted = {Result.WIN, Result.DRAW, Result.LOSS}
    if event.settings.forfeit_is_meeting:
        counted |= {Result.FORFEIT_WIN, Result.FORFEIT_LOSS}
    met = {r.opponent for r in event.player(a).history if r.result in counted}
    return b in met or (min(a, b), max(a, b)) in event.forbidden


def may_get_bye(event: Event, number: int) -> bool:
    """C.2: no second pairing-allocated bye; none after a forfeit win (2017), after any
    round not played that scored a win's points (2025)."""
    results = {r.result for r in event.player(number).history}
    if event.settings.edition == "2017":
        return not results & {Result.PAIRING_BYE, Result.FORFEIT_WIN}
    win = event.settings.tenths(Result.WIN)
    return Result.PAIRING_BYE not in results and not any(
        not r.played and event.settings.tenths(r) >= win for r in results)


def moves(event: Event, number: int) -> list[bool]:
    return [bool(r.first) for r in event.player(number).history if r.result.played]


def absolute_preference(event: Event, number: int) -> bool | None:
    """A.6.a: True = must move first, False = must move second, None = no absolute preference."""
    seq = moves(event, number)
    diff = sum(1 if m else -1 for m in seq)
    if diff < -1 or seq[-2:] == [False, False]:
        return True
    if diff > 1 or seq[-2:] == [True, True]:
        return False
    return None


def top_scorer(event: Event, number: int) -> bool:
    """A.7: over half the maximum score, only when pairing the last round."""
    if event.rounds_played != event.settings.rounds - 1:
        return False
    best = max(event.settings.tenths(result) for result in Result)
    return event.tenths(number) * 2 > best * event.rounds_played


def may_meet(event: Event, a: int, b: int) -> bool:
    if blocked(event, a, b):
        return False
    pa, pb = absolute_preference(event, a), absolute_preference(event, b)
    same = pa is not None and pa == pb
    return not same or top_scorer(event, a) or top_scorer(event, b)


def legal_pairing_exists(event: Event) -> bool:
    """Brute force over all matchings (small fields only) under C.1-C.3."""
    playing = tuple(p.number for p in event.players if p.status is Status.PLAYING)

    def solve(left: tuple[int, ...], bye_free: bool) -> bool:
        if not left:
            return True
        head, rest = left[0], left[1:]
        if bye_free and may_get_bye(event, head) and solve(rest, False):
            return True
        return any(
            may_meet(event, head, other) and solve(tuple(x for x in rest if x != other), bye_free)
            for other in rest
        )

    return solve(playing, len(playing) % 2 == 1)


def check_round(event: Event, pairing: RoundPairing) -> None:
    """Every property a Swiss round must have."""
    playing = sorted(p.number for p in event.players if p.status is Status.PLAYING)
    assert sorted(pairing.players) == playing  # everyone available exactly once, nobody else
    assert pairing.round == event.rounds_played + 1
    assert (pairing.bye is not None) == (len(playing) % 2 == 1)
    if pairing.bye is not None:
        assert may_get_bye(event, pairing.bye)
    for board in pairing.boards:
        a, b = board.first, board.second
        assert not blocked(event, a, b), f"rematch {a}-{b}"
        exempt = top_scorer(event, a) or top_scorer(event, b)
        for number, first in ((a, True), (b, False)):
            seq = [*moves(event, number), first]
            if not exempt:
                assert abs(sum(1 if m else -1 for m in seq)) <= 2, (number, seq)
                assert len(set(seq[-3:])) == 2 or len(seq) < 3, (number, seq)

    def key(board: Board) -> tuple[int, int, int]:
        scores = {n: event.tenths(n) for n in (board.first, board.second)}
        high = max(scores, key=lambda n: (scores[n], -n))
        return scores[high], sum(scores.values()), -high

    keys = [key(board) for board in pairing.boards]
    assert keys == sorted(keys, reverse=True), "boards not in Dutch publishing order"


# --- property tests --------------------------------------------------------------------------


@st.composite
def scenarios(draw):
    big = draw(st.integers(0, 9)) == 9
    players = draw(st.integers(41, 120) if big else st.integers(12, 40))
    return players, draw(st.integers(7, 9)), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
@example((120, 9, 2025))  # the largest field always runs once
def test_random_events_satisfy_the_absolute_criteria_every_round(scenario):
    players, rounds, seed = scenario
    rng = random.Random(seed)
    paired = 0
    for event, outcome in run_event(start_event(players, rounds, rng), rng):
        if isinstance(outcome, NoLegalPairing):
            assert "pair it by hand" in str(outcome)
            break
        check_round(event, outcome)
        paired += 1
    assert paired >= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.integers(0, 2**32 - 1))
def test_small_fields_are_refused_exactly_when_no_legal_pairing_exists(players, seed):
    """Swiss over more rounds than the field allows: refusals are checked by brute force."""
    rng = random.Random(seed)
    event = start_event(players, players + 1, rng, late=False)
    refused = False
    for before, outcome in run_event(event, rng, absent=0.05, withdraw=0.0, forfeit=0.05):
        if isinstance(outcome, NoLegalPairing):
            assert not legal_pairing_exists(before)
            refused = True
        else:
            check_round(before, outcome)
            assert legal_pairing_exists(before)
    hypothesis.event("refused" if refused else "all rounds paired")


# --- worked examples -------------------------------------------------------------------------


def fresh(players: int, rounds: int = 7, **kwargs: object) -> Event:
    return new_event(players, Settings(rounds, **kwargs))


def test_round_one_follows_the_top_half_bottom_half_rule_and_xxc():
    assert pair_swiss(fresh(5)).to_text() == "3\n1 3\n4 2\n5 0\n"
    assert pair_swiss(fresh(5, first_move="second")).to_text() == "3\n3 1\n2 4\n5 0\n"
    assert pair_swiss(fresh(8)).to_text() == "4\n1 5\n6 2\n3 7\n8 4\n"


def test_absent_and_withdrawn_players_are_left_out():
    event = fresh(6)
    players = list(event.players)
    players[1] = replace(players[1], status=Status.HALF_BYE)
    players[4] = replace(players[4], status=Status.WITHDRAWN)
    pairing = pair_swiss(replace(event, players=tuple(players)))
    # E.5: the higher player of a board gets the initial first move when their number is odd,
    # numbered among the players being paired (1, 3, 4, 6 are 1-4), as bbpPairings and JaVaFo
    # number them: 6 is the fourth, so it moves first against 3 (bbpPairings pairs the same).
    assert pairing.to_text() == "2\n1 4\n6 3\n"


def test_a_late_entry_is_paired_from_the_round_it_joins():
    late = Player(6, "Late", status=Status.ABSENT, joined_round=2)
    event = Event(Settings(7), (*fresh(5).players, late))
    first = pair_swiss(event)
    assert 6 not in first.players and first.bye == 5
    event = play_round(event, first, random.Random(3))
    assert event.player(6).history == (RoundRecord(Result.ZERO_BYE),)
    second = pair_swiss(event)
    assert sorted(second.players) == [1, 2, 3, 4, 5, 6] and second.bye is None


def two_player_event(result: Result, **kwargs: object) -> Event:
    other = {Result.WIN: Result.LOSS, Result.FORFEIT_WIN: Result.FORFEIT_LOSS}[result]
    return Event(
        Settings(3, **kwargs),
        (
            Player(1, "Ann", history=(RoundRecord(result, 2, True),)),
            Player(2, "Bob", history=(RoundRecord(other, 1, False),)),
        ),
    )


def test_a_forfeit_is_not_a_meeting_unless_the_event_says_so():
    again = pair_swiss(two_player_event(Result.FORFEIT_WIN))
    assert sorted(again.players) == [1, 2]
    with pytest.raises(NoLegalPairing, match="round 2 cannot be paired"):
        pair_swiss(two_player_event(Result.FORFEIT_WIN, forfeit_is_meeting=True))
    with pytest.raises(NoLegalPairing, match="pair it by hand"):
        pair_swiss(two_player_event(Result.WIN))


def test_four_players_run_out_of_pairings_and_nothing_is_half_paired():
    rng = random.Random(11)
    event = fresh(4, rounds=5)
    paired = 0
    with pytest.raises(NoLegalPairing, match=r"round \d cannot be paired"):
        while True:
            pairing = pair_swiss(event)
            check_round(event, pairing)
            paired += 1
            event = play_round(event, pairing, rng)
    assert 2 <= paired <= 3  # round 4 is impossible: everyone has met everyone


def test_everything_paired_or_nobody_to_pair_is_refused():
    event = fresh(2, rounds=1)
    event = play_round(event, pair_swiss(event), random.Random(1))
    with pytest.raises(InvalidEvent, match="all 1 rounds have already been paired"):
        pair_swiss(event)
    nobody = Event(Settings(3), (Player(1, "A", status=Status.ABSENT),))
    with pytest.raises(NoLegalPairing, match="no player is available"):
        pair_swiss(nobody)


class _ScriptedEngine:
    """A stand-in engine answering with fixed pairs: shows the output checks work."""

    name = "scripted"

    def __init__(self, pairs: list[tuple[int, int]]) -> None:
        self.pairs = pairs

    def pair(self, trf: str) -> list[tuple[int, int]]:
        assert trf.startswith("192 FIDE_DUTCH_2025\n001")
        return self.pairs


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([(1, 2)], r"missing: Player 3 \(3\) is neither paired"),
        ([(1, 2), (3, 0), (4, 0)], "more than one bye"),
        ([(1, 2), (2, 3)], r"twice: Player 2 \(2\) is paired 2 times"),
        ([(1, 2), (3, 7)], "unknown: no player has pairing number 7"),
    ],
)
def test_broken_engine_output_is_an_engine_error_never_a_round(pairs, message):
    with pytest.raises(EngineError, match=message):
        pair_swiss(fresh(3), _ScriptedEngine(pairs))


def test_an_engine_rematch_is_caught():
    event = play_round(fresh(4), pair_swiss(fresh(4)), random.Random(5))
    played = pair_swiss(fresh(4)).boards
    rematch = [(played[0].first, played[0].second), (played[1].first, played[1].second)]
    with pytest.raises(EngineError, match="rematch"):
        pair_swiss(event, _ScriptedEngine(rematch))


def test_the_package_docstring_example_runs():
    import doctest

    import tournament.pairing

    result = doctest.testmod(tournament.pairing)
    assert result.attempted >= 2 and result.failed == 0


def test_the_example_in_docs_pairing_md_runs():
    import doctest
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "pairing.md"
    result = doctest.testfile(str(docs), module_relative=False)
    assert result.attempted >= 2 and result.failed == 0
