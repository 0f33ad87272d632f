"""The daphne command line of this project's workers: ``make run`` and the benchmarks use it,
and docs/deployment.md starts production workers with the same options.

- ``backlog``: how many connections the kernel holds for daphne before it accepts them. Twisted
  listens with 50, and a hall's Wi-Fi coming back opens a socket per board page within a
  second: past 50 the kernel drops the connection attempts, the phones send them again 1 s and
  3 s later, and a handshake that takes longer than 5 s fails and is tried again (``bench_clocks
  --reconnect``, docs/benchmarks.md). The kernel caps it at ``net.core.somaxconn`` (4,096 on
  current Linux).
- The websocket size limits (``WEBSOCKET_SERVER_LIMIT``) let a client's oversized message reach
  the application, which refuses it with an error and keeps the socket; daphne's own 1 MiB
  would cut the connection without a word.
"""

from __future__ import annotations

from daphne.endpoints import build_endpoint_description_strings
from django.conf import settings

LISTEN_BACKLOG = 2048
APPLICATION = "tournament.asgi:application"


def daphne_arguments(bind: str, port: int) -> list[str]:
    """daphne's arguments to serve this project on ``bind``:``port`` (an IPv4 or IPv6 address)."""
    # daphne's own endpoint for -b/-p (colons of an IPv6 address escaped), with the backlog
    endpoint = build_endpoint_description_strings(host=bind, port=port)[0]
    limit = str(settings.WEBSOCKET_SERVER_LIMIT)
    return ["-e", f"{endpoint}:backlog={LISTEN_BACKLOG}",
            "--websocket-max-message-size", limit, "--websocket-max-frame-size", limit,
            APPLICATION]
