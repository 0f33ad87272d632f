from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BackupsConfig(AppConfig):
    """Whole-event backups: the JSON document, its import, the automatic copies on disk.

    A layer above the event app and the games app, because a backup carries both: the event's
    players, rounds and results, and the game records the results were derived from.
    """

    name = "backups"
    verbose_name = _("Backups")

    def ready(self):
        from backups import automatic
        from clocks.flagtimer import register_tick_listener
        from tournament import signals

        signals.round_closed.connect(automatic.round_closed, dispatch_uid="backup-round")
        # the process that owns the flag timer writes the backups a dead server still owes
        register_tick_listener("owed backups", automatic.write_owed)
        signals.result_stored.connect(automatic.result_stored, dispatch_uid="backup-result")
