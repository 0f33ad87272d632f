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
