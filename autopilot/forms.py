"""The organiser's settings of a self-running event and a player's registration."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from autopilot.models import Autopilot, Registration
from autopilot.services import SETTINGS

_WHEN = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class AutopilotForm(forms.ModelForm):
    class Meta:
        model = Autopilot
        fields = list(SETTINGS)
        widgets = {"first_round_at": _WHEN, "registration_closes_at": _WHEN}
        help_texts = {"first_round_at": _("In the event's time zone. Round 1 is paired, "
                                          "published, dealt and started then.")}


class RegistrationForm(forms.ModelForm):
    class Meta:
        model = Registration
        fields = ["name", "club", "country", "rating"]
        help_texts = {"name": _("As it will show in the pairings and the standings.")}
