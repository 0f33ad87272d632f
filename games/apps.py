from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from clocks.access import (
            register_command_owner,
            register_hall_feed,
            register_press_guard,
            register_spectator_page,
        )
        from clocks.flagtimer import register_flag_listener
        from games.attachments import (
            online_seat_links,
            online_watch_pages,
            record_origins,
            records_and_live_entries,
        )
        from games.news import on_event_signal
        from games.online.arbiter import hall_feed
        from games.online.play import (
            arbiter_command,
            flag_fell,
            online_board_sql,
            press_guard,
            round_published,
            watch_path,
        )
        from games.services import carry_record_link, online_result_guard
        from tournament import signals
        from tournament.boards import board_attachments, links
        from tournament.services import register_result_guard

        board_attachments.register("games", records_and_live_entries)
        links.result_sources.register("games", record_origins)
        links.board_pages.register("online games", online_watch_pages)
        links.personal_links.register("online games", online_seat_links)
        signals.result_carried_over.connect(carry_record_link, dispatch_uid="games-record-link")
        signals.round_published.connect(round_published, dispatch_uid="games-online-event")
        for signal in (signals.round_published, signals.round_closed, signals.players_changed):
            signal.connect(on_event_signal, dispatch_uid="games-news")
        register_press_guard("online games", press_guard, online_board_sql())
        register_flag_listener("online games", flag_fell)
        register_spectator_page("online games", watch_path)
        register_hall_feed("online games", hall_feed)
        register_command_owner("online games", arbiter_command)
        register_result_guard("online games", online_result_guard)
