"""docs/tiebreaks.md shows the worked examples' numbers: the same as the code computes.

The main worked example is a golden fixture (the golden test checks the code against it); this
test checks that the page's lines still carry the fixture's values, so the two cannot drift. The
cumulative reading of the same event and the FIDE example with a forfeit and a withdrawal are
computed here from the page's own result table and compared with the page's hand-worked values.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from standings_fixture_io import GOLDEN_DIR, build_event, load, unplayed

from tournament.standings import (
    TIEBREAKS,
    Bye,
    EventResults,
    Game,
    Player,
    ResultKind,
    compute_standings,
    format_points,
)
from tournament.standings.display import format_vector
from tournament.standings.records import Context

DOC = Path(__file__).resolve().parents[2] / "docs" / "tiebreaks.md"
FIXTURE = load(GOLDEN_DIR / "worked_example.json")
NAMES = {p["id"]: p["name"] for p in FIXTURE["players"]}
CHECKPOINTS = {c["after_round"]: c for c in FIXTURE["standings"]}


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(doc: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading."""
    text = doc.split(heading + "\n", 1)[1]
    return text.split("\n#", 1)[0]


def _tables(text: str) -> list[list[list[str]]]:
    """Every table of ``text`` as rows of stripped cells, without header and rule rows."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is None:
            current = []
            tables.append(current)  # the header row is skipped here
        elif not set(line) <= set("|-: "):
            current.append(cells)
    return tables


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
        assert cells[1].split(" =")[0] == format_points(Fraction(values["buchholz"])), line
        points = [format_points(Fraction(values[k])) for k in ("buchholz_cut1", "sonneborn_berger")]
        assert cells[2:] == [*points, values["wins_played"], values["wins"]], line
        cross = _line(doc, "### Crosstable", row["place"], name)
        cells = [cell.strip() for cell in cross.strip("|").split("|")]
        assert cells[2:-1] == final["crosstable"][row["id"]], cross


CUMULATIVE = [
    "head_to_head",
    "lowest_colour_difference_cumulative",
    "lowest_colour_level_cumulative",
]


def test_doc_cumulative_reading_matches_computation(doc: str) -> None:
    standings = compute_standings(build_event(FIXTURE), CUMULATIVE, unplayed=unplayed(FIXTURE))
    by_name = {row.name: row for row in standings}
    per_round, ranking = _tables(_section(doc, "### The cumulative reading"))
    for name, *rounds, running, cumulative in per_round:
        value = by_name[name].tiebreak(CUMULATIVE[1])
        assert cumulative == value.display
        totals = [int(t.replace("−", "-")) for t in running.split(", ")]
        deltas = [int(d.replace("−", "-")) for d in rounds]
        assert totals == [sum(deltas[: i + 1]) for i in range(len(deltas))]
        assert sum(totals) == value.sort_key[0]
    assert [(cells[0], cells[1]) for cells in ranking] == [(r.place, r.name) for r in standings]
    for _place, name, vp, h2h, difference, level in ranking:
        row = by_name[name]
        mark, cumulative_difference, cumulative_level = row.tiebreaks
        assert [vp, h2h] == [row.vp_display, mark.display]
        assert [difference, level] == [cumulative_difference.detail, cumulative_level.detail]


FIDE = ["buchholz", "buchholz_cut1", "sonneborn_berger", "wins", "wins_played"]
HIGH, LOW = (2, 2, 2, 2, 2, 2), (1, 1, 1, 1, 1, 1)
_SCORES = {"1 – 0": (HIGH, LOW), "0 – 1": (LOW, HIGH), "½ – ½": (LOW, LOW)}


def _fide_event(rows: list[list[str]]) -> EventResults:
    """The FIDE example's results table as an event (stand-in colour scores for played games)."""
    names: list[str] = []
    games: list[Game] = []
    byes: list[Bye] = []
    for round_text, pairing, result in rows:
        round_ = int(round_text)
        first, second = pairing.split(" – ")
        names.extend(n for n in (first, second) if n not in names and n != "bye")
        if second == "bye":
            byes.append(Bye(round_, first, ResultKind.BYE, Fraction(result)))
        elif result == "+ – −":
            games.append(Game.forfeit(round_, first, second, absent=second))
        else:
            games.append(Game.played(round_, first, second, *_SCORES[result]))
    return EventResults([Player(n, n) for n in names], games, byes)


def test_doc_fide_worked_example_matches_computation(doc: str) -> None:
    section = _section(doc, "### FIDE criteria worked through: a forfeit and a withdrawal")
    results, values = _tables(section)
    event = _fide_event(results)
    standings = compute_standings(event, FIDE)
    context = Context(event)
    assert [cells[0] for cells in values] == [row.name for row in standings]
    for name, vp, adjusted, bh, cut1, sb, win, won in values:
        row = standings.row(name)
        buchholz = row.tiebreak("buchholz")
        assert vp == row.vp_display
        assert adjusted == format_points(Fraction(context.adjusted_score2(name), 2))
        assert bh == f"{buchholz.display} = {buchholz.detail}"
        others = ("buchholz_cut1", "sonneborn_berger", "wins", "wins_played")
        assert [cut1, sb, win, won] == [row.tiebreak(key).display for key in others]
