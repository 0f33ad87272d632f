"""The origin check of the board-clock websockets: same scheme, host *and port* as the site.

A browser sends the page's origin with every websocket handshake but, unlike a form post,
the handshake is not covered by CSRF protection, so a page on another site (or another port
of the same host: ``http://localhost:9999``) could open a board's clock with a player's
cookies. Channels' ``AllowedHostsOriginValidator`` compares host names only; this check
compares ``scheme://host:port`` of the ``Origin`` header with the handshake's own (its
``Host`` header, which must be in ``ALLOWED_HOSTS``, and its scheme, taken from the
``SECURE_PROXY_SSL_HEADER`` behind a TLS proxy) or with an entry of ``CSRF_TRUSTED_ORIGINS``
(``https://*.example.org`` matches sub-domains, as for forms). Served locally, the loopback
names are one machine: a page of ``http://localhost:8000`` may open a socket on
``127.0.0.1:8000`` and the other way round (same scheme and port; both must be loopback, so
no outside page can use it). Anything else is refused, a missing ``Origin`` too.

A refused handshake is denied with HTTP 403 before any consumer runs, not accepted and then
closed: a page of another site gets no open socket and no message at all, which is what
Channels' own origin validator does too. Every client of this site's pages sends the right
``Origin`` (browsers always do); a program sees the 403 as its library's handshake error. The
accept-then-4403 refusal with a message is for what only a consumer can judge (a withdrawn
link, an unpublished round), docs/online-protocol.md "Sockets".
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """``("https", "td.example.org", 443)`` from ``https://td.example.org``; None if unusable."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.rstrip("."), port or DEFAULT_PORTS[scheme]


def _headers(scope) -> dict[str, str]:
    return {name.decode("latin1").lower(): value.decode("latin1")
            for name, value in scope.get("headers", [])}


def _scheme(scope, headers: dict[str, str]) -> str:
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, secure_value = proxy
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-")
        if headers.get(name, "").split(",")[0].strip() == secure_value:
            return "https"
    return "http"


def own_origin(scope) -> Origin | None:
    """The handshake's own origin, or None when its ``Host`` is missing or not allowed."""
    headers = _headers(scope)
    domain, port = split_domain_port(headers.get("host", ""))
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = _scheme(scope, headers)
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def _trusted(origin: Origin) -> bool:
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = parse_origin(entry.replace("://*.", "://", 1) if wildcard else entry)
        if trusted is None or trusted[0] != origin[0] or trusted[2] != origin[2]:
            continue
        if origin[1] == trusted[1] or (wildcard and is_same_domain(origin[1], f".{trusted[1]}")):
            return True
    return False


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _same_machine(origin: Origin, own: Origin) -> bool:
    """Both loopback names of one scheme and port: the same server, served locally."""
    return origin[0] == own[0] and origin[2] == own[2] and _loopback(origin[1]) \
        and _loopback(own[1])


def origin_allowed(scope) -> bool:
    """Whether a websocket handshake comes from a page of this site (see the module)."""
    own = own_origin(scope)
    if own is None:
        return False
    origin = parse_origin(_headers(scope).get("origin", ""))
    return origin is not None and (origin == own or _same_machine(origin, own)
                                   or _trusted(origin))


class SameOriginValidator:
    """ASGI middleware: websocket handshakes from another origin are denied (HTTP 403)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
