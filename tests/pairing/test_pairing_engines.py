"""Engines by name, and the external-program adapter driven by a fake FIDE engine script."""

from __future__ import annotations

import random
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairing_scenarios import run_event, start_event
from py4swiss.engines.dutch.player import get_player_infos_from_trf

from tournament.bridges.pairing_simulation import new_event, play_round
from tournament.pairing import (
    EngineConfigError,
    EngineError,
    Event,
    NoLegalPairing,
    Player,
    Result,
    RoundRecord,
    Settings,
    TrfError,
    export_trf,
    get_engine,
    import_trf,
    pair_swiss,
)
from tournament.pairing.engines import DutchEngine, ExternalEngine

# A stand-in for bbpPairings/JaVaFo: same command line (--dutch IN -p OUT), same output file,
# exit status 1 for "no valid pairing". It pairs with our Dutch engine, run as a separate program.
FAKE_ENGINE = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    sys.path.insert(0, {root!r})
    from tournament.pairing.engines import DutchEngine
    from tournament.pairing.errors import NoLegalPairing

    flag, source, p, target = sys.argv[1:]
    assert flag == "--dutch" and p == "-p", sys.argv
    try:
        pairs = DutchEngine().pair(Path(source).read_text(encoding="utf-8"))
    except NoLegalPairing as exc:
        print(f"No valid pairing exists: {{exc}}", file=sys.stderr)
        sys.exit(1)
    lines = [str(len(pairs))] + [f"{{a}} {{b}}" for a, b in pairs]
    Path(target).write_text("\\n".join(lines) + "\\n", encoding="utf-8")
    """
).format(root=str(Path(__file__).resolve().parents[2]))


@pytest.fixture
def fake_engine(tmp_path: Path) -> list[str]:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    return [sys.executable, str(script)]


def script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "engine.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


def test_external_engine_gives_the_same_rounds_as_the_in_process_engine(fake_engine):
    rng = random.Random(8)
    external = get_engine("external", command=fake_engine)
    events = [e for e, _ in run_event(start_event(23, 7, rng), rng, absent=0.1, forfeit=0.1)]
    for event in events[:3] + events[-1:]:
        assert pair_swiss(event, external) == pair_swiss(event, "dutch")


def test_external_no_pairing_status_is_no_legal_pairing(fake_engine):
    event = new_event(2, Settings(3))
    event = play_round(event, pair_swiss(event), random.Random(1))
    with pytest.raises(NoLegalPairing, match=r"round 2 cannot be paired.*No valid pairing"):
        pair_swiss(event, get_engine("external", command=fake_engine))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("import sys; sys.exit(3)", "failed with status 3"),
        ("import sys; print('boom', file=sys.stderr); sys.exit(2)", "status 2: boom"),
        ("pass", "wrote no pairing file"),
        (
            "import sys; open(sys.argv[4], 'w').write('2\\n1 2\\n')",
            "unreadable pairing: line 1: first line says 2 pairs but 1 follow",
        ),
        ("import sys; open(sys.argv[4], 'w').write('1\\n1 2\\n')", "returned an invalid"),
    ],
)
def test_external_engine_failures_are_engine_errors(tmp_path, body, message):
    engine = ExternalEngine(script(tmp_path, body))
    with pytest.raises(EngineError, match=message):
        pair_swiss(new_event(4, Settings(5)), engine)


def test_external_engine_timeout_and_missing_program(tmp_path):
    slow = ExternalEngine(script(tmp_path, "import time; time.sleep(5)"), timeout=0.5)
    with pytest.raises(EngineError, match=r"did not answer in 0.5 s"):
        slow.pair(export_trf(new_event(4, Settings(5))))
    missing = ExternalEngine(tmp_path / "no-such-engine")
    with pytest.raises(EngineError, match="no-such-engine' not found"):
        missing.pair(export_trf(new_event(4, Settings(5))))


def test_custom_argument_templates_reach_the_program(tmp_path):
    body = """
    import sys
    args = sys.argv[1:]
    assert args[0] == "--pair" and args[2] == "--out", args
    open(args[3], "w").write("2\\n1 3\\n4 2\\n")
    """
    engine = ExternalEngine(script(tmp_path, body), args=("--pair", "{input}", "--out", "{output}"))
    assert engine.pair(export_trf(new_event(4, Settings(5)))) == [(1, 3), (4, 2)]


def test_engines_are_chosen_by_name_and_unknown_ones_refused():
    assert isinstance(get_engine(), DutchEngine)
    assert get_engine("dutch").name == "dutch"
    with pytest.raises(EngineConfigError,
                       match="unknown pairing engine 'burstein'; valid: bbpairings, dutch, ext"):
        get_engine("burstein")
    with pytest.raises(EngineConfigError, match="no option\\(s\\) 'speed'; valid: none"):
        get_engine("dutch", speed=2)
    with pytest.raises(EngineConfigError, match="valid: command, args, timeout"):
        get_engine("external", path="/bin/x")
    with pytest.raises(EngineConfigError, match="external"):
        get_engine("external")
    with pytest.raises(EngineConfigError, match="needs a command"):
        ExternalEngine([])


def test_the_in_process_engine_parses_strictly():
    good = export_trf(new_event(4, Settings(5)))
    assert len(DutchEngine().pair(good)) == 2
    with pytest.raises(TrfError, match="line 2, column 92: colour 'q'"):  # line 1: 192
        DutchEngine().pair(good.replace("0.0    1", "0.0    1     9 q 1"))
    with pytest.raises(TrfError, match="the number of rounds \\(XXR\\) is missing"):
        DutchEngine().pair(good.replace("XXR 5\n", ""))


def _true_points_event(seed: int, corrections: list[int]) -> Event:
    """A simulated event of 9 whose first players' round 1 scored what no code scores."""
    rng = random.Random(seed)
    event = new_event(9, Settings(5))
    for _ in range(2):
        event = play_round(event, pair_swiss(event), rng, draw_rate=0.2)
    players = list(event.players)
    for index, tenths in enumerate(corrections):
        first, *rest = players[index].history
        players[index] = replace(players[index], history=(replace(first, tenths=tenths), *rest))
    return replace(event, players=tuple(players))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.sampled_from([0, 5, 10, 15, 20]), max_size=9))
def test_the_dutch_engine_pairs_on_the_true_points(seed, corrections):
    """An arbiter's ½–0 or 1–1: py4swiss forms score groups and orders boards on the true
    score (the TRF's points column, the standings' VP), not on what the codes would score."""
    event = _true_points_event(seed, corrections)
    trf = export_trf(event)
    for player in get_player_infos_from_trf(DutchEngine.read(trf)):
        assert player.points == player.points_with_acceleration == event.tenths(player.id)
    assert import_trf(trf) == event
    pairing = pair_swiss(event, "dutch")  # bbpPairings takes no negative XXA: see below
    assert {p for b in pairing.boards for p in (b.first, b.second)} | {pairing.bye} == set(
        range(1, 10)
    )


def _decisions_at_half(settings: Settings) -> Event:
    """Round 1 of eight: 1 beat 5 and 2 beat 6 by decision at ½–0 (coded as wins), 3 beat 7
    and 4 beat 8 outright."""
    record = RoundRecord
    history = {
        1: record(Result.WIN, 5, True, tenths=5), 5: record(Result.LOSS, 1, False),
        2: record(Result.WIN, 6, False, tenths=5), 6: record(Result.LOSS, 2, True),
        3: record(Result.WIN, 7, True), 7: record(Result.LOSS, 3, False),
        4: record(Result.WIN, 8, False), 8: record(Result.LOSS, 4, True),
    }
    return Event(settings, tuple(Player(n, f"P{n}", history=(history[n],)) for n in range(1, 9)))


def test_a_half_point_decision_moves_the_winner_down_a_score_group():
    """Round 1: 1 beat 5 and 2 beat 6 by decision at ½–0; 3 and 4 won outright. On the true
    points 3 and 4 are the only players on 1 VP and meet in round 2; on the codes' points
    (four players on 1) the Dutch rules would pair 1–3 and 2–4."""
    event = _decisions_at_half(Settings(3, edition="2017"))
    boards = {frozenset((b.first, b.second)) for b in pair_swiss(event).boards}
    assert frozenset((3, 4)) in boards
    plain = replace(event, players=tuple(
        replace(p, history=tuple(replace(r, tenths=None) for r in p.history))
        for p in event.players
    ))
    assert frozenset((3, 4)) not in {frozenset((b.first, b.second))
                                     for b in pair_swiss(plain).boards}


def test_bbpairings_is_refused_what_it_would_read_otherwise_and_paired_on_true_codes():
    """bbpPairings reads ``XXA`` as an acceleration that is never negative, and scores ``H``
    as a draw: such an event is refused with the reason, never paired on other points. The
    same ½–0 decisions written with the codes of the points scored (D for ½, L for 0, as the
    shell writes them) pair 3 and 4 by the 2025 rules too."""
    event = _decisions_at_half(Settings(3))
    history = {p.number: p.history[0] for p in event.players}
    with pytest.raises(EngineConfigError, match="player 1 scored less than the results' codes"):
        pair_swiss(event)
    as_scored = {n: replace(r, result=Result.DRAW, tenths=None) if r.tenths == 5 else r
                 for n, r in history.items()}
    event = replace(event, players=tuple(Player(n, f"P{n}", history=(as_scored[n],))
                                         for n in range(1, 9)))
    assert frozenset((3, 4)) in {frozenset((b.first, b.second))
                                 for b in pair_swiss(event).boards}
    half_nothing = replace(event, settings=Settings(3, half_bye=0.0))
    with pytest.raises(EngineConfigError, match=r"half-point bye scores 0\.0 but a draw 0\.5"):
        pair_swiss(half_nothing)
