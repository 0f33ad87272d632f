"""Players CSV files as European spreadsheets save them (#23 item 13).

Excel and LibreOffice in most of Europe write semicolons in Windows-1252; "Unicode text" is
tab-separated UTF-16 with a BOM. Each is imported through the players page as the arbiter
uploads it, names and accents intact.
"""

import codecs
import io
import re

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournament.inputs import csv_input
from tournament.services import parse_players_csv as csv_input_rows

PLAYERS = [("Björn Nylund", "Uppsala", "1850"), ("Élodie Dubois", "Lyon, Croix", "1720"),
           ("Łukasz Wójcik", "Kraków", "")]


def _table(sep: str) -> str:
    lines = [sep.join(["Name", "Club", "Rating"])]
    for name, club, rating in PLAYERS:
        club = f'"{club}"' if sep in club else club
        lines.append(sep.join([name, club, rating]))
    return "\r\n".join(lines) + "\r\n"


SAVED_AS = {
    "excel-csv-germany": _table(";").replace("Łukasz Wójcik", "Lukas Wojcik").encode("cp1252"),
    "excel-unicode-text": codecs.BOM_UTF16_LE + _table("\t").encode("utf-16-le"),
    "libreoffice-utf8-semicolons": _table(";").encode("utf-8"),
    "utf8-bom-commas": codecs.BOM_UTF8 + _table(",").encode("utf-8"),
    "utf16-without-bom-tabs": _table("\t").encode("utf-16-le"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("saved_as", SAVED_AS)
def test_the_players_page_imports_what_spreadsheets_save(arbiter_client, event, saved_as):
    upload = io.BytesIO(SAVED_AS[saved_as])
    upload.name = "players.csv"
    before = event.players.count()
    page = arbiter_client.post(reverse("arbiter_players_import", args=[event.slug]),
                               {"csv_file": upload}, follow=True)
    assert page.status_code == 200
    added = {p.name: p for p in event.players.order_by("pk")[before:]}
    assert len(added) == 3, page.content.decode()[:3000]
    first = "Lukas Wojcik" if saved_as == "excel-csv-germany" else "Łukasz Wójcik"
    assert set(added) == {"Björn Nylund", "Élodie Dubois", first}
    assert added["Élodie Dubois"].club == "Lyon, Croix"
    assert added["Björn Nylund"].rating == 1850


def test_bytes_that_are_no_text_are_refused():
    with pytest.raises(csv_input.CsvEncodingError):
        csv_input.decode(codecs.BOM_UTF8 + b"\xff\xfe\xfd")


@pytest.mark.parametrize(("header", "sep"), [
    ("name,club", ","), ("name;club;rating", ";"), ("name\tclub", "\t"), ("name", ","),
    ('"name;x",club', ","), ("\ufeffname;club", ";")])
def test_the_separator_comes_from_the_header_line(header, sep):
    assert csv_input.separator(header + "\nAda;Bo,x\tz\n") == sep


@given(st.text(max_size=200))
def test_any_text_saved_in_utf16_or_utf8_comes_back(text):
    for data in (text.encode("utf-8"), codecs.BOM_UTF8 + text.encode("utf-8"),
                 codecs.BOM_UTF16_LE + text.encode("utf-16-le")):
        try:
            assert csv_input.decode(data) == text
        except csv_input.CsvEncodingError:
            pytest.fail(f"{data[:20]!r} refused")


@pytest.mark.parametrize("header", ["Namn;Klubb;Rating", "Имя;Клуб;Рейтинг", "이름;클럽;레이팅",
                                    "Name;Verein;Elo", "NAME;CLUB;RATING"])
def test_the_header_may_name_the_columns_in_any_language_of_the_site(header):
    """A spreadsheet made in Sweden says "Namn" and "Klubb": the players page's own labels in
    each of the site's languages name the columns too."""
    rows = csv_input_rows(f"{header}\r\nBjörn Nylund;Uppsala;1850\r\n")
    assert rows == [{"line": 2, "name": "Björn Nylund", "club": "Uppsala", "country": "",
                     "rating": 1850}]


def test_columns_the_import_does_not_read_are_named(arbiter_client, event):
    from tournament.services import ignored_columns

    assert ignored_columns("Name;Club;Born;Email\r\nA;B;1990;a@b\r\n") == ["Born", "Email"]
    upload = io.BytesIO(b"Name,Born\r\nAdelheid Neu,1990\r\n")
    upload.name = "players.csv"
    page = arbiter_client.post(reverse("arbiter_players_import", args=[event.slug]),
                               {"csv_file": upload}, follow=True).content.decode()
    assert "Columns not read: Born" in page, re.findall(r"class=\"msg-[^>]*>(.*?)<", page)
