"""``python manage.py import_event FILE.json [--slug SLUG]``: restore a JSON backup."""

from django.core.management.base import BaseCommand, CommandError

from backups import document


class Command(BaseCommand):
    help = "Create an event from a JSON backup written by export_event."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="short name for the new event (default: the file's)")

    def handle(self, file, slug=None, **options):
        try:
            with open(file, "rb") as handle:
                raw = handle.read()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from exc
        try:
            event = document.import_event(document.parse(raw), slug=slug)
        except document.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"imported {event.name!r} as {event.slug}")
