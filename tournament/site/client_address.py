"""The client's address, decided in one place for every request and every socket.

Every limit keyed on an address (the login lockout, wrong player codes, the kiosk, new logins)
reads ``REMOTE_ADDR``, which Django takes from the ASGI scope's ``client``. Behind a proxy that
is the proxy's own address, and the client's is in ``X-Forwarded-For``, which the client can
write too: nginx's ``$proxy_add_x_forwarded_for`` *appends* the address it saw to whatever the
client sent, so the first entry (the one daphne's ``--proxy-headers`` takes) is the client's
own word, and a client that changes it with every request was never counted twice.

So the address is taken from the hop the deployment trusts, and only from there: starting at
the socket's peer, while that address is one of ``TRUSTED_PROXIES`` (addresses or networks,
from the environment), the next address to its left in ``X-Forwarded-For`` is the one that
proxy saw. The first address that is not a trusted proxy is the client. A client's forged
entries lie to the left of the one its proxy added, where the walk never goes; a request that
reaches a worker without passing a trusted proxy is counted by its socket's peer, whatever it
says. ``X-Real-IP`` and ``Forwarded`` are never read. Without ``TRUSTED_PROXIES`` (the embedded
setup) no header is read at all.

The middleware rewrites ``scope["client"]`` before anything else sees it, for HTTP and
websockets alike, so the lockouts, the throttles and every log line use one address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``'s entries (``127.0.0.1``, ``10.0.0.0/8``, ``::1``) as networks.

    A wrong entry stops the server at start with its text, rather than trusting nothing (every
    client counted as the proxy) or, worse, something else."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError as exc:
            raise ValueError(f"TRUSTED_PROXIES: {entry!r} is not an address or a network") from exc
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [::1]:443
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # 203.0.113.9:51000
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return address.ipv4_mapped or address if isinstance(address, ipaddress.IPv6Address) else address


def _trusted(address, networks: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_of(peer: str, forwarded_for: list[str], networks: tuple[Network, ...]) -> str:
    """The client's address: ``peer`` (the socket's other end) unless it is a trusted proxy,
    then walking ``forwarded_for`` (every ``X-Forwarded-For`` entry, in order) from the right
    for as long as each hop is trusted. An entry that is not an address ends the walk at the
    last hop that could be trusted (the proxy vouches for nothing it cannot parse)."""
    current = peer
    hops = [entry for value in forwarded_for for entry in value.split(",") if entry.strip()]
    while _trusted(_address(current), networks) and hops:
        entry = _address(hops.pop())
        if entry is None:
            break
        current = str(entry)
    return current


class ClientAddressMiddleware:
    """ASGI middleware: ``scope["client"]`` becomes the client as ``client_of`` finds it."""

    def __init__(self, app, trusted: Iterable[str]):
        self.app = app
        self.networks = trusted_networks(trusted)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and self.networks:
            peer = (scope.get("client") or ("",))[0]
            forwarded = [value.decode("latin-1") for name, value in scope.get("headers", ())
                         if name.lower() == b"x-forwarded-for"]
            client = client_of(str(peer or ""), forwarded, self.networks)
            if client != peer:
                scope = dict(scope, client=(client, 0))
        return await self.app(scope, receive, send)
