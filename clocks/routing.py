"""Websocket routes of the board clocks."""

websocket_urlpatterns: list = []
