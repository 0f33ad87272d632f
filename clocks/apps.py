from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")

    def ready(self):
        from clocks.attachments import started_clocks
        from tournament.boards.board_attachments import register

        register("clocks", started_clocks)

        from clocks.log_text import board_logs
        from tournament.boards import links

        links.clock_logs.register("clocks", board_logs)

        from clocks import services
        from tournament import signals

        signals.result_stored.connect(services.on_result_stored, dispatch_uid="clocks-result")
        signals.round_closed.connect(services.on_round_closed, dispatch_uid="clocks-closed")
