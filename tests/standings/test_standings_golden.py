"""Golden events: hand-made results with hand-computed standings (tests/golden/standings/).

Each expected row is checked field by field; a failure names the file, the checkpoint and the
player, like python-chess's perft files name their failing line.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from standings_fixture_io import build_event, golden_files, load, unplayed

from tournament.standings import TIEBREAKS, build_crosstable, compute_standings

FILES = golden_files()


def test_golden_files_present() -> None:
    names = {path.name for path in FILES}
    assert {
        "worked_example.json",
        "cyclic_tie_level.json",
        "shared_place.json",
        "unplayed_rounds.json",
        "h2h_applied_once.json",
        "byes_forfeits.json",
    } <= names


def _checkpoints(path: Path) -> list[tuple[Path, dict[str, Any], dict[str, Any]]]:
    data = load(path)
    return [(path, data, checkpoint) for checkpoint in data["standings"]]


CASES = [case for path in FILES for case in _checkpoints(path)]


def _case_id(case: tuple[Path, dict[str, Any], dict[str, Any]]) -> str:
    path, _, checkpoint = case
    return f"{path.name}@{checkpoint['after_round'] or 'last'}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_golden_standings(case: tuple[Path, dict[str, Any], dict[str, Any]]) -> None:
    path, data, checkpoint = case
    event = build_event(data)
    order = data["tiebreaks"]
    after = checkpoint["after_round"]
    where = f"{path.name}, after round {after or 'last'}"

    standings = compute_standings(event, order, after_round=after, unplayed=unplayed(data))
    expected = checkpoint["rows"]
    got = [(row.place, row.player_id) for row in standings]
    assert got == [(e["place"], e["id"]) for e in expected], f"{where}: places differ"

    # Values of every registered criterion: the event's order first (head-to-head depends on
    # what precedes it), then all the others, whose values do not depend on position.
    everything = [*order, *(key for key in TIEBREAKS if key not in order)]
    full = compute_standings(event, everything, after_round=after, unplayed=unplayed(data))
    for exp in expected:
        row = full.row(exp["id"])
        who = f"{where}, player {exp['id']!r}"
        assert row.vp == Fraction(exp["vp"]), f"{who}: VP"
        assert standings.row(exp["id"]).rank == int(exp["place"].split("–")[0]), f"{who}: rank"
        if "games" in exp:
            counts = [row.games_played, row.wins, row.draws, row.losses]
            assert counts == exp["games"], f"{who}: played/won/drawn/lost"
        for key, value in exp.get("values", {}).items():
            got_value = row.tiebreak(key)
            if isinstance(value, list):
                assert got_value.sort_key == tuple(value), f"{who}: {key}"
            elif key == "head_to_head":
                assert got_value.display == value, f"{who}: {key}"
            else:
                assert got_value.sort_key == (Fraction(value),), f"{who}: {key}"

    if "crosstable" in checkpoint:
        rows = build_crosstable(event, standings)
        for row in rows:
            cells = [cell.display if cell else None for cell in row.cells]
            assert cells == checkpoint["crosstable"][row.player_id], (
                f"{where}: crosstable of {row.player_id!r}"
            )
