"""Settings for the test suite: the real settings, with a throwaway secret and fast hashing.

The database and channel layer still come from ``DATABASE_URL`` / ``REDIS_URL``, so the same
suite runs on the embedded defaults and on PostgreSQL + Redis.
"""

import os
import tempfile
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("SECRET_KEY", "insecure-key-for-the-test-suite-only")
# One cache key prefix per test run, inherited by the run's server subprocesses: runs sharing
# a Redis database (CI passes, parallel runs) never see each other's throttle counts.
os.environ.setdefault("CACHE_KEY_PREFIX", f"ingenious-test-{os.getpid()}")
# Likewise for the channel layer's groups: board ids repeat across parallel runs' databases, and
# Redis publish/subscribe ignores the database number, so only a prefix keeps them apart.
os.environ.setdefault("CHANNEL_LAYER_PREFIX", f"ingenious-test-{os.getpid()}")
# Automatic backups of the suite's events go to a throwaway folder, never into data/.
os.environ.setdefault(
    "BACKUP_DIR", os.path.join(tempfile.gettempdir(), f"ingenious-test-backups-{os.getpid()}"))

# Parallel workers (pytest-xdist) each get a Redis database of their own: the suite empties the
# cache before every test (tests/conftest.py), and Redis empties a whole database at once, so
# a shared one would reset another worker's throttle counts mid-test. And a channel prefix of
# their own: the prefixes above are set once in the controlling process, which the workers
# inherit, while each worker has a database of its own whose board ids repeat the other's (two
# games on "board 50" would hear each other's views). Server subprocesses inherit both.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL") and not os.environ.get(
        "INGENIOUS_TEST_REDIS_SPLIT"):
    _url = urlsplit(os.environ["REDIS_URL"])
    _db = int(_url.path.strip("/") or 0) + 1 + int(_worker[2:])
    os.environ["REDIS_URL"] = urlunsplit(_url._replace(path=f"/{_db}"))
    os.environ["CHANNEL_LAYER_PREFIX"] = f"{os.environ['CHANNEL_LAYER_PREFIX']}-{_worker}"
    os.environ["INGENIOUS_TEST_REDIS_SPLIT"] = "1"

from tournament.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# The test client's host name, accepted only here.
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]  # noqa: F405
# The suite talks plain http to the test client and to its daphne subprocesses; production's
# HTTPS defaults are tested by tests/security/test_deploy.py with the real settings.
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False

# Tests drive the flag timer's tick themselves; a server subprocess may turn it on.
FLAG_TIMER = env_flag(ENV, "FLAG_TIMER", default=False)  # noqa: F405
# ... and run the pairing ahead of time in line where they test it (tests/autopilot).
AUTOPILOT_PAIR_AHEAD = env_flag(ENV, "AUTOPILOT_PAIR_AHEAD", default=False)  # noqa: F405
WORKER_GC = False  # Python's own collector in the suite and its servers

# Live-server tests (browser, scale-out) run daphne subprocesses on the test database, so an
# SQLite test database must be a file. One per pytest process, so parallel runs do not collide.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"].setdefault("TEST", {})["NAME"] = os.path.join(  # noqa: F405
        tempfile.gettempdir(), f"ingenious-test-{os.getpid()}.sqlite3"
    )
