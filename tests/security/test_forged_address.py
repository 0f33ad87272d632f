"""The client's address behind the proxy: taken from the hop the deployment trusts, never from
what the client wrote (tournament/site/client_address.py). Through nginx and real workers the
deployment story probes the same limits (tests/deploy/)."""

from __future__ import annotations

import ipaddress

import pytest
from asgiref.sync import async_to_sync
from hypothesis import given
from hypothesis import strategies as st

from tournament.site.client_address import ClientAddressMiddleware, client_of, trusted_networks

NGINX = trusted_networks(["127.0.0.1", "::1"])

addresses = st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)).map(str)


def _plain(text: str) -> str:
    """An address as the middleware writes it (an IPv4-mapped IPv6 address as IPv4)."""
    address = ipaddress.ip_address(text)
    return str(getattr(address, "ipv4_mapped", None) or address)


outside = addresses.filter(lambda a: not ipaddress.ip_address(_plain(a)).is_loopback)
junk = st.one_of(addresses, st.text(alphabet="abc.:[] 0123456789", max_size=20))


@given(client=outside, forged=st.lists(junk, max_size=5))
def test_forged_address_entries_left_of_the_proxys_never_count(client, forged):
    """nginx's $proxy_add_x_forwarded_for appends the address it saw to what the client sent:
    whatever the client put before it, the client is the proxy's entry."""
    header = ", ".join([*forged, client])
    assert client_of("127.0.0.1", [header], NGINX) == _plain(client)


@given(peer=outside, forged=st.lists(addresses, max_size=5))
def test_forged_address_from_outside_the_proxy_is_not_read(peer, forged):
    """A request reaching a worker without passing the proxy is counted by its socket."""
    assert client_of(peer, [", ".join(forged)], NGINX) == peer


def test_forged_address_walks_back_through_trusted_hops_only():
    chain = trusted_networks(["127.0.0.1", "10.0.0.0/8"])  # nginx behind a load balancer
    assert client_of("127.0.0.1", ["6.6.6.6, 203.0.113.5, 10.1.2.3"], chain) == "203.0.113.5"
    assert client_of("127.0.0.1", ["203.0.113.5", "10.1.2.3"], chain) == "203.0.113.5"
    assert client_of("127.0.0.1", ["not-an-address"], chain) == "127.0.0.1"
    assert client_of("127.0.0.1", ["[2001:db8::7]:443"], chain) == "2001:db8::7"
    assert client_of("::ffff:127.0.0.1", ["203.0.113.5"], chain) == "203.0.113.5"
    assert client_of("127.0.0.1", [], chain) == "127.0.0.1"
    assert client_of("127.0.0.1", ["203.0.113.5"], ()) == "127.0.0.1"  # nothing trusted


def test_forged_address_a_wrong_trusted_proxy_stops_the_server():
    with pytest.raises(ValueError, match=r"TRUSTED_PROXIES: 'nginx' is not an address"):
        trusted_networks(["127.0.0.1", "nginx"])


def _scope_seen(trusted, scope_type, peer, headers):
    """What the application behind the middleware is given as ``scope["client"]``."""
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope.get("client")

    async def nothing():
        return {}

    scope = {"type": scope_type, "client": (peer, 51000), "headers": headers}
    async_to_sync(ClientAddressMiddleware(app, trusted))(scope, nothing, None)
    return seen["client"]


@pytest.mark.parametrize("scope_type", ["http", "websocket"])
def test_forged_address_is_settled_for_pages_and_sockets_alike(scope_type):
    forged = [(b"x-forwarded-for", b"10.8.1.9, 203.0.113.5"), (b"x-real-ip", b"10.8.2.9")]
    assert _scope_seen(["127.0.0.1"], scope_type, "127.0.0.1", forged)[0] == "203.0.113.5"
    # no trusted proxy (the embedded setup): the headers are not read at all
    assert _scope_seen([], scope_type, "127.0.0.1", forged) == ("127.0.0.1", 51000)
    # X-Real-IP alone is never believed
    assert _scope_seen(["127.0.0.1"], scope_type, "127.0.0.1",
                       [(b"x-real-ip", b"10.8.2.9")]) == ("127.0.0.1", 51000)


def test_forged_address_the_login_lockout_counts_the_same_address(settings, rf):
    from axes.helpers import get_client_ip_address

    request = rf.get("/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="10.8.1.9")
    assert get_client_ip_address(request) == "203.0.113.5"
    # a request without an address (a command, a test's force_login) is kept as none, not as a
    # word the address column of PostgreSQL refuses
    assert get_client_ip_address(rf.get("/", REMOTE_ADDR="")) is None
