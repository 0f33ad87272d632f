"""URLs of the event app: public pages under ``e/<slug>/``, the arbiter's under ``arbiter/``
(the backup pages, beside them, are the ``backups`` app's)."""

from django.urls import path

from tournament.printing import views as print_views
from tournament.views import checkin as views_checkin
from tournament.views import confirm as views_confirm
from tournament.views import guide as views_guide
from tournament.views import kiosk as views_kiosk
from tournament.views import logins as views_logins
from tournament.views import my_games as views_my_games
from tournament.views import player_page as views_player_page
from tournament.views import public as views_public
from tournament.views import trf as views_trf
from tournament.views.arbiter import event as arbiter_event
from tournament.views.arbiter import players as arbiter_players
from tournament.views.arbiter import results as arbiter_results
from tournament.views.arbiter import rounds as arbiter_rounds

urlpatterns = [
    path("", views_public.home, name="home"),
    path("events/new/", arbiter_event.event_create, name="event_create"),
    path("guide/", views_guide.guide, name="arbiter_guide"),
    path("guide/images/<str:name>", views_guide.guide_image, name="arbiter_guide_image"),
    path("my-games/", views_my_games.my_games, name="my_games"),
    path("my-games/state.json", views_my_games.my_games_state, name="my_games_state"),
    path("my-games/confirm/<int:board_id>/", views_confirm.my_games_confirm,
         name="my_games_confirm"),
    path("card/<str:code>/confirm/", views_player_page.card_confirm,
         name="card_confirm"),
    path("invitations/<str:secret>/", views_logins.accept, name="login_invitation"),
    path("card/<str:code>/", views_player_page.personal_page, name="player_card"),
    path("e/<slug:slug>/", views_public.event_home, name="event_home"),
    path("e/<slug:slug>/kiosk/", views_kiosk.kiosk, name="event_kiosk"),
    path("e/<slug:slug>/pairings/", views_public.pairings, name="event_pairings"),
    path("e/<slug:slug>/pairings/by-name/", views_public.pairings_by_name,
         name="event_pairings_by_name"),
    path("e/<slug:slug>/results/", views_public.results, name="event_results"),
    path("e/<slug:slug>/standings/", views_public.standings, name="event_standings"),
    path("e/<slug:slug>/crosstable/", views_public.crosstable, name="event_crosstable"),
    path("e/<slug:slug>/players/<int:player_id>/", views_public.player_detail,
         name="player_detail"),
    path("e/<slug:slug>/projector/", views_public.projector, name="event_projector"),
    path("e/<slug:slug>/print/<str:document>.pdf", print_views.print_document,
         name="print_document"),
    # arbiter
    path("e/<slug:slug>/arbiter/", arbiter_event.dashboard, name="arbiter_dashboard"),
    path("e/<slug:slug>/arbiter/settings/", arbiter_event.event_settings, name="arbiter_settings"),
    path("e/<slug:slug>/arbiter/players/", arbiter_players.players, name="arbiter_players"),
    path("e/<slug:slug>/arbiter/players/import/", arbiter_players.players_import,
         name="arbiter_players_import"),
    path("e/<slug:slug>/arbiter/players/invite/", views_logins.invite_players,
         name="arbiter_players_invite"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/", arbiter_players.player_edit,
         name="arbiter_player_edit"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/login/invite/",
         views_logins.invite_player, name="arbiter_player_invite"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/login/withdraw/",
         views_logins.withdraw_login, name="arbiter_player_login_withdraw"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/withdraw/",
         arbiter_players.player_withdraw, name="arbiter_player_withdraw"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/reinstate/",
         arbiter_players.player_reinstate, name="arbiter_player_reinstate"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/absence/",
         arbiter_players.player_absence, name="arbiter_player_absence"),
    path("e/<slug:slug>/arbiter/absences/<int:absence_id>/cancel/",
         arbiter_players.absence_cancel, name="arbiter_absence_cancel"),
    path("e/<slug:slug>/arbiter/pair/", arbiter_rounds.round_pair, name="arbiter_round_pair"),
    path("e/<slug:slug>/arbiter/no-shows/", arbiter_event.no_shows, name="arbiter_no_shows"),
    path("e/<slug:slug>/arbiter/rounds/<int:number>/", arbiter_rounds.round_detail,
         name="arbiter_round"),
    path("e/<slug:slug>/arbiter/rounds/<int:number>/results/", arbiter_results.result_entry,
         name="arbiter_results"),
    path("e/<slug:slug>/arbiter/rounds/<int:number>/<str:action>/", arbiter_rounds.round_action,
         name="arbiter_round_action"),
    path("e/<slug:slug>/arbiter/boards/<int:board_id>/", arbiter_results.board_result,
         name="arbiter_board"),
    path("e/<slug:slug>/arbiter/boards/<int:board_id>/accept/<str:seat>/",
         arbiter_results.accept_confirmation, name="arbiter_accept_confirmation"),
    path("e/<slug:slug>/arbiter/boards/<int:board_id>/token/<str:action>/",
         arbiter_results.board_token, name="arbiter_board_token"),
    path("e/<slug:slug>/arbiter/conflicts/<int:result_id>/", arbiter_results.conflict_resolve,
         name="arbiter_conflict"),
    path("e/<slug:slug>/arbiter/print/", print_views.print_menu, name="arbiter_print"),
    path("e/<slug:slug>/arbiter/print/cards.pdf", views_checkin.print_cards,
         name="arbiter_print_cards"),
    path("e/<slug:slug>/arbiter/checkin/<str:action>/", views_checkin.open_close,
         name="arbiter_checkin_open_close"),
    path("e/<slug:slug>/arbiter/checkin-players/<int:player_id>/", views_checkin.tick,
         name="arbiter_checkin_tick"),
    path("e/<slug:slug>/arbiter/checkin-absent/", views_checkin.mark_absent,
         name="arbiter_checkin_mark_absent"),
    path("e/<slug:slug>/arbiter/checkin-absent/<int:absence_id>/unmark/", views_checkin.unmark,
         name="arbiter_checkin_unmark"),
    path("e/<slug:slug>/arbiter/kiosk/unlock/", views_checkin.kiosk_unlock,
         name="arbiter_kiosk_unlock"),
    path("e/<slug:slug>/arbiter/kiosk/lock-all/", views_checkin.kiosk_lock_all,
         name="arbiter_kiosk_lock_all"),
    path("e/<slug:slug>/arbiter/players/<int:player_id>/card/<str:action>/",
         views_checkin.card_action, name="arbiter_player_card"),
    path("e/<slug:slug>/arbiter/export/event.trf", views_trf.export_trf,
         name="arbiter_export_trf"),
]
