"""``manage.py run_flag_timer``: the one flag timer of a scale-out deployment (see flagtimer.py).

Start the ASGI workers with ``FLAG_TIMER=off`` and run exactly one of these. It reads the running
clocks from the database at every tick, so it can be restarted at any time without losing time.
"""

import logging
import signal
import threading

from django.core.management.base import BaseCommand

from clocks import flagtimer


class Command(BaseCommand):
    help = "Store and broadcast flags of board clocks whose time ran out (one process only)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--poll", type=float, default=0.5,
            help="seconds between database polls when no deadline is nearer (default 0.5)",
        )

    def handle(self, *args, poll: float, **options):
        logging.getLogger("clocks").setLevel(logging.INFO)
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"flag timer running (poll every {poll} s); Ctrl-C stops it")
        flagtimer.run_forever(stop, poll_s=poll)
        self.stdout.write("flag timer stopped")
