"""Game records: the public viewer and downloads."""

from django.urls import path

from games import views

urlpatterns = [
    path("games/<int:record_id>/", views.game_viewer, name="game_viewer"),
]
