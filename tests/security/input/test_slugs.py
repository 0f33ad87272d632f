"""Issue #21: short names are lower case on every way in, and a clash is refused with the reason
(an imported ``DEMO-OPEN`` must not become ``/e/DEMO-OPEN/`` beside ``/e/demo-open/``)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from backups.document import BackupError, export_event, import_event
from tournament import services
from tournament.models import Event
from tournament.services.validation import InvalidInput

pytestmark = pytest.mark.django_db


def test_the_service_lowers_a_slug_and_refuses_a_clash(arbiter):
    event = services.create_event(name="Demo Open", slug="DEMO-Open", arbiter=arbiter)
    assert event.slug == "demo-open"
    with pytest.raises(InvalidInput, match="'demo-open' already exists"):
        services.create_event(name="Demo Open again", slug="Demo-OPEN")
    assert Event.objects.count() == 1


def test_a_backup_in_capitals_is_refused_beside_its_lower_case_twin(event):
    document = export_event(event)
    document["event"]["slug"] = event.slug.upper()
    with pytest.raises(BackupError, match=r"event\.slug.*'secure-open' already exists"):
        import_event(document)
    with pytest.raises(BackupError, match="'secure-open' already exists"):
        import_event(export_event(event), slug="SECURE-OPEN")
    assert list(Event.objects.values_list("slug", flat=True)) == ["secure-open"]


def test_a_backup_in_capitals_is_imported_in_lower_case(event, organiser, client):
    document = export_event(event)
    document["event"]["slug"] = "Other-OPEN"
    assert import_event(document).slug == "other-open"
    assert client.get("/e/Other-OPEN/").status_code == 404
    assert client.get(reverse("event_home", args=["other-open"])).status_code == 200


def test_full_clean_lowers_it_for_the_admin_and_model_forms(event):
    """The admin and the model forms run ``full_clean``: the model's ``clean`` decides."""
    event.slug = "MiXeD"
    event.full_clean(validate_unique=False)
    assert event.slug == "mixed"


@pytest.mark.django_db(transaction=True)
def test_the_slugs_stored_before_are_lowered_without_losing_an_event():
    """Migration 0011: ``DEMO-OPEN`` beside ``demo-open`` becomes ``demo-open-2``, so that
    ``Event.clean`` never lowers a stored slug into another event's."""
    before = [("tournament", "0010_event_clock_compensation")]
    after = [("tournament", "0011_lower_case_slugs")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    Old = executor.loader.project_state(before).apps.get_model("tournament", "Event")
    for slug in ("demo-open", "DEMO-OPEN", "Spring-Cup"):
        Old.objects.create(slug=slug, name=slug)
    try:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
        assert sorted(Event.objects.values_list("slug", flat=True)) == [
            "demo-open", "demo-open-2", "spring-cup"]
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
