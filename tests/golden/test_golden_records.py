"""Golden game records (``tests/golden/records``): each record file has an expected verdict.

``NAME.txt`` or ``NAME.json`` is a record; ``NAME.expected.json`` is exactly what
``manage.py verify_log NAME --json`` must print. The hand-written ones say in their header
comment why the verdict is what it is; the complete games are regression records whose every
placement line carries its claim, so a scoring change shows up as a claim error at that line.
Failures name the file and the line.
"""

import json
from pathlib import Path

import pytest

from games.engine import verify

RECORDS = Path(__file__).parent / "records"
CASES = sorted(
    p for p in RECORDS.iterdir() if p.suffix in (".txt", ".json") and ".expected" not in p.name
)


def test_there_are_golden_records() -> None:
    assert len(CASES) >= 10
    for path in CASES:
        assert path.with_name(path.stem + ".expected.json").exists(), path.name


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_golden_record(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text("utf-8"))
    verdict = verify(path.read_bytes())
    got = verdict.to_json()
    where = f"{path.name}:{verdict.error.line}" if verdict.error else path.name
    if expected["ok"] and not got["ok"]:
        pytest.fail(f"{where}: expected a valid game, got: {verdict.error.reason}")
    if not expected["ok"]:
        want = expected["error"]
        assert got["error"] == want, (
            f"{path.name}:{want['line']}: expected error {want['message']!r}, "
            f"got {where}: {got['error']}"
        )
    assert got == expected, f"{where}: verdict differs from {path.stem}.expected.json"
