"""Game records: submission, live entry at the board, the public viewer and downloads; the
pages of online games."""

from django.urls import path

from games import views
from games.online import arbiter as online_arbiter
from games.online import views as online_views

urlpatterns = [
    path("games/<int:record_id>/", views.game_viewer, name="game_viewer"),
    path("games/<int:record_id>.<str:fmt>", views.game_download, name="game_download"),
    path("b/<str:token>/record/", views.player_submit, name="player_submit"),
    path("b/<str:token>/live/", views.live_view, name="live_state"),
    path("b/<str:token>/live/<str:action>/", views.live_view, name="live_action"),
    path("api/records/", views.api_submit, name="api_submit"),
    path("p/<str:token>/", online_views.online_play, name="online_play"),
    path("e/<slug:slug>/online/<int:number>/<int:board>/", online_views.online_watch,
         name="online_watch"),
    path("e/<slug:slug>/online/<int:number>/games.json", online_views.online_games,
         name="online_games"),
    path("e/<slug:slug>/arbiter/online/event/<str:action>/", online_arbiter.online_event_action,
         name="online_event_action"),
    path("e/<slug:slug>/arbiter/online/<int:number>/", online_arbiter.online_round,
         name="online_round"),
    path("e/<slug:slug>/arbiter/online/<int:number>/slips/", online_arbiter.online_slips,
         name="online_slips"),
    path("e/<slug:slug>/arbiter/online/<int:number>/feed.json",
         online_arbiter.online_round_feed, name="online_round_feed"),
    path("e/<slug:slug>/arbiter/online/<int:number>/<str:action>/",
         online_arbiter.online_round_action, name="online_round_action"),
    path("e/<slug:slug>/arbiter/boards/<int:board_id>/record/", views.arbiter_submit,
         name="arbiter_submit"),
    path("e/<slug:slug>/arbiter/records/", views.arbiter_submit_any, name="arbiter_records"),
]
