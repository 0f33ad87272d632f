"""``manage.py export_pdf EVENT DOCUMENT [--round N] [--paper a4|letter] -o FILE.pdf``.

Prints what the print menu prints, for scripts and for a venue without a browser at hand.
QR codes point at ``PUBLIC_BASE_URL``, or this machine's address on the hall's network
(``tournament.site.site_address.command_base_url``).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.printing import documents
from tournament.printing.common import PAPERS
from tournament.printing.data import PrintError
from tournament.site import site_address


class Command(BaseCommand):
    help = "Write one printable document of an event (pairings, standings, …) as a PDF file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("document", help="one of: " + ", ".join(documents.DOCUMENTS))
        parser.add_argument("--round", dest="round", default=None,
                            help="pairings/scoresheets/slips: the round (required); "
                                 "standings/crosstable: after this round "
                                 "(default: the last complete round)")
        parser.add_argument("--paper", default="a4", choices=sorted(PAPERS))
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")

    def handle(self, *args, **options) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            known = ", ".join(Event.objects.values_list("slug", flat=True)[:20]) or "none"
            raise CommandError(f"No event {options['event']!r}. Known events: {known}.")
        try:
            number = documents.resolve_round(event, options["document"], options["round"])
            pdf = documents.render(event, options["document"], number, paper=options["paper"],
                                   base_url=site_address.command_base_url())
        except PrintError as exc:
            raise CommandError(str(exc)) from exc
        output = Path(options["output"])
        output.write_bytes(pdf)
        self.stdout.write(f"Wrote {output} ({len(pdf):,} bytes).")
