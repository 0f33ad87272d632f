"""The websocket router: a path that no route takes is denied at the handshake (HTTP 403).

Channels' ``URLRouter`` raises ``ValueError("No route found ...")`` for a path none of its
routes matches, and the ASGI server answers such a handshake with HTTP 500, as for a crash. That
takes in an unknown path (``ws/nothing/``) and a route whose converter refuses the value, which
Django's patterns treat as no match (``ws/watch/abc/``: ``<int:board_id>`` takes digits only;
a converter whose ``to_python`` raises ``ValueError`` likewise). The protocol promises two
refusals only (docs/online-protocol.md, "The handshake"): denied with HTTP 403 before any
consumer runs, or accepted and closed with 4403 and a reason when a consumer judges what the
socket opens. A path that names nothing has nothing for a consumer to judge, so it is the first:
the router's last route takes every path the others left and denies it as the origin check does
(``WebsocketDenier``: closed before it is accepted, which the server answers with 403). It sits
at the end of the one router every socket passes, so a route added later is covered too.
"""

from __future__ import annotations

from channels.routing import URLRouter
from channels.security.websocket import WebsocketDenier
from django.urls import re_path

#: Matches every path (an empty pattern, searched): whatever the routes before it left.
EVERY_OTHER_PATH = re_path(r"", WebsocketDenier.as_asgi())


def router(routes: list) -> URLRouter:
    """``URLRouter`` of ``routes``, in their order, and a denial of every other path."""
    return URLRouter([*routes, EVERY_OTHER_PATH])
