from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")

    def ready(self):
        from clocks.attachments import started_clocks
        from tournament.board_attachments import register

        register("clocks", started_clocks)
