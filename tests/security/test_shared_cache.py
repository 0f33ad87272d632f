"""Issue #12: the throttles of the board API and the live scoresheet live in one cache shared by
every worker: Redis when REDIS_URL is set, the process's memory otherwise."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tournament.config import ConfigurationError, cache_config

ROOT = Path(__file__).resolve().parents[2]


def test_local_memory_without_redis_url():
    assert cache_config({})["default"]["BACKEND"] == (
        "django.core.cache.backends.locmem.LocMemCache")


def test_redis_cache_from_redis_url():
    config = cache_config({"REDIS_URL": "redis://127.0.0.1:6379/0",
                           "CACHE_KEY_PREFIX": "site-a"})["default"]
    assert config["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert (config["LOCATION"], config["KEY_PREFIX"]) == ("redis://127.0.0.1:6379/0", "site-a")


def test_a_malformed_redis_url_is_refused_for_the_cache_too():
    with pytest.raises(ConfigurationError, match="REDIS_URL"):
        cache_config({"REDIS_URL": "127.0.0.1:6379"})


def test_the_active_cache_follows_the_environment():
    expected = ("django.core.cache.backends.redis.RedisCache" if os.environ.get("REDIS_URL")
                else "django.core.cache.backends.locmem.LocMemCache")
    assert settings.CACHES["default"]["BACKEND"] == expected


COUNT_ONCE = """
import django, sys
django.setup()
from games import throttle
print(throttle.allow(sys.argv[1], limit=3, window_s=600))
"""


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI pass 2)")
def test_two_worker_processes_count_against_one_limit(tmp_path):
    """Five uses from five processes: the first three pass, the last two are refused."""
    key = f"shared-{os.getpid()}-{tmp_path.name}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    answers = [
        subprocess.run([sys.executable, "-c", COUNT_ONCE, key], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        for _ in range(5)
    ]
    assert answers == ["True", "True", "True", "False", "False"]
