"""Top-level URL configuration."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

from tournament.forms import LoginForm

#: Changes whenever a compiled catalogue does, so a deployment with new translations never
#: serves the previous ones from the cache (the cache key already holds the language).
_CATALOG_VERSION = max(
    (int(mo.stat().st_mtime) for path in settings.LOCALE_PATHS
     for mo in path.glob("*/LC_MESSAGES/djangojs.mo")),
    default=0,
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm),
         name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The scripts' translations (gettext, ngettext, interpolate), served by this server.
    path("jsi18n/", cache_page(86400, key_prefix=f"jsi18n-{_CATALOG_VERSION}")(
        JavaScriptCatalog.as_view()), name="javascript-catalog"),
    path("", include("tournament.event_urls")),
    path("", include("clocks.urls")),
    path("", include("games.urls")),
    path("", include("backups.urls")),
    path("", include("autopilot.urls")),
]

# Friendly error pages (DEBUG off, as `make run` serves): tournament/views/errors.py.
handler404 = "tournament.views.errors.not_found"
