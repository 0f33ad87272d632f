from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from games.attachments import record_origins, records_and_live_entries
        from games.services import carry_record_link
        from tournament import board_attachments, result_origins, signals

        board_attachments.register("games", records_and_live_entries)
        result_origins.register("games", record_origins)
        signals.result_carried_over.connect(carry_record_link, dispatch_uid="games-record-link")
