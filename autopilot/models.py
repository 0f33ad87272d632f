"""What the organiser of a self-running online event set, where the automation stands, and the
players' own registrations."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.inputs.validation import one_line
from tournament.models import MAX_RATING


class Autopilot(models.Model):
    """An event that runs itself. The row is locked for every step (``autopilot.runner``), so
    two processes that tick by mistake take turns and the second finds the step done."""

    class Schedule(models.TextChoices):
        AFTER = "after", _("Each round a set number of minutes after the last game of the "
                           "round before ends")
        FIXED = "fixed", _("Fixed times: each round a set number of minutes after the start "
                           "of the round before")

    event = models.OneToOneField("tournament.Event", on_delete=models.CASCADE,
                                 related_name="autopilot")
    first_round_at = models.DateTimeField(_("round 1 starts at"))
    schedule = models.CharField(_("later rounds"), max_length=8, choices=Schedule.choices,
                                default=Schedule.AFTER)
    minutes = models.PositiveSmallIntegerField(
        _("minutes"), default=5, validators=[MaxValueValidator(24 * 60)],
        help_text=_("After the last game of a round (0: at once), or between two rounds' "
                    "starts. A fixed round never starts before the round before it has "
                    "ended."))
    registration = models.BooleanField(
        _("players register themselves"), default=True,
        help_text=_("On the event's page, with a player login."))
    registration_closes_at = models.DateTimeField(
        _("registration closes at"), null=True, blank=True,
        help_text=_("At round 1's start at the latest."))
    approval = models.BooleanField(
        _("registrations wait for approval"), default=False,
        help_text=_("Each registration waits on this page until you accept or refuse it."))
    late_until_round = models.PositiveSmallIntegerField(
        _("late registration until round"), default=0, validators=[MaxValueValidator(99)],
        help_text=_("0: none. Otherwise a player may still register until this round is "
                    "paired, and joins the next round with the event's VP for each round "
                    "missed."))
    missed_games_limit = models.PositiveSmallIntegerField(
        _("missed games that withdraw a player"), default=2, validators=[MaxValueValidator(99)],
        help_text=_("A game lost for not appearing is a missed game. 0: never withdraw."))
    running = models.BooleanField(default=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_by = models.CharField(max_length=150, blank=True)
    paused_reason = models.CharField(_("reason"), max_length=300, blank=True,
                                     validators=[one_line])
    waiting_for = models.CharField(
        max_length=300, blank=True,
        help_text="Why the automation cannot go on by itself (an open dispute); cleared when "
                  "it can.")
    ended_round = models.PositiveSmallIntegerField(null=True, blank=True)
    ended_ms = models.BigIntegerField(
        null=True, blank=True,
        help_text="When the automation found round ``ended_round`` over (server ms): the "
                  "'minutes after the last game' count from here.")
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("event that runs itself")

    def __str__(self) -> str:
        return f"automation of {self.event}"


class Registration(models.Model):
    """A player's own entry from the event's page. Without approval the player is entered at
    once (``player`` set); with approval it waits for the arbiter."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for approval")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE,
                              related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="registrations")
    name = models.CharField(pgettext_lazy("player", "name"), max_length=100,
                            validators=[one_line])
    club = models.CharField(_("club"), max_length=100, blank=True, validators=[one_line])
    country = models.CharField(_("country"), max_length=3, blank=True, validators=[one_line])
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True,
                                         validators=[MinValueValidator(0),
                                                     MaxValueValidator(MAX_RATING)])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    player = models.ForeignKey("tournament.Player", on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"],
                                    condition=models.Q(status="waiting"),
                                    name="one_waiting_registration_per_account"),
        ]

    def __str__(self) -> str:
        return f"{self.name} registered for {self.event}"
