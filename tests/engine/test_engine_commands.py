"""``verify_log`` and ``bench_engine``: exit codes, human and JSON output."""

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from engine_helpers import EXAMPLE

from games.engine import format_record, random_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, Path, object]:
    generated = random_game(random.Random(21))
    text, js = tmp_path / "game.txt", tmp_path / "game.json"
    text.write_text(format_record(generated.record), encoding="utf-8")
    js.write_text(format_record(generated.record, form="json"), encoding="utf-8")
    return text, js, generated


def test_valid_record_text_and_json(finished: tuple) -> None:
    text, js, generated = finished
    code, out, _ = run("verify_log", str(text))
    assert code == 0 and out.startswith(f"valid: result {generated.result}")
    for path in (text, js):
        code, out, _ = run("verify_log", str(path), "--json")
        data = json.loads(out)
        assert code == 0 and data["ok"] is True and data["error"] is None
        assert data["scores"] == generated.scores and data["result"] == generated.result
        assert data["placements"] == generated.game.placements


def test_invalid_and_unfinished_records(tmp_path: Path) -> None:
    path = tmp_path / "opening.txt"
    path.write_text(EXAMPLE, encoding="utf-8")
    code, out, err = run("verify_log", str(path))
    assert code == 1 and "line 20" in err and "unfinished record" in err
    path.write_text(EXAMPLE.replace("{O+3}", "{O+4}"), encoding="utf-8")
    code, out, _ = run("verify_log", str(path), "--json")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "error": {"line": 14, "message": "claim {O+4} differs from the true score {O+3}"},
    }
    code, out, _ = run("verify_log", str(tmp_path / "missing.txt"), "--json")
    assert code == 1 and json.loads(out)["error"]["line"] is None
    path.write_bytes(b"\x00\xff junk")
    code, out, _ = run("verify_log", str(path), "--json")
    assert code == 1 and "UTF-8" in json.loads(out)["error"]["message"]


def test_verify_log_as_a_real_process(finished: tuple) -> None:
    text, _, generated = finished
    env = {**os.environ, "SECRET_KEY": os.environ.get("SECRET_KEY", "test-only-secret")}
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_log", str(text), "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == generated.result
    broken = text.with_suffix(".bad")
    broken.write_text(text.read_text().replace(" {", " {R+9 ", 1), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_log", str(broken)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1 and "claim" in done.stderr


def test_bench_engine_prints_its_figures() -> None:
    code, out, _ = run("bench_engine", "--count", "8", "--repeat", "1")
    assert code == 0
    figures = dict(line.split(": ")[:2] for line in out.splitlines() if ": " in line)
    assert float(figures["records/s"]) > 0 and float(figures["us/placement"]) > 0
