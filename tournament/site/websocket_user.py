"""The user of a websocket handshake, without a session when there is none to read.

Channels' ``AuthMiddlewareStack`` reads the session's user on the process's one database thread
for every handshake, and wraps every frame the socket sends afterwards to save the session if
it changed. A board page's socket usually carries no session cookie at all (players open the
board's link; they do not log in), and then its user is anonymous whatever the database holds:
Channels' own ``get_user`` finds no user id in an empty session, and nothing on a socket writes
to one. Such a socket gets an ``AnonymousUser`` and no session: one database call fewer for
each of the thousand openings of a hall whose Wi-Fi comes back (docs/benchmarks.md, "A hall's
Wi-Fi comes back"), and no session check on each of its frames (about 60 µs a press in a hall,
"A fourth sitting"). A handshake with a session cookie goes through Channels as before, a
forged or expired one included.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser


class SessionUserMiddleware:
    """``scope["user"]``: anonymous at once without a session cookie, else Channels' stack."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.with_session = SessionMiddleware(AuthMiddleware(inner))

    async def __call__(self, scope, receive, send):
        if settings.SESSION_COOKIE_NAME in scope.get("cookies", {}):
            return await self.with_session(scope, receive, send)
        return await self.inner(dict(scope, user=AnonymousUser()), receive, send)


def user_middleware_stack(inner):
    """Channels' ``AuthMiddlewareStack`` with ``SessionUserMiddleware``."""
    return CookieMiddleware(SessionUserMiddleware(inner))
