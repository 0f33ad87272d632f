"""Board clocks as stored: one row per board holding the pure core's state, plus an audit log.

The core (``clocks/core/clock.py``) stores no ticking time, only events, so the row changes only
when
something happens (a press, a pause, a flag) and any process can derive the remaining times from
it and the current time. Only ``clocks.services`` writes these rows, under a row lock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clocks.core.clock import ClockState
from tournament.models import Board


class Clock(models.Model):
    """The clock of one board: the core's ``to_dict()`` plus columns the flag timer can query."""

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="clock")
    state = models.JSONField(_("state"))
    #: The core state's version, duplicated so that readers can compare without parsing JSON.
    version = models.PositiveIntegerField(_("version"), default=0)
    #: When the running side flags unless someone presses first (None: no clock runs). Indexed
    #: so that the flag timer finds the next alarm with one query, whatever the number of boards.
    deadline_ms = models.BigIntegerField(_("next deadline (ms)"), null=True, blank=True,
                                         db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: The board device's link as the hall shows it (``clocks.links``): its open sockets (by
    #: channel name: live, or silent since when), since when no socket is live, and the
    #: reconciled presses the arbiter has not looked at yet. Written on changes of the link only.
    link = models.JSONField(_("link"), default=dict, blank=True)
    #: The device that keeps the clock (``clocks.holder``): a hash of the random id its board
    #: page keeps in the browser; empty while no device does. Only its presses count. A
    #: column of its own, so that the press's lock statement reads it with the state.
    holder = models.CharField(_("device keeping the clock"), max_length=64, blank=True,
                              default="")
    #: When the device keeping the clock took it (server ms; None: no device ever did): its
    #: presses are credited for the silence it kept the clock through, not for time it spent
    #: watching before (``clocks.core.hearing.Silence.since``).
    holder_since_ms = models.BigIntegerField(_("device keeping the clock since (ms)"),
                                             null=True, blank=True)

    class Meta:
        verbose_name = _("clock")
        verbose_name_plural = _("clocks")

    def __str__(self) -> str:
        return f"clock of {self.board}"

    @property
    def core(self) -> ClockState:
        """The pure state this row stores."""
        return ClockState.from_dict(self.state)

    def store(self, state: ClockState) -> None:
        """Put ``state`` into the row's fields (the caller saves)."""
        self.state = state.to_dict()
        self.version = state.version
        self.deadline_ms = state.next_deadline_ms() if state.finished is None else None


class ClockLogEntry(models.Model):
    """One change of a clock: who, when (server time), what, and the state before and after.

    The states are stored without their ``presses`` and ``log`` lists: those only grow, are kept
    in the clock row, and the entry's ``detail`` holds the press or arbiter action it added, so
    the log stays small while every change can still be replayed.
    """

    class Action(models.TextChoices):
        START = "start", _("start")
        PRESS = "press", _("press")
        PAUSE = "pause", _("pause")
        RESUME = "resume", _("resume")
        ADJUST = "adjust", _("adjust")
        CORRECT = "correct", _("correct")
        FINISH = "finish", _("finish")
        FLAG = "flag", _("flag")
        DEVICE = "device", _("device keeping the clock")

    clock = models.ForeignKey(Clock, on_delete=models.CASCADE, related_name="log_entries")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    #: "player A", "player B", an arbiter's username, "flag timer", "players" (a device taken
    #: over with both players' agreement) or "board page" (the first device to open it).
    who = models.CharField(_("who"), max_length=150)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    server_ms = models.BigIntegerField(_("server time (ms)"))
    version = models.PositiveIntegerField(_("version after"))
    state_before = models.JSONField(null=True, blank=True)
    #: None for an entry restored from a backup, which keeps what happened but not the states
    #: (``clocks.archive``).
    state_after = models.JSONField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["clock", "id"]
        verbose_name = _("clock log entry")
        verbose_name_plural = _("clock log entries")

    def __str__(self) -> str:
        return f"{self.clock_id} v{self.version} {self.action} by {self.who}"


class ServerProcess(models.Model):
    """A process of the server (a worker, the flag timer) and when it was last alive: it
    writes ``alive_ms`` every second. When every process was down for a while (a restart), the
    gap between the last one alive and the first one up again is known, and the online games'
    clocks do not charge it to the players (``clocks.restart``)."""

    name = models.CharField(max_length=120, unique=True)
    started_ms = models.BigIntegerField()
    alive_ms = models.BigIntegerField()

    def __str__(self) -> str:
        return self.name


def compact(state: ClockState | None) -> dict | None:
    """A state for the log: everything but the append-only history lists."""
    if state is None:
        return None
    return state.to_dict(history=False)
