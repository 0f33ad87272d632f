"""ASGI entry point: HTTP through Django, websockets (board clocks, online games) through
Channels.

Websocket handshakes must come from a page of this site, scheme, host and port alike
(``tournament/site/websocket_origin.py``), so that a page on another site cannot drive a board's
clock with a player's cookies. A handshake on a path that no route takes is denied with HTTP 403
too, not answered with a 500 (``tournament/site/websocket_routes.py``).
"""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from clocks.flagtimer import FlagTimerMiddleware  # noqa: E402
from clocks.routing import websocket_urlpatterns as clock_routes  # noqa: E402
from games.routing import websocket_urlpatterns as game_routes  # noqa: E402
from tournament.site import worker_gc  # noqa: E402
from tournament.site.client_address import ClientAddressMiddleware  # noqa: E402
from tournament.site.websocket_admission import AdmissionGate  # noqa: E402
from tournament.site.websocket_origin import SameOriginValidator  # noqa: E402
from tournament.site.websocket_routes import router  # noqa: E402
from tournament.site.websocket_user import user_middleware_stack  # noqa: E402

# Handshakes go through a few at a time (tournament/site/websocket_admission.py), so that a
# hall reconnecting at once gets its sockets back instead of every handshake timing out.
# The flag timer wrapper starts the embedded flag timer in this process's event loop (unless
# FLAG_TIMER is off) and answers ASGI lifespan events; see clocks/flagtimer.py.
# The client's address is settled first, for HTTP and websockets alike
# (tournament/site/client_address.py): every limit and log line after it sees the same one.
application = FlagTimerMiddleware(ClientAddressMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AdmissionGate(SameOriginValidator(
                user_middleware_stack(router(clock_routes + game_routes))
            )),
        }
    ),
    settings.TRUSTED_PROXIES,
))

if settings.WORKER_GC:
    worker_gc.tune()
