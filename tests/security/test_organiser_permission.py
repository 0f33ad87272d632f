"""Issue #12: creating and importing events needs the organiser permission (add_event), and an
import through the web makes only the importer an arbiter."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from backups import document
from tests.accounts import make_organiser
from tournament.models import Event

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "name": "Organised Open", "rounds_planned": 5, "pairing_system": "swiss",
    "rules_profile": "mso", "time_control": "600", "bye_vp": "1", "absence_vp": "0",
    "first_mover": "first", "token_grace_minutes": 60, "publish_pairings": "on",
    "publish_standings": "on", "tiebreak_order": "",
}


def _upload(event) -> SimpleUploadedFile:
    data = json.dumps(document.export_event(event)).encode()
    return SimpleUploadedFile("event.json", data, content_type="application/json")


@pytest.mark.parametrize("page", ["event_create", "event_import"])
def test_an_account_without_the_permission_gets_403(client, arbiter, page):
    client.force_login(arbiter)
    assert client.get(reverse(page)).status_code == 403
    assert client.post(reverse(page), NEW_EVENT).status_code == 403


@pytest.mark.parametrize("page", ["event_create", "event_import"])
def test_anonymous_visitors_are_sent_to_log_in(client, db, page):
    response = client.get(reverse(page))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_an_arbiter_cannot_import_an_event(client, arbiter, event):
    client.force_login(arbiter)
    response = client.post(reverse("event_import"), {"backup": _upload(event), "slug": "x2"})
    assert response.status_code == 403
    assert not Event.objects.filter(slug="x2").exists()


def test_an_organiser_may_open_both_pages(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("event_create")).status_code == 200
    assert client.get(reverse("event_import")).status_code == 200


def test_an_import_makes_the_importer_the_only_arbiter(client, organiser, arbiter, event):
    bystander = get_user_model().objects.create_user("bystander", password="pw-bystander-1")
    data = document.export_event(event)
    data["event"]["arbiters"] = ["sec-arbiter", "bystander"]
    upload = SimpleUploadedFile("event.json", json.dumps(data).encode(),
                                content_type="application/json")
    client.force_login(organiser)
    response = client.post(reverse("event_import"), {"backup": upload, "slug": "copy"})
    assert response.status_code == 302
    imported = Event.objects.get(slug="copy")
    assert list(imported.arbiters.values_list("username", flat=True)) == ["sec-organiser"]
    assert not imported.is_arbiter(bystander) and not imported.is_arbiter(arbiter)


def test_the_operators_command_line_restore_keeps_the_files_arbiters(arbiter, event):
    restored = document.import_event(document.export_event(event), slug="restored")
    assert list(restored.arbiters.values_list("username", flat=True)) == ["sec-arbiter"]


def test_the_home_page_offers_new_events_only_to_organisers(client, django_user_model):
    from django.urls import reverse as url_for

    plain = django_user_model.objects.create_user("plain", password="pw-plain-1")
    client.force_login(plain)
    assert url_for("event_create") not in client.get(url_for("home")).content.decode()
    make_organiser(plain)
    client.force_login(plain)
    assert url_for("event_create") in client.get(url_for("home")).content.decode()
