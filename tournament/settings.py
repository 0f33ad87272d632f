"""Django settings for the Ingenious tournament director.

Everything that differs between a laptop at the venue and a scaled-out deployment comes from
the environment (see ``tournament/config.py`` and ``docs/deployment.md``):

- ``DEBUG`` (default off), ``SECRET_KEY`` (required when ``DEBUG`` is off);
- ``DATABASE_URL`` (default: SQLite in ``DATA_DIR``), ``REDIS_URL`` (default: in-memory layer);
- ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS`` (comma-separated), ``DATA_DIR``.
"""

import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from tournament.config import (
    channel_layers_config,
    database_config,
    env_flag,
    env_list,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = env_flag(ENV, "DEBUG", default=False)
SECRET_KEY = secret_key(ENV, DEBUG)
ALLOWED_HOSTS = env_list(ENV, "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])

DATA_DIR = Path(ENV.get("DATA_DIR", BASE_DIR / "data"))
DATA_DIR.mkdir(parents=True, exist_ok=True)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_tables2",
    "tournament",
    "games",
    "clocks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"

DATABASES = {"default": database_config(ENV, DATA_DIR)}
CHANNEL_LAYERS = channel_layers_config(ENV)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = ENV.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(ENV.get("STATIC_ROOT", DATA_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Serve files straight from the finders when collectstatic has not run (development, tests).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DJANGO_TABLES2_TEMPLATE = "tables/table.html"

# Uploaded game records are small; refuse anything absurd before it reaches a view.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag(ENV, "SECURE_COOKIES", default=False)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
}

# Where players reach this server: used in QR codes on printed scoresheets when no request is
# at hand (the export_pdf command). Behind a proxy set it to the public address.
PUBLIC_BASE_URL = ENV.get("PUBLIC_BASE_URL", "http://127.0.0.1:8000").rstrip("/")

# The flag timer announces flags nobody pressed for. On in the embedded setup (it runs inside the
# server process); `off` in scale-out workers, where `manage.py run_flag_timer` owns it.
FLAG_TIMER = env_flag(ENV, "FLAG_TIMER", default=True)
