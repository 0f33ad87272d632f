"""``manage.py serve``: the embedded server as ``make run`` starts it at the venue.

Serves the hall's network (all addresses) with daphne, the same ASGI server as production,
with ``DEBUG`` as the environment says (off unless ``DEBUG=1``), and prints the addresses to
open: this computer's, and the one players' phones and the QR codes use.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from tournament.config import hall_addresses
from tournament.site.daphne_command import daphne_arguments


class Command(BaseCommand):
    help = "Serve the event on the hall's network (daphne), printing the addresses to open."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=settings.SERVE_PORT)
        parser.add_argument("--bind", default="0.0.0.0",
                            help="address to listen on (127.0.0.1: this computer only)")

    def handle(self, *args, port: int, bind: str, **options):
        from daphne.cli import CommandLineInterface

        self.stdout.write(f"This computer: http://127.0.0.1:{port}/")
        if settings.PUBLIC_BASE_URL:
            self.stdout.write(f"Players' phones and QR codes: {settings.PUBLIC_BASE_URL}/")
        elif bind in ("0.0.0.0", "::") and hall_addresses():
            for address in hall_addresses():
                self.stdout.write(f"Players' phones and QR codes: http://{address}:{port}/")
        else:
            self.stdout.write(self.style.WARNING(
                "No address on the hall's network: phones cannot reach this server, and QR "
                "codes point at this computer only."))
        if settings.DEBUG:
            self.stdout.write(self.style.WARNING(
                "DEBUG is on: error pages show the settings and every address to anyone on "
                "the network. Use it for development only."))
        CommandLineInterface().run(daphne_arguments(bind, port))
