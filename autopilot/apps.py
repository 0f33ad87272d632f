from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AutopilotConfig(AppConfig):
    """Online events that run themselves: players register on the event's page,
    and the server pairs, publishes, deals, starts, forfeits no-shows and closes each round.

    A layer above the games and clocks apps (it drives both) beside the backups; the flag
    timer's process runs it (``clocks.flagtimer.register_tick_listener``), so that exactly one
    process does, with or without a browser open.
    """

    name = "autopilot"
    verbose_name = _("Events that run themselves")

    def ready(self):
        from autopilot import runner, schedule
        from clocks.flagtimer import register_tick_listener
        from tournament.boards import links

        register_tick_listener("autopilot", runner.tick)
        links.player_schedules.register("autopilot", schedule.player_schedules)
        links.event_entries.register("autopilot", schedule.event_entries)
        links.automations.register("autopilot", schedule.automations)
