"""The project's ASGI application on a server clock a browser story moves forward (tests only).

``clocks.services.now_ms`` is the one clock every service, consumer and the flag timer read;
here it runs ahead of the machine's by the milliseconds the file ``INGENIOUS_TEST_SERVER_TIME``
holds, which ``tests.browser.server_time.ServerTime`` writes.
"""

import os
import time

from tournament.asgi import application  # noqa: F401  (Django is set up before the services)

from clocks import services  # isort: skip

_SHIFT = os.environ["INGENIOUS_TEST_SERVER_TIME"]


def now_ms() -> int:
    try:
        with open(_SHIFT, encoding="ascii") as shift:
            ahead = int(shift.read() or 0)
    except (OSError, ValueError):
        ahead = 0
    return time.time_ns() // 1_000_000 + ahead


services.now_ms = now_ms
