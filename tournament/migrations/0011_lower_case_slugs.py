"""Short names are lower case from now on (``Event.clean``): lower the ones stored before.

A slug whose lower-case form another event already has gets the first free ``-2``, ``-3``…
suffix, so that no event loses its page; without this, the next save of such an event's
settings would lower its slug into the other's and fail on the unique constraint.
"""

from django.db import migrations


def lower_slugs(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    taken = set(Event.objects.values_list("slug", flat=True))
    for event in Event.objects.order_by("pk"):
        lower = event.slug.lower()
        if lower == event.slug:
            continue
        taken.discard(event.slug)
        slug, n = lower, 2
        while slug in taken:
            slug, n = f"{lower[:55]}-{n}", n + 1
        taken.add(slug)
        event.slug = slug
        event.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0010_event_clock_compensation")]

    operations = [migrations.RunPython(lower_slugs, migrations.RunPython.noop)]
