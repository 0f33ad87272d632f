"""Reading the deployment's configuration from the environment.

Kept apart from ``settings.py`` and free of Django imports so that the selection logic
(SQLite or PostgreSQL, in-memory or Redis channel layer, the production secret check) can be
tested by calling plain functions with a dictionary instead of reloading settings.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import os
import secrets
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


class ConfigurationError(RuntimeError):
    """The environment does not describe a deployment we can start."""


def env_flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    """A yes/no setting: ``1``, ``true``, ``yes`` and ``on`` (any case) mean yes."""
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in TRUE_WORDS


def env_list(env: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """A comma-separated list; empty items are dropped."""
    raw = env.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def embedded(env: Mapping[str, str]) -> bool:
    """The embedded setup: one process on SQLite, a laptop at the venue serving plain http on
    the hall's network (no ``DATABASE_URL``)."""
    return not env.get("DATABASE_URL", "").strip()


def database_config(env: Mapping[str, str], data_dir: Path) -> dict[str, Any]:
    """SQLite in the data folder unless ``DATABASE_URL`` names another database."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(data_dir / "db.sqlite3"),
            # Several writers (clock presses, result entry) share one file: wait for the lock
            # instead of failing at once.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    return config


def redis_url(env: Mapping[str, str]) -> str:
    """``REDIS_URL`` checked for a scheme redis-py understands, or ``""`` when unset."""
    url = env.get("REDIS_URL", "").strip()
    if url and not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigurationError(
            f"REDIS_URL must start with redis://, rediss:// or unix://: {url!r}"
        )
    return url


def channel_layers_config(env: Mapping[str, str]) -> dict[str, Any]:
    """The in-memory layer for one process; Redis (``REDIS_URL``) for several workers."""
    url = redis_url(env)
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Redis publish/subscribe: a group send is one PUBLISH, and every worker receives pushed
    # messages on one subscribed connection. The list-based RedisChannelLayer needed about four
    # round trips per message received, one message at a time per worker, which queued clock
    # snapshots for seconds at a few hundred presses a minute. Its messages are not kept for
    # absent receivers, which clock clients do not need (they re-sync on reconnecting).
    # ``CHANNEL_LAYER_PREFIX`` keeps several sites (or test runs) on one Redis apart: publish/
    # subscribe channels ignore the database number, so only the prefix separates them.
    prefix = env.get("CHANNEL_LAYER_PREFIX", "asgi").strip() or "asgi"
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": prefix},
        }
    }


def cache_config(env: Mapping[str, str]) -> dict[str, Any]:
    """Django's cache, which holds the request throttles (games/throttle.py).

    Redis (``REDIS_URL``) when it is set, so that every worker counts against the same limits;
    otherwise the local memory of the one process of the embedded setup. ``CACHE_KEY_PREFIX``
    keeps several sites (or test runs) on one Redis database apart.
    """
    url = redis_url(env)
    prefix = env.get("CACHE_KEY_PREFIX", "ingenious").strip()
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                            "KEY_PREFIX": prefix}}
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": url, "KEY_PREFIX": prefix}}


def secret_key(env: Mapping[str, str], debug: bool, data_dir: Path | None = None) -> str:
    """The secret key: from the environment, or for the embedded setup a local one.

    A production deployment (``DEBUG`` off with ``DATABASE_URL`` set) must give
    ``SECRET_KEY``: several workers need the same key, and it belongs to the operator's secrets.
    The embedded setup (SQLite in ``data_dir``) creates a random key once in
    ``data_dir/secret-key.txt``, readable by its owner only, as the demo password is, so that
    ``manage.py`` commands run without any variable set.
    """
    key = env.get("SECRET_KEY", "").strip()
    if key:
        return key
    if env.get("DATABASE_URL", "").strip() and not debug:
        raise ConfigurationError(
            "SECRET_KEY is not set. A production deployment (DEBUG off, DATABASE_URL set) "
            "needs a secret key from the environment, e.g. "
            "SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    if data_dir is None:
        raise ConfigurationError("SECRET_KEY is not set and there is no data folder for a "
                                 "local key.")
    return _local_key(data_dir / "secret-key.txt")


def _local_key(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(key + "\n")
    except FileExistsError:  # another process created it first: use theirs
        return path.read_text(encoding="ascii").strip()
    return key


LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, an IPv6 one bracketed or not) is this machine
    alone."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@functools.cache
def hall_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses on its networks, the likeliest first (computed once).

    The route the system would take towards a private address names the address the hall's
    network knows: a UDP socket's ``connect`` only chooses that route and sends nothing. The
    host name's own addresses follow. Loopback and link-local addresses are left out.
    """
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 9))  # no packet leaves: UDP connect routes only
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        found.extend(socket.gethostbyname_ex(socket.gethostname())[2])
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in usable:
            usable.append(address)
    return tuple(usable)
