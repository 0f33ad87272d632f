"""HTTP pages of the board clocks (the websocket routes are in ``clocks/routing.py``)."""

from django.urls import path

from clocks import views

urlpatterns = [
    path("b/worker.js", views.board_worker, name="board_worker"),
    path("b/<str:token>/", views.board_page, name="board_page"),
    path("e/<slug:slug>/clocks/<int:number>/", views.clock_hall, name="clock_hall"),
    path("e/<slug:slug>/clocks/<int:number>/<int:board>/", views.clock_spectate,
         name="clock_spectate"),
    path("e/<slug:slug>/arbiter/boards/<int:board_id>/clock/", views.clock_log,
         name="clock_log"),
]
