from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")

    def ready(self):
        from clocks.attachments import started_clocks
        from tournament.board_attachments import register

        register("clocks", started_clocks)

        from tournament import signals

        signals.result_stored.connect(stop_clock_for_result, dispatch_uid="clocks-result")
        signals.round_closed.connect(stop_clocks_of_closed_round, dispatch_uid="clocks-closed")


def stop_clock_for_result(sender, *, event, result, **kwargs):
    """A stored result ends the game (a resignation, a confirmed scoresheet, the arbiter's
    entry): the board's clock stops in the same transaction."""
    from clocks import services

    services.stop_for_result(result.board, who="result")


def stop_clocks_of_closed_round(sender, *, event, number, **kwargs):
    """Nothing of a closed round keeps ticking, whatever its boards' results said."""
    from clocks import services

    round_ = event.rounds.get(number=number)
    services.stop_round(round_, who="round closed")
