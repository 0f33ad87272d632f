"""Where players' phones reach this server: the address of every QR code and printed link.

An arbiter who follows the README opens the pages on the laptop itself, as
``http://127.0.0.1:8000/``, and a scoresheet printed from there would carry a QR code no phone
can open. So a link made for a phone never uses a loopback address: the site's address
(``PUBLIC_BASE_URL``) when it is set, else the address the request came to, with a loopback
host replaced by the machine's address on the hall's network (same scheme and port). The
print page warns when no such address is known.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournament.config import hall_addresses, is_loopback


def base_url(request) -> str:
    """Scheme, host and port that players' phones reach, without a trailing slash."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL
    base = request.build_absolute_uri("/").rstrip("/")
    parts = urlsplit(base)
    if is_loopback(parts.hostname or "") and hall_addresses():
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{hall_addresses()[0]}{port}"
    return base


def command_base_url() -> str:
    """The address for links made without a request (``export_pdf``): the site's address, or
    this machine's on the hall's network at ``make run``'s port."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL
    host = (hall_addresses() or ("127.0.0.1",))[0]
    return f"http://{host}:{settings.SERVE_PORT}"


def absolute_url(request, path: str) -> str:
    """``path`` (from ``reverse``) as a link a phone in the hall can open."""
    return base_url(request) + path


def unreachable_warning(request) -> str | None:
    """What the print page says when its QR codes would point at this machine alone."""
    base = base_url(request)
    if not is_loopback(urlsplit(base).hostname or ""):
        return None
    return _("The QR codes and links point at %(base)s, which only this computer can open: no "
             "phone will reach it. Start the server with make run (it serves the hall's "
             "network) and open these pages through the address it prints, or set "
             "PUBLIC_BASE_URL.") % {"base": base}
