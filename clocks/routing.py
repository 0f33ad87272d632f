"""Websocket routes of the board clocks (wrapped in origin and session checks in asgi.py)."""

from django.urls import path

from clocks import consumers

websocket_urlpatterns = [
    path("ws/board/<str:token>/", consumers.BoardConsumer.as_asgi()),
    path("ws/spectate/<int:board_id>/", consumers.SpectateConsumer.as_asgi()),
    path("ws/hall/<int:round_id>/", consumers.HallConsumer.as_asgi()),
]
