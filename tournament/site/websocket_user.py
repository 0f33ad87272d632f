"""The user of a websocket handshake, without a database call when there can be none.

Channels' ``AuthMiddleware`` reads the session's user on the process's one database thread for
every handshake. A board page's socket usually carries no session cookie at all (players open
the board's link; they do not log in), and then the user is anonymous whatever the database
holds: Channels' own ``get_user`` finds no user id in an empty session. Skipping that call
takes one of the few database calls off each of the thousand openings of a hall whose Wi-Fi
comes back (docs/benchmarks.md, "A hall's Wi-Fi comes back"). A handshake with a session
cookie is resolved by Channels as before, a forged or expired one included.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser


class SessionUserMiddleware(AuthMiddleware):
    """``scope["user"]``: anonymous at once without a session cookie, else Channels' lookup."""

    async def resolve_scope(self, scope):
        if settings.SESSION_COOKIE_NAME not in scope.get("cookies", {}):
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


def user_middleware_stack(inner):
    """Channels' ``AuthMiddlewareStack`` with ``SessionUserMiddleware``."""
    return CookieMiddleware(SessionMiddleware(SessionUserMiddleware(inner)))
