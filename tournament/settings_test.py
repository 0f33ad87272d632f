"""Settings for the test suite: the real settings, with a throwaway secret and fast hashing.

The database and channel layer still come from ``DATABASE_URL`` / ``REDIS_URL``, so the same
suite runs on the embedded defaults and on PostgreSQL + Redis.
"""

import os

os.environ.setdefault("SECRET_KEY", "insecure-key-for-the-test-suite-only")

from tournament.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
