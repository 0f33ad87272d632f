"""docs/tiebreaks.md shows the worked example's numbers: the same as its golden fixture.

The fixture is the source of truth (the golden test checks the code against it); this test only
checks that the page's standings lines still carry the fixture's values, so the two cannot drift.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from standings_fixture_io import GOLDEN_DIR, load

from tournament.standings import TIEBREAKS, format_points
from tournament.standings.display import format_vector

DOC = Path(__file__).resolve().parents[2] / "docs" / "tiebreaks.md"
FIXTURE = load(GOLDEN_DIR / "worked_example.json")
NAMES = {p["id"]: p["name"] for p in FIXTURE["players"]}
CHECKPOINTS = {c["after_round"]: c for c in FIXTURE["standings"]}


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _line(doc: str, section: str, place: str, name: str) -> str:
    text = doc.split(section, 1)[1]
    prefix = f"| {place} | {name} |"
    for line in text.splitlines():
        if line.startswith(prefix):
            return line
    raise AssertionError(f"{DOC.name}: no line {prefix!r} under {section!r}")


def test_doc_names_the_fixture_and_every_tiebreak(doc: str) -> None:
    assert "tests/golden/standings/worked_example.json" in doc
    for key, tiebreak in TIEBREAKS.items():
        assert f"| `{key}` | {tiebreak.label} | {tiebreak.definition} |" in doc, key


@pytest.mark.parametrize(
    ("after", "section"), [(None, "### Final standings"), (2, "### Standings after round 2")]
)
def test_doc_standings_match_fixture(doc: str, after: int | None, section: str) -> None:
    for row in CHECKPOINTS[after]["rows"]:
        line = _line(doc, section, row["place"], NAMES[row["id"]])
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        values = row["values"]
        assert cells[2] == format_points(Fraction(row["vp"])), line
        assert cells[3] == values["head_to_head"], line
        assert cells[4] == format_vector(values["lowest_colour_difference"], signed=True), line
        if "lowest_colour_level" in values:
            assert cells[5] == format_vector(values["lowest_colour_level"]), line


def test_doc_fide_values_and_crosstable_match_fixture(doc: str) -> None:
    final = CHECKPOINTS[None]
    fide = doc.split("Optional FIDE criteria", 1)[1]
    for row in final["rows"]:
        name = NAMES[row["id"]]
        values = row["values"]
        line = next(x for x in fide.splitlines() if x.startswith(f"| {name} |"))
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert cells[1].split(" =")[0] == values["buchholz"], line
        expected = [values[k] for k in ("buchholz_cut1", "sonneborn_berger", "wins_played", "wins")]
        assert cells[2:] == expected, line
        cross = _line(doc, "### Crosstable", row["place"], name)
        cells = [cell.strip() for cell in cross.strip("|").split("|")]
        assert cells[2:-1] == final["crosstable"][row["id"]], cross
