"""Django settings for the Ingenious tournament director.

Everything that differs between a laptop at the venue and a scaled-out deployment comes from
the environment (see ``tournament/config.py`` and ``docs/deployment.md``):

- ``DEBUG`` (default off), ``SECRET_KEY`` (required in production: ``DEBUG`` off with
  ``DATABASE_URL`` set; the embedded setup keeps a local one in ``DATA_DIR``);
- ``DATABASE_URL`` (default: SQLite in ``DATA_DIR``), ``REDIS_URL`` (default: in-memory layer);
- ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS`` (comma-separated), ``DATA_DIR``, ``BACKUP_DIR``;
- ``TLS_PROXY``, ``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_*``, ``SECURE_COOKIES``: HTTPS behaviour,
  on by default in production (``DEBUG`` off with ``DATABASE_URL``), off in the embedded setup;
- ``PUBLIC_BASE_URL``: where phones reach the server (QR codes), detected when unset;
- ``TRUSTED_PROXIES``: the proxies whose ``X-Forwarded-For`` names the client (none by default).
"""

import datetime
import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from tournament.config import (
    cache_config,
    channel_layers_config,
    database_config,
    embedded,
    env_flag,
    env_list,
    hall_addresses,
    secret_key,
)
from tournament.site.client_address import trusted_networks

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = env_flag(ENV, "DEBUG", default=False)
DATA_DIR = Path(ENV.get("DATA_DIR", BASE_DIR / "data"))
DATA_DIR.mkdir(parents=True, exist_ok=True)
SECRET_KEY = secret_key(ENV, DEBUG, DATA_DIR)
#: The embedded setup (no DATABASE_URL) is what `make run` serves to the hall's network: plain
#: http, this machine's own addresses accepted as hosts.
EMBEDDED = embedded(ENV)
ALLOWED_HOSTS = env_list(ENV, "ALLOWED_HOSTS", [
    "127.0.0.1", "localhost", "[::1]", *(hall_addresses() if EMBEDDED else ())])
CSRF_TRUSTED_ORIGINS = env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])

#: Automatic backups: every closed round and every AUTO_BACKUP_EVERY results write the event's
#: JSON backup to BACKUP_DIR/<slug>/, keeping the newest AUTO_BACKUP_KEEP.
BACKUP_DIR = Path(ENV.get("BACKUP_DIR", DATA_DIR / "backups"))
AUTO_BACKUP_EVERY = 20
AUTO_BACKUP_KEEP = 50

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
    "axes",
    "csp",
    "tournament",
    "games",
    "clocks",
    "backups",
    "autopilot",
    "bench",  # the benchmarks' commands (bench_clocks, ...): imported by no other app
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every page the site renders (not the static files WhiteNoise serves above it).
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.site.middleware.RefusalMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
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
                "tournament.site.context_processors.player_account",
            ],
        },
    },
]

WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"

DATABASES = {"default": database_config(ENV, DATA_DIR)}
CHANNEL_LAYERS = channel_layers_config(ENV)
# Websocket messages (docs/online-protocol.md, "Limits"): the consumers refuse a message over
# WEBSOCKET_MESSAGE_LIMIT bytes with an error and keep the socket (a move is under 200 bytes).
# The ASGI server cuts the connection only past WEBSOCKET_SERVER_LIMIT (with no word: the client
# sees 1006), so that every message between the two is answered. Daphne's own default is 1 MiB;
# `runserver` reads the two DAPHNE_ settings, and the server command lines of
# docs/deployment.md and bench.servers give the same number.
WEBSOCKET_MESSAGE_LIMIT = 64 * 1024
WEBSOCKET_SERVER_LIMIT = 4 * 1024 * 1024
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = WEBSOCKET_SERVER_LIMIT
# A worker lets this many websocket handshakes through at a time, newest first, and denies one
# that waits 4 s (tournament/site/websocket_admission.py): a hall reconnecting at once then comes
# back instead of every handshake timing out. A bigger machine may take more.
_AT_ONCE = ENV.get("WEBSOCKET_HANDSHAKES_AT_ONCE", "")
WEBSOCKET_HANDSHAKES_AT_ONCE = int(_AT_ONCE) if _AT_ONCE.isdigit() and int(_AT_ONCE) else 32
# The throttles of the board API and the live scoresheet count here: Redis with REDIS_URL, so
# every worker counts against one limit.
CACHES = cache_config(ENV)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one user name
# from one address, that pair is refused for an hour (429 and the lockout page), whichever
# worker answers: the attempts are counted in the database. Locking the pair, not the address
# alone, keeps a venue behind one NAT address usable while someone guesses at one account.
# `python manage.py axes_reset` (or the admin) lifts a lockout early.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(ENV.get("LOGIN_FAILURE_LIMIT") or 5)
AXES_COOLOFF_TIME = datetime.timedelta(hours=1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# The address is the one every other limit counts (tournament/site/client_address.py).
AXES_CLIENT_IP_CALLABLE = "tournament.site.throttle.lockout_address"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The five languages of the pages, the JavaScript catalog and the PDFs (locale/<code>/); the
# switcher shows each in its own language. An event prints in its own ``print_language``.
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
    ("sv", _("Swedish")),
    ("ko", _("Korean")),
    ("de", _("German")),
]
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

# Content-Security-Policy (django-csp; docs/deployment.md): every script, style, image, font
# and socket is the site's own, served by itself (no CDN: it works offline at the venue), and
# no page has inline script, style attributes or event-handler attributes; page data goes in
# data attributes or <script type="application/json"> blocks, which are not run. 'self' in
# connect-src covers the site's own ws:// and wss:// sockets (CSP level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# HTTPS. Production (DEBUG off, DATABASE_URL set) is HTTPS-only unless the environment says
# otherwise; the embedded setup serves the hall's network in plain http (a laptop has no
# certificate a phone would trust), so there these defaults are off:
# redirect to https, HSTS for a year, cookies only over https (`check --deploy` is clean).
# Behind a TLS-terminating proxy set TLS_PROXY=1: the proxy's X-Forwarded-Proto then tells
# Django the request was https (request.is_secure(), https links in the QR codes, no redirect
# loop). Only set it when the proxy overwrites that header: a client could forge it otherwise.
# The client's address (for the lockouts and throttles) is taken from the hop the deployment
# trusts: TRUSTED_PROXIES lists the proxies (addresses or networks, comma-separated) whose
# X-Forwarded-For entry is believed, from the right; without it no header is read
# (tournament/site/client_address.py). daphne runs without --proxy-headers.
TRUSTED_PROXIES = env_list(ENV, "TRUSTED_PROXIES", [])
trusted_networks(TRUSTED_PROXIES)  # a wrong entry stops the server here, with its text
if env_flag(ENV, "TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
HTTPS_ONLY = not DEBUG and not EMBEDDED
SECURE_SSL_REDIRECT = env_flag(ENV, "SECURE_SSL_REDIRECT", default=HTTPS_ONLY)
SECURE_HSTS_SECONDS = int(ENV.get("SECURE_HSTS_SECONDS") or (31_536_000 if HTTPS_ONLY else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag(ENV, "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_flag(ENV, "SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = env_flag(ENV, "SECURE_COOKIES", default=HTTPS_ONLY)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    # django-axes logs every login at INFO; lockouts (WARNING) are what an operator needs.
    "loggers": {"axes": {"level": "WARNING"}},
}

# Where players' phones reach this server, for QR codes and printed links
# (tournament/site/site_address.py). Unset: the address a page was asked at, a loopback one replaced
# by this machine's address on the hall's network. Behind a proxy set it to the public address.
PUBLIC_BASE_URL = ENV.get("PUBLIC_BASE_URL", "").strip().rstrip("/")
#: The port ``make run`` serves on, for links made without a request (``export_pdf``).
SERVE_PORT = int(ENV.get("PORT", "8000")) if ENV.get("PORT", "8000").isdigit() else 8000

# The flag timer announces flags nobody pressed for. On in the embedded setup (it runs inside the
# server process); `off` in scale-out workers, where `manage.py run_flag_timer` owns it.
FLAG_TIMER = env_flag(ENV, "FLAG_TIMER", default=True)
# A self-running event pairs its next round ahead of time while the round's last game is being
# played, one engine run per outcome, at a lower priority (autopilot/pair_ahead.py).
AUTOPILOT_PAIR_AHEAD = env_flag(ENV, "AUTOPILOT_PAIR_AHEAD", default=True)
# An ASGI worker's garbage collector, tuned for thousands of open sockets
# (tournament/site/worker_gc.py); WORKER_GC=off keeps Python's defaults.
WORKER_GC = env_flag(ENV, "WORKER_GC", default=True)
