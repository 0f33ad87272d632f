"""Forms validate what people type; services write it."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from games.engine.board import COLOURS
from tournament.inputs import csv_input
from tournament.inputs.names import mixed_scripts
from tournament.inputs.request_input import column_range
from tournament.inputs.validation import tiebreak_list
from tournament.models import Event, Player, Result
from tournament.site import throttle

_SCORE = re.compile(r"[0-9]{1,2}")
VP_CHOICES = [("", "—"), ("1", "1"), ("0.5", "½"), ("0", "0")]


class EventForm(forms.ModelForm):
    """The event's settings. Once round 1 is paired the format fields are shown but fixed, and
    a change of the number of rounds or of what the rounds after score asks for a reason (the
    service enforces both)."""

    tiebreak_order = forms.CharField(
        label=_("Tiebreaks in order"), required=False,
        help_text=_("Names separated by commas, in order; empty: the MSO order (head-to-head, "
                    "lowest-colour difference, lowest-colour level). See the definitions "
                    "below."),
    )
    change_reason = forms.CharField(
        label=_("Reason for the change"), required=False, max_length=300,
        help_text=_("Needed once round 1 is paired to change the number of rounds, what a bye, "
                    "an absence or a late entry scores, or whether a forfeit counts as a "
                    "meeting; kept in the event's history."),
    )
    KEPT_WHEN_LEFT_OUT = ("checkin", "player_results", "unplayed_colours", "pairing_edition",
                          "no_show_minutes")
    field_order = ["name", "start_date", "end_date", "venue", "pairing_system",
                   "rounds_planned", "change_reason", "rounds_note"]

    class Meta:
        model = Event
        fields = [
            "name", "start_date", "end_date", "venue", "pairing_system", "rounds_planned",
            "rounds_note", "pairing_order", "rules_profile", "time_control", "bye_vp", "absence_vp",
            "late_entry_vp",
            "forfeit_counts_as_meeting", "first_mover", "pairing_edition", "unplayed_colours",
            "token_grace_minutes", "no_show_minutes",
            "clock_compensation_s", "publish_pairings", "publish_standings", "print_language",
            "checkin", "checkin_closes_at", "player_results",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "checkin_closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                     format="%Y-%m-%dT%H:%M"),
        }
        help_texts = {
            "checkin": _("Off: every player is paired. Once: players check in before round 1 "
                         "only. Before every round: they check in again before each round is "
                         "paired. Players check in with their card's code on their phone, at "
                         "the kiosk by the door, or you tick them on the players page; who "
                         "has not checked in can be marked absent in one click."),
            "checkin_closes_at": _("Optional, in the event's time zone: after this time "
                                   "players can no longer check in themselves (you still can "
                                   "tick them). Leave empty to close it by hand on the "
                                   "dashboard."),
            "player_results": _("Whether the two players of a board may enter their result "
                                "themselves on their personal page: when both confirm the "
                                "same scores the result is stored; a disagreement becomes a "
                                "conflict for you. 'When check-in is used': only in events "
                                "with check-in (the players have cards)."),
        }

    def __init__(self, *args, settled=False, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.tiebreaks:
            self.fields["tiebreak_order"].initial = ", ".join(self.instance.tiebreaks)
        for name in ("bye_vp", "absence_vp", "late_entry_vp"):
            # The database gives Decimal("1.0"), the choices say "1": without this no option
            # is selected and the browser sends the first one, silently changing the setting.
            value = self.initial.get(name)
            if value is not None:
                self.initial[name] = format(value.normalize(), "f")
        for name in self.KEPT_WHEN_LEFT_OUT:
            # A form from before these settings existed (an open tab, a script) keeps them.
            self.fields[name].required = False
        if not settled:
            del self.fields["change_reason"]
            return
        fixed = ["pairing_system", "pairing_order", "first_mover", "pairing_edition"]
        if self.instance.pairing_system == Event.PairingSystem.ROUND_ROBIN:
            fixed.append("rounds_planned")
        for name in fixed:
            self.fields[name].disabled = True
            self.fields[name].help_text = _("Fixed when round 1 was paired.")

    def changes(self) -> dict:
        """The model fields to save, the tiebreak list under its model name."""
        data = {k: v for k, v in self.cleaned_data.items()
                if k not in ("tiebreak_order", "change_reason")}
        if self.cleaned_data.get("tiebreak_order"):
            data["tiebreaks"] = self.cleaned_data["tiebreak_order"]
        return data

    def clean_time_control(self):
        return self.cleaned_data["time_control"].strip()

    def clean_tiebreak_order(self):
        names = [n.strip() for n in self.cleaned_data.get("tiebreak_order", "").split(",")]
        names = [n for n in names if n]
        tiebreak_list(names)
        return names

    def clean(self):
        data = super().clean()
        for name in self.KEPT_WHEN_LEFT_OUT:
            # Left out of a post (a form of before the option, a script): the setting stays.
            if not data.get(name):
                data[name] = (getattr(self.instance, name)
                              or Event._meta.get_field(name).get_default())
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The event cannot end before it starts."))
        rounds = data.get("rounds_planned")
        swiss = data.get("pairing_system") != Event.PairingSystem.ROUND_ROBIN
        if swiss and rounds is not None and not 1 <= rounds <= 15:
            self.add_error("rounds_planned", _("A Swiss event has 1 to 15 rounds (MSO: 7–9)."))
        return data


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "club", "country", "rating"]


class PlayerImportForm(forms.Form):
    csv_file = forms.FileField(
        label=_("CSV file"),
        help_text=_("A header line with name, and optionally club, country, rating; "
                    "separated by commas, semicolons or tabs, as spreadsheets save it."),
    )

    def clean_csv_file(self):
        upload = self.cleaned_data["csv_file"]
        if upload.size > 512 * 1024:
            raise forms.ValidationError(_("The file is larger than 512 KB."))
        try:
            return csv_input.decode(upload.read())
        except csv_input.CsvEncodingError:
            raise forms.ValidationError(_("The file is not text (UTF-8, UTF-16 or Windows "
                                          "Western European).")) from None


def _version_field() -> forms.IntegerField:
    """The result version a form was shown with (hidden), within its column's range: a
    hand-made value past it is a form error, not a database error."""
    low, high = column_range(Result, "version")
    return forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=low,
                              max_value=high)


def _score_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=18,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "min": 0, "max": 18, "class": "score"}
        ),
    )


class SlipForm(forms.Form):
    """Twelve colour scores of one board, typed from a result slip."""

    expected_version = _version_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in ("first", "second"):
            for colour in COLOURS:
                self.fields[f"{seat}_{colour}"] = _score_field(f"{seat} {colour}")

    def scores(self, seat: str) -> dict[str, int]:
        return {c: self.cleaned_data[f"{seat}_{c}"] for c in COLOURS}


class OtherResultForm(forms.Form):
    """Forfeits, resignations with scores, arbiter decisions and corrections."""

    KIND_CHOICES = [
        ("played", _("played (scores)")),
        ("resignation", _("resignation (scores at that moment)")),
        ("forfeit", _("forfeit")),
        ("double_forfeit", _("double forfeit")),
        ("decision", _("arbiter decision")),
    ]
    kind = forms.ChoiceField(choices=KIND_CHOICES)
    loser_seat = forms.ChoiceField(
        required=False, label=_("Who resigned / forfeited"),
        choices=[("", "—"), ("first", _("first player")), ("second", _("second player"))],
    )
    first_vp = forms.ChoiceField(required=False, choices=VP_CHOICES)
    second_vp = forms.ChoiceField(required=False, choices=VP_CHOICES)
    first_scores = forms.CharField(required=False, help_text=_("Six numbers: R G B O Y P"))
    second_scores = forms.CharField(required=False, help_text=_("Six numbers: R G B O Y P"))
    reason = forms.CharField(required=False, max_length=300)
    expected_version = _version_field()

    def _six(self, name):
        raw = self.cleaned_data.get(name, "").replace(",", " ").split()
        if not raw:
            return None
        if len(raw) != 6 or not all(_SCORE.fullmatch(x) for x in raw):
            raise forms.ValidationError(
                _("Give six whole numbers from 0 to 18 in the order R G B O Y P."))
        return [int(x) for x in raw]

    def clean_first_scores(self):
        return self._six("first_scores")

    def clean_second_scores(self):
        return self._six("second_scores")


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300, label=_("Reason"))


class LoginForm(AuthenticationForm):
    """Django's login form, with the username's length checked before any password is.

    ``AuthenticationForm`` sets its username field's ``max_length`` after the field is built,
    so no validator enforces it: an over-long name went on to ``authenticate`` and into
    django-axes' table of attempts (255 characters, which PostgreSQL enforces). Here it is a
    field error, and nothing is tried or counted. The login page and an invitation's login use
    it alike.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class SignupForm(UserCreationForm):
    """Django's sign-up form (an invitation's new login, a registration's), refusing a user
    name that mixes alphabets: nobody needs "pаypal" with a Cyrillic "а", and such a name
    passes for another account on every page that shows it (``names.mixed_scripts``); and
    refusing an address that made its new logins for this hour (``throttle.SIGNUPS``):
    ``throttled`` then says so, for the page's 429."""

    def __init__(self, *args, request, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request, self.throttled = request, False

    def clean(self):
        cleaned = super().clean()
        if self.is_bound and throttle.signups_blocked(self.request):
            self.throttled = True
            raise forms.ValidationError(
                _("Too many new logins from this address in the last hour. Try again later, "
                  "or log in with a login you have."), code="too_many")
        return cleaned

    def save(self, commit=True):
        throttle.signed_up(self.request)
        return super().save(commit=commit)

    def clean_username(self):
        username = super().clean_username()  # None when taken (the error is already there)
        scripts = mixed_scripts(username or "")
        if scripts:
            raise forms.ValidationError(
                _("A user name in one alphabet, please: this one mixes %(scripts)s letters."),
                code="mixed_scripts",
                params={"scripts": " and ".join(sorted(s.title() for s in scripts))})
        return username
