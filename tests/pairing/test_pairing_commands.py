"""``trf_pair`` and ``bench_pairing``: the command-line face of the pairing core."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command
from pairing_scenarios import run_event, start_event

from tournament.bridges.pairing_simulation import new_event, play_round
from tournament.pairing import Settings, export_trf, pair_swiss


def trf_pair(path, *args: str) -> str:
    out = io.StringIO()
    call_command("trf_pair", str(path), *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_trf_pair_prints_the_in_process_pairing_of_the_exported_file(tmp_path, seed):
    rng = random.Random(seed)
    rounds = list(run_event(start_event(17 + seed, 7, rng), rng, absent=0.1, forfeit=0.1))
    event = rounds[min(len(rounds) - 1, 2 + seed)][0]
    path = tmp_path / "event.trf"
    path.write_text(export_trf(event), encoding="utf-8")
    printed = trf_pair(path)
    expected = pair_swiss(event)
    assert printed == expected.to_text()
    lines = printed.splitlines()
    assert int(lines[0]) == len(lines) - 1
    if expected.bye is not None:
        assert lines[-1] == f"{expected.bye} 0"


def test_trf_pair_refuses_malformed_files_with_the_place(tmp_path):
    path = tmp_path / "bad.trf"
    path.write_text(export_trf(new_event(4, Settings(5))).replace("XXR 5", "XXR x"))
    with pytest.raises(CommandError, match=r"bad.trf: line 6, column 5: XXR 'x'"):
        trf_pair(path)
    with pytest.raises(CommandError, match=r"cannot read .*missing\.trf"):
        trf_pair(tmp_path / "missing.trf")
    path.write_bytes(b"\xff\xfe001")
    with pytest.raises(CommandError, match="is not UTF-8"):
        trf_pair(path)


def test_trf_pair_reports_when_no_legal_pairing_exists(tmp_path):
    event = new_event(2, Settings(3))
    event = play_round(event, pair_swiss(event), random.Random(4))
    path = tmp_path / "done.trf"
    path.write_text(export_trf(event), encoding="utf-8")
    with pytest.raises(CommandError, match="no legal pairing: round 2 cannot be paired"):
        trf_pair(path)


def test_trf_pair_refuses_an_unknown_engine(tmp_path):
    path = tmp_path / "event.trf"
    path.write_text(export_trf(new_event(4, Settings(5))), encoding="utf-8")
    with pytest.raises(CommandError, match="invalid choice: 'dubov'"):
        trf_pair(path, "--engine", "dubov")


def test_bench_pairing_prints_one_line_per_field_size_and_edition():
    out = io.StringIO()
    call_command("bench_pairing", players=[12, 20], before=2, repeat=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert [re.fullmatch(r"players: (\d+) edition: (\d+) seconds: \d+\.\d{3}", line).groups()
            for line in lines] == [("12", "2025"), ("12", "2017"), ("20", "2025"), ("20", "2017")]


def test_trf_pair_pairs_by_the_files_edition_or_the_one_asked_for(tmp_path):
    """Line 192 names the edition; --edition overrides it; without either, 2025."""
    rng = random.Random(4)
    event = list(run_event(start_event(21, 7, rng), rng, forfeit=0.1))[5][0]
    event = replace(event, settings=replace(event.settings, half_bye=0.5))  # as bbpPairings
    path = tmp_path / "event.trf"
    path.write_text(export_trf(event), encoding="utf-8")
    by_2025 = replace(event, settings=replace(event.settings, edition="2025"))
    by_2017 = replace(event, settings=replace(event.settings, edition="2017"))
    assert trf_pair(path, "--edition", "2025") == pair_swiss(by_2025).to_text()
    assert trf_pair(path, "--edition", "2017") == pair_swiss(by_2017).to_text()
    assert trf_pair(path) == pair_swiss(event).to_text()
    unmarked = "".join(line for line in export_trf(by_2025).splitlines(True)
                       if not line.startswith("192"))
    path.write_text(unmarked, encoding="utf-8")
    assert trf_pair(path) == pair_swiss(by_2025).to_text()
