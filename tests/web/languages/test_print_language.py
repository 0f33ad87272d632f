"""The projector and the PDFs speak the event's print language, whatever the browser says.

A hall's screen and a wall of printouts must not change language with whoever opened them
(issue #14). The words checked are the German translations shipped in locale/de, looked up
from the catalogue so that a translator's better word does not break the test.
"""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from pypdf import PdfReader

from backups import document

pytestmark = pytest.mark.django_db


def de(text: str, **values) -> str:
    """``text`` as the German catalogue says it."""
    with translation.override("de"):
        return gettext(text) % values if values else gettext(text)


def pdf_text(pdf: bytes) -> str:
    pages = PdfReader(io.BytesIO(pdf)).pages
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in pages))


def german(event):
    event.print_language = "de"
    event.save(update_fields=["print_language"])
    return event


def test_the_projector_speaks_the_print_language(client, played_event):
    url = reverse("event_projector", args=[played_event.slug])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Standings" in english and de("Standings") not in english
    german(played_event)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert 'lang="de"' in page and response["Content-Language"] == "de"
    assert de("Standings") in page and de("Board") in page and de("Plays first") in page
    # ...while the other pages still follow the browser.
    home = client.get(reverse("event_home", args=[played_event.slug]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pairings" in home and 'lang="en"' in home


def test_the_pdfs_speak_the_print_language(client, played_event):
    german(played_event)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})  # the session says en
    url = reverse("print_document", args=[played_event.slug, "pairings"])
    text = pdf_text(client.get(f"{url}?round=3", HTTP_ACCEPT_LANGUAGE="en").content)
    assert f"{de('Pairings round %(n)d', n=3)} · {de('by board')}" in text
    assert de("page %(n)d of %(m)d", n=1, m=1).split(" 1")[0] in text
    assert "Pairings round" not in text
    url = reverse("print_document", args=[played_event.slug, "standings"])
    text = pdf_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content)
    assert de("Standings after round %(n)d", n=2) in text
    assert f"{de('Place')} {de('Name')} {de('Club')}" in text


def test_an_english_event_prints_in_english_for_a_german_browser(client, played_event):
    url = reverse("print_document", args=[played_event.slug, "pairings"])
    text = pdf_text(client.get(f"{url}?round=3", HTTP_ACCEPT_LANGUAGE="de").content)
    assert "Pairings round 3 · by board" in text and de("Pairings round %(n)d", n=3) not in text


def test_the_export_command_prints_in_the_print_language(played_event, tmp_path):
    german(played_event)
    out = tmp_path / "pairings.pdf"
    call_command("export_pdf", played_event.slug, "pairings", "--round", "3",
                 "--output", str(out))
    assert de("Pairings round %(n)d", n=3) in pdf_text(out.read_bytes())


def test_the_print_language_is_a_setting_and_survives_a_backup(arbiter_client, played_event):
    page = arbiter_client.get(reverse("arbiter_settings", args=[played_event.slug]))
    assert 'name="print_language"' in page.content.decode()
    data = document.export_event(german(played_event))
    assert data["event"]["print_language"] == "de"
    del data["event"]["print_language"]  # a backup from before the setting existed
    restored = document.import_event(data, slug="restored")
    assert restored.print_language == "en"
