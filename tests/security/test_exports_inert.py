"""Issue #12: table exports are inert in a spreadsheet (CSV / formula injection, OWASP rule)."""

import csv
import doctest
import io

import openpyxl
import pytest
from django.urls import reverse

from tournament import services, tables
from tournament.tables import inert_cell

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example","x")'


@pytest.mark.parametrize(("raw", "expected"), [
    (EVIL, "'" + EVIL),
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
    ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
    ("\t=1+1", "'\t=1+1"),
    ("\r=1+1", "'\r=1+1"),
    ("Ada Lovelace", "Ada Lovelace"),
    ("", ""),
    ("–", "–"),
    # plain numbers are numbers: a spreadsheet reads them as values, never as formulas
    ("-3", -3), ("+12", 12), ("\u22127", -7), ("3½", 3.5), ("-½", -0.5), ("6.25", 6.25),
    ("0", 0), (4, 4), (6.5, 6.5), (None, None),
])
def test_a_cell_is_neutralised_or_kept_as_a_number(raw, expected):
    assert inert_cell(raw) == expected
    assert type(inert_cell(raw)) is type(expected)


def test_the_module_examples_hold():
    assert doctest.testmod(tables).failed == 0


@pytest.fixture
def hostile_event(event):
    services.add_player(event, name="@Mallory", club=EVIL)
    services.add_player(event, name="-2+3+cmd|' /C calc'!A0", club="+Ops")
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return event


def _csv_rows(client, url) -> list[list[str]]:
    response = client.get(url, {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def _xlsx_cells(client, url) -> list:
    response = client.get(url, {"_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    return [cell for row in sheet.iter_rows() for cell in row]


TABLE_PAGES = ["event_standings", "event_pairings", "event_pairings_by_name", "event_results"]


@pytest.mark.parametrize("page", TABLE_PAGES)
def test_every_table_exports_no_formula(client, hostile_event, page):
    url = reverse(page, args=[hostile_event.slug])
    cells = [cell for row in _csv_rows(client, url) for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "@", "\t", "\r")], cells
    assert not [c for c in cells if c[:1] in ("+", "-")
                and not c.lstrip("+-").replace(".", "", 1).isdigit()], cells
    xlsx = _xlsx_cells(client, url)
    assert not [c.value for c in xlsx if c.data_type == "f"]
    assert not [c.value for c in xlsx if isinstance(c.value, str) and c.value[:1] in "=+-@"]


def test_standings_keep_the_hostile_text_readable_and_the_numbers_numeric(client, hostile_event):
    url = reverse("event_standings", args=[hostile_event.slug])
    rows = _csv_rows(client, url)
    assert "'" + EVIL in [cell for row in rows for cell in row]
    xlsx = _xlsx_cells(client, url)
    assert "'" + EVIL in [c.value for c in xlsx]
    header = [c.value for c in xlsx[: len(rows[0])]]
    body = [xlsx[i:i + len(header)] for i in range(len(header), len(xlsx), len(header))]
    vp_column = header.index("VP")
    assert all(isinstance(row[vp_column].value, (int, float)) for row in body)
