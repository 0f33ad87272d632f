"""``python manage.py export_event SLUG [-o FILE.json] [--trf]``: a full backup or a TRF file."""

import json

from django.core.management.base import BaseCommand, CommandError

from backups import document
from tournament.bridges import pairing_bridge
from tournament.models import Event


class Command(BaseCommand):
    help = "Write an event as a JSON backup (default) or as FIDE TRF-16 (--trf)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument("--trf", action="store_true", help="write TRF-16 instead of JSON")

    def handle(self, slug, output=None, trf=False, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the short name {slug!r}")
        if trf:
            text = pairing_bridge.export_trf(event)
        else:
            text = json.dumps(document.export_event(event), indent=1, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            self.stdout.write(text, ending="")
