"""Who may print what, from the browser: public documents, arbiter documents, 404s."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from printing_helpers import LETTER, pdf_pages, pdf_sizes

from tournament.models import Round

pytestmark = pytest.mark.django_db


def url(event, document: str, query: str = "") -> str:
    return reverse("print_document", args=[event.slug, document]) + query


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("print-outsider", password="pw-outsider-1")


@pytest.mark.parametrize("document", ["scoresheets", "slips"])
def test_board_documents_are_for_arbiters_only(client, event, arbiter, outsider, document):
    target = url(event, document, "?round=1")
    anonymous = client.get(target)
    assert anonymous.status_code == 302
    assert reverse("login") in anonymous["Location"]
    client.force_login(outsider)
    assert client.get(target).status_code == 403
    client.force_login(arbiter)
    response = client.get(target)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert f'filename="print-open-{document}-round-1.pdf"' in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize(("document", "query", "expected"), [
    ("pairings", "?round=2", "Pairings round 2"),
    ("standings", "", "Standings after round 2"),
    ("standings", "?round=1", "Standings after round 1"),
    ("crosstable", "?round=1", "Crosstable · Standings after round 1"),
])
def test_public_documents(client, event, document, query, expected):
    response = client.get(url(event, document, query))
    assert response.status_code == 200
    assert expected in pdf_pages(response.content)[0]


def test_letter_paper(client, event):
    response = client.get(url(event, "pairings", "?round=1&paper=letter"))
    assert set(pdf_sizes(response.content)) == {LETTER}
    assert client.get(url(event, "pairings", "?round=1&paper=a3")).status_code == 404


def test_drafted_pairings_are_the_arbiters(client, event, arbiter):
    Round.objects.filter(event=event, number=2).update(status=Round.Status.DRAFTED)
    assert client.get(url(event, "pairings", "?round=2")).status_code == 404
    assert client.get(url(event, "pairings", "?round=1")).status_code == 200
    client.force_login(arbiter)
    assert client.get(url(event, "pairings", "?round=2")).status_code == 200


def test_unpublished_standings_are_the_arbiters(client, event, arbiter):
    event.publish_standings = False
    event.save()
    assert client.get(url(event, "standings")).status_code == 404
    assert client.get(url(event, "crosstable")).status_code == 404
    client.force_login(arbiter)
    assert client.get(url(event, "standings")).status_code == 200


@pytest.mark.parametrize("query", ["", "?round=9"])
def test_a_missing_round_is_404(client, event, arbiter, query):
    client.force_login(arbiter)
    assert client.get(url(event, "scoresheets", query)).status_code == 404
    assert client.get(url(event, "pairings", query)).status_code == 404


def test_a_round_that_is_not_a_number_is_400(client, event, arbiter):
    client.force_login(arbiter)
    assert client.get(url(event, "scoresheets", "?round=x")).status_code == 400


def test_unknown_document_or_event_is_404(client, event, arbiter):
    client.force_login(arbiter)
    assert client.get(url(event, "minutes", "?round=1")).status_code == 404
    missing = reverse("print_document", args=["no-such-event", "standings"])
    assert client.get(missing).status_code == 404


def test_print_menu(client, event, arbiter, outsider):
    menu = reverse("arbiter_print", args=[event.slug])
    assert client.get(menu).status_code == 302
    client.force_login(outsider)
    assert client.get(menu).status_code == 403
    client.force_login(arbiter)
    page = client.get(menu + "?paper=letter").content.decode()
    for number in (1, 2):
        for document in ("scoresheets", "pairings", "slips", "standings", "crosstable"):
            assert f"{url(event, document)}?round={number}&amp;paper=letter" in page
    assert f'{url(event, "standings")}?paper=letter' in page
