"""Websocket routes of online games (wrapped in origin and session checks in asgi.py)."""

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/play/<str:token>/", consumers.PlayConsumer.as_asgi()),
    path("ws/watch/<int:board_id>/", consumers.WatchConsumer.as_asgi()),
    path("ws/news/", consumers.NewsConsumer.as_asgi()),
]
