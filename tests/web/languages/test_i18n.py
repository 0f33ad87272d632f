"""The language switcher: every page follows the chosen language (German ships as a start)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_switcher_changes_the_language_of_the_pages(client, played_event):
    url = reverse("event_home", args=[played_event.slug])
    assert "Pairings" in client.get(url).content.decode()
    response = client.post(reverse("set_language"), {"language": "de", "next": url})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Paarungen" in page and 'lang="de"' in page
    client.post(reverse("set_language"), {"language": "en", "next": url})
    assert "Pairings" in client.get(url).content.decode()


def test_the_scripts_get_their_translations_from_the_javascript_catalog(client, played_event):
    """/jsi18n/ serves the djangojs catalogue of the page's language, plural rule included,
    and every page loads it before its own scripts."""
    board = played_event.rounds.get(number=3).boards.exclude(second=None).first()
    page = client.get(reverse("board_page", args=[board.token]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    catalog = reverse("javascript-catalog")
    assert f'src="{catalog}?l=de"' in page
    assert page.index(catalog) < page.index("js/clock.js")
    german = client.get(f"{catalog}?l=de", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '"Verbunden"' in german and "%(n)s Uhren gestartet" in german
    assert "function ngettext" in german or "django.ngettext" in german
    english = client.get(f"{catalog}?l=en", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Verbunden" not in english and "django.gettext" in english
