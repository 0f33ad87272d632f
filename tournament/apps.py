from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self):
        from tournament import system_checks  # noqa: F401  (registers the checks)
        from tournament.boards import board_attachments
        from tournament.services.confirmations import confirmations_on_boards

        # the players' confirmations hang on a board like the other apps' records and clocks
        board_attachments.register("confirmations", confirmations_on_boards)
