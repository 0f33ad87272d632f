"""The event as stored: events, players, rounds, boards and result versions.

Standings are never stored: they are derived from results by the pure core
(``tournament.standings``). Results are append-only versions (see ``Result``).
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.inputs.validation import one_line, tiebreak_list, time_control
from tournament.standings import DEFAULT_TIEBREAKS

#: Board tokens stay valid at most a week after the round closes.
MAX_GRACE_MINUTES = 7 * 24 * 60
#: Beyond any rating system in use; a larger number is a typo.
MAX_RATING = 4000

VP_CHOICES = [(Decimal("1"), "1"), (Decimal("0.5"), "½"), (Decimal("0"), "0")]
ABSENCE_VP_CHOICES = VP_CHOICES[1:]
"""A requested absence scores 0 or ½, never a full point (tournament-rules.md section 2)."""


def new_board_token() -> str:
    """A secret for a board's QR code: unguessable, short enough for a URL."""
    return secrets.token_urlsafe(18)


class Event(models.Model):
    class PairingSystem(models.TextChoices):
        AUTO = "auto", _("Follow the field: round robin for 10 players or fewer, else Swiss")
        SWISS = "swiss", _("Swiss (FIDE Dutch)")
        ROUND_ROBIN = "round_robin", _("Round robin (Berger tables)")

    class PairingOrder(models.TextChoices):
        RATING = "rating", _("By rating (highest first, then name; unrated as entered)")
        LOT = "lot", _("By lot (a seeded draw, shown and reproducible)")
        ENTRY = "entry", _("As entered")

    class RulesProfile(models.TextChoices):
        MSO = "mso", _("MSO tournament rules")
        KOSMOS = "kosmos", _("Boxed Kosmos rules")

    class CheckIn(models.TextChoices):
        OFF = "off", _("No check-in")
        ONCE = "once", _("Once, before round 1")
        EVERY_ROUND = "every_round", _("Before every round")

    class PlayerResults(models.TextChoices):
        WITH_CHECKIN = "with_checkin", _("When check-in is used")
        ALWAYS = "always", _("Always")
        NEVER = "never", _("Never: the arbiter enters every result")

    class UnplayedColours(models.TextChoices):
        """How rounds without scores count in the colour tiebreaks (docs/tiebreaks.md)."""

        WIDEST = "widest", _("As a game by its VP: 1 VP as 18 in every colour against 0, "
                             "0 VP as 0 against 18, ½ VP as 0 against 0")
        NOTHING = "nothing", _("They add nothing (the earlier rule: not playing can rank "
                               "above a played loss)")

    class PairingEdition(models.TextChoices):
        """The FIDE (Dutch) System's edition the Swiss rounds are paired by (docs/pairing.md)."""

        FIDE_2025 = "2025", _("FIDE (Dutch) System as amended in 2025, in force (bbpPairings)")
        FIDE_2017 = "2017", _("FIDE (Dutch) System 2017, the earlier edition (py4swiss)")

    class FirstMover(models.TextChoices):
        FIRST = "first", _("Seed 1 plays first on board 1 of round 1")
        SECOND = "second", _("Seed 1 plays second on board 1 of round 1")
        LOT = "lot", _("Drawn by lot")

    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    name = models.CharField(pgettext_lazy("event", "name"), max_length=120, validators=[one_line])
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True, validators=[one_line])
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds planned"), default=7,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("The Swiss rounds; a round robin plays its table's number of rounds. "
                    "Fixed once round 1 is paired."),
    )
    rounds_note = models.CharField(
        _("why this number of rounds"), max_length=300, blank=True, validators=[one_line],
        help_text=_("The MSO rules say 7 to 9 Swiss rounds; say why this event plays another "
                    "number (shown beside the warning and kept in the history)."),
    )
    pairing_system = models.CharField(
        _("pairing system"), max_length=20, choices=PairingSystem.choices,
        default=PairingSystem.AUTO,
        help_text=_("Settled when round 1 is paired, from the players entered then."),
    )
    pairing_order = models.CharField(
        _("pairing numbers"), max_length=10, choices=PairingOrder.choices,
        default=PairingOrder.RATING,
        help_text=_("Given when round 1 is paired; late entrants get the next numbers."),
    )
    rules_profile = models.CharField(
        _("rules profile"), max_length=20, choices=RulesProfile.choices, default=RulesProfile.MSO
    )
    time_control = models.CharField(
        _("time control"), max_length=20, default="600", validators=[time_control],
        help_text=_(
            "Seconds per player; '+N' for a Fischer increment, 'dN' for a Bronstein delay."
        ),
    )
    bye_vp = models.DecimalField(
        _("VP for a bye"), max_digits=2, decimal_places=1, choices=VP_CHOICES, default=Decimal("1")
    )
    absence_vp = models.DecimalField(
        _("VP for a requested absence"), max_digits=2, decimal_places=1,
        choices=ABSENCE_VP_CHOICES, default=Decimal("0"),
        help_text=_("Swiss only: in a round robin an absence is a forfeit (0 VP)."),
    )
    late_entry_vp = models.DecimalField(
        _("VP for each round a late entry missed"), max_digits=2, decimal_places=1,
        choices=ABSENCE_VP_CHOICES, default=Decimal("0"),
        help_text=_("Swiss only: a player entered after round 1 is paired scores this for every "
                    "round before joining (chess arbiters offer 0 or ½)."),
    )
    forfeit_counts_as_meeting = models.BooleanField(
        _("a forfeit counts as a meeting"), default=False,
        help_text=_("FIDE: a forfeited game is not a meeting, so the players may be paired again."),
    )
    first_mover = models.CharField(
        _("first move in round 1"), max_length=10, choices=FirstMover.choices,
        default=FirstMover.FIRST,
    )
    pairing_edition = models.CharField(
        _("pairing rules"), max_length=4, choices=PairingEdition.choices,
        default=PairingEdition.FIDE_2025,
        help_text=_("Swiss only. The 2025 amendment changed who may receive the pairing bye "
                    "and the pairing of the last rounds. An event keeps the edition it began "
                    "with."),
    )
    lot_seed = models.BigIntegerField(
        _("seed of the lot"), null=True, blank=True, editable=False,
        help_text=_("Drawn when round 1 is paired, for first move and pairing numbers by lot."),
    )
    tiebreaks = models.JSONField(_("tiebreaks in order"), default=list, blank=True,
                                 validators=[tiebreak_list])
    unplayed_colours = models.CharField(
        _("unplayed rounds in the colour tiebreaks"), max_length=10,
        choices=UnplayedColours.choices, default=UnplayedColours.WIDEST,
        help_text=_("Byes, forfeits, absences and decisions without scores. As a game by its "
                    "VP, not playing never ranks above a played loss, nor a forfeit win below "
                    "a played win."),
    )
    token_grace_minutes = models.PositiveIntegerField(
        _("board pages stay open after the round closes (minutes)"), default=60,
        help_text=_("The scoresheets' QR codes (board pages, clocks, game records) keep "
                    "working this long after the round is closed, for a late record; then "
                    "they refuse."),
        validators=[MaxValueValidator(MAX_GRACE_MINUTES)],
    )
    no_show_minutes = models.PositiveSmallIntegerField(
        _("an online player who has not appeared loses by forfeit after (minutes)"), default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("Counted from the start of the clocks. Then the opponent who is there may "
                    "claim the win from the game page, and you can record it from the round's "
                    "online page; it is recorded as a forfeit with the reason. A player who "
                    "opened the game once is not absent: their clock runs as over the board."),
    )
    clock_compensation_s = models.PositiveIntegerField(
        _("clock compensation per game (seconds)"), default=180,
        validators=[MaxValueValidator(3600)],
        help_text=_("A board's device keeps time through a Wi-Fi outage; its presses are dated "
                    "where it saw them up to this much per game, later ones on arrival."),
    )
    checkin = models.CharField(
        _("check-in"), max_length=12, choices=CheckIn.choices, default=CheckIn.OFF,
        help_text=_("Players confirm they are here (their card's code, the door's kiosk or "
                    "the arbiter's list) before the round is paired."),
    )
    player_results = models.CharField(
        _("results the two players confirm"), max_length=12, choices=PlayerResults.choices,
        default=PlayerResults.WITH_CHECKIN,
        help_text=_("When both players confirm the same scores, the result is stored without "
                    "the arbiter; a disagreement is a conflict for the arbiter."),
    )
    checkin_open = models.BooleanField(
        _("check-in open"), default=True,
        help_text=_("The arbiter closes and reopens the check-in by hand; it also closes at "
                    "the closing time, if one is set."),
    )
    checkin_closes_at = models.DateTimeField(
        _("check-in closes at"), null=True, blank=True,
        help_text=_("Optional: after this time nobody can check in without the arbiter."),
    )
    kiosk_generation = models.PositiveIntegerField(
        default=0, editable=False,
        help_text="Kiosk devices hold a signed cookie with this number; locking all kiosks "
                  "increments it, so every unlocked tablet is locked at once.",
    )
    publish_pairings = models.BooleanField(_("publish pairings"), default=True)
    publish_standings = models.BooleanField(_("publish standings"), default=True)
    print_language = models.CharField(
        _("language of the printouts"), max_length=10, choices=settings.LANGUAGES,
        default="en",
        help_text=_("The PDFs and the projector view use it, whatever the language of the "
                    "browser."),
    )
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="arbitrated_events", blank=True,
        verbose_name=_("arbiters"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.tiebreaks:
            self.tiebreaks = list(DEFAULT_TIEBREAKS)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("event_home", args=[self.slug])

    def clean(self) -> None:
        """Short names are lower case whichever way they come in (``full_clean`` runs for every
        one): ``/e/DEMO-OPEN/`` beside ``/e/demo-open/`` would be two events nobody can tell
        apart, and their backup folders one folder on a case-insensitive disk."""
        super().clean()
        if isinstance(self.slug, str):
            self.slug = self.slug.lower()

    def is_arbiter(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return self.arbiters.filter(pk=user.pk).exists()


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(pgettext_lazy("player", "name"), max_length=100,
                            validators=[one_line])
    club = models.CharField(_("club"), max_length=100, blank=True, validators=[one_line])
    country = models.CharField(_("country"), max_length=3, blank=True, validators=[one_line])
    rating = models.PositiveIntegerField(
        _("rating"), null=True, blank=True, validators=[MaxValueValidator(MAX_RATING)]
    )
    seed = models.PositiveIntegerField(_("pairing number"))
    joined_round = models.PositiveSmallIntegerField(
        _("joins in round"), default=1, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True, validators=[MaxValueValidator(99)]
    )
    withdrawal_reason = models.CharField(
        _("reason for withdrawal"), max_length=200, blank=True, validators=[one_line]
    )

    class Meta:
        ordering = ["seed"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_player_name"),
            models.UniqueConstraint(fields=["event", "seed"], name="unique_player_seed"),
        ]

    def __str__(self) -> str:
        return self.name

    def is_active_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after_round is None or round_number <= self.withdrawn_after_round


class Absence(models.Model):
    """A requested absence for one round: not paired, scores the event's absence VP."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    vp = models.DecimalField(max_digits=2, decimal_places=1, choices=ABSENCE_VP_CHOICES)
    reason = models.CharField(_("reason"), max_length=200, blank=True, validators=[one_line])

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "round_number"], name="unique_absence")
        ]

    def __str__(self) -> str:
        return f"{self.player} absent in round {self.round_number}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFTED = "drafted", _("pairings drafted")
        PUBLISHED = "published", _("published")
        CLOSED = "closed", _("closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFTED)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    pairing_note = models.TextField(blank=True)
    paired_by = models.CharField(
        max_length=120, blank=True,
        help_text=_("The engine and edition that paired the round ('' by hand or for a round "
                    "robin), as the round page shows it."),
    )
    paired_on = models.JSONField(
        default=dict, blank=True,
        help_text="Each player's VP before the round as it was paired, by pairing number "
                  "('12': '1.5'): a correction made later changes the standings, not what the "
                  "pairing was made from. Empty for rounds paired before it was kept.")

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Board(models.Model):
    """One pairing of a round. A bye is a board with no second player (``number`` 0)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="boards_first")
    second = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="boards_second", null=True, blank=True
    )
    token = models.CharField(max_length=40, default=new_board_token, unique=True)
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    manual_reason = models.CharField(_("reason"), max_length=200, blank=True,
                                     validators=[one_line])

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number", "first"], name="unique_board")
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.first} bye"
        return f"{self.number}: {self.first} – {self.second}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None


class Result(models.Model):
    """One version of a board's result; rows are never edited except for their review status.

    The accepted version is the board's result. A later submission that agrees with it is
    not stored again (idempotent); one that disagrees is kept as a conflict until an arbiter
    accepts or dismisses it; an arbiter's correction supersedes the accepted version.
    """

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        RESIGNATION = "resignation", _("resignation")
        FORFEIT = "forfeit", _("forfeit")
        DOUBLE_FORFEIT = "double_forfeit", _("double forfeit")
        DECISION = "decision", _("arbiter decision")
        BYE = "bye", _("bye")

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("accepted")
        CONFLICT = "conflict", _("conflict")
        SUPERSEDED = "superseded", _("superseded")
        DISMISSED = "dismissed", _("dismissed")
        #: A conflict the arbiter accepted: its content is the next accepted version.
        ADOPTED = "adopted", _("accepted as a new version")

    class Source(models.TextChoices):
        SLIP = "slip", _("result slip")
        RECORD = "record", _("game record")
        ARBITER = "arbiter", _("arbiter")
        PAIRING = "pairing", _("pairing")
        PLAYERS = "players", _("confirmed by both players")

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=12, choices=Status.choices)
    source = models.CharField(max_length=10, choices=Source.choices)
    first_scores = models.JSONField(null=True, blank=True)
    second_scores = models.JSONField(null=True, blank=True)
    first_vp = models.DecimalField(max_digits=2, decimal_places=1)
    second_vp = models.DecimalField(max_digits=2, decimal_places=1, null=True, blank=True)
    loser_seat = models.CharField(max_length=6, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True, validators=[one_line])
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    entered_by_label = models.CharField(max_length=100, blank=True, validators=[one_line])
    entered_at = models.DateTimeField(auto_now_add=True)
    #: The arbiter's decision on a conflicting version (accepted or dismissed): who, when and
    #: why, kept with the version it settled (the history and the backup show it).
    decided_by_label = models.CharField(max_length=100, blank=True, validators=[one_line])
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(_("reason of the decision"), max_length=300, blank=True,
                                       validators=[one_line])

    class Meta:
        ordering = ["board", "version"]
        constraints = [
            models.UniqueConstraint(fields=["board", "version"], name="unique_result_version"),
            models.UniqueConstraint(
                fields=["board"], condition=models.Q(status="accepted"),
                name="one_accepted_result_per_board",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} v{self.version} {self.first_vp}-{self.second_vp}"


class HistoryEntry(models.Model):
    """What an arbiter changed about the event itself, and what a change removed.

    Results keep their own versions; this is the event's log for everything else: the format
    settled at round 1, a changed number of rounds, a round paired again, a hand-made pairing,
    and a snapshot of the clocks, records and live scoresheets that such a change removed.
    """

    class Action(models.TextChoices):
        FORMAT_SETTLED = "format_settled", _("format settled")
        ROUNDS_CHANGED = "rounds_changed", _("number of rounds changed")
        ROUND_REPAIRED = "round_repaired", _("round paired again")
        PAIRING_EDITED = "pairing_edited", _("pairing edited by hand")
        ABSENCE_FORFEITED = "absence_forfeited", _("absence became a forfeit")
        LOGIN_GIVEN = "login_given", _("player login given")
        LOGIN_WITHDRAWN = "login_withdrawn", _("player login withdrawn")
        PAIRED_OVER_DISPUTES = "paired_over_disputes", _("round paired over open disputes")
        ROUNDS_NOTED = "rounds_noted", _("number of rounds kept, with a reason")
        PAIRED_WITH_CHECKIN_OPEN = "paired_checkin_open", _("round paired with check-in open")
        CHECKIN_ABSENT = "checkin_absent", _("players who did not check in marked absent")
        CARDS_ISSUED = "cards_issued", _("player cards issued or revoked")
        PLAYER_WITHDRAWN = "player_withdrawn", _("player withdrawn")
        PLAYER_REINSTATED = "player_reinstated", _("withdrawal undone")
        NO_SHOWS_DECIDED = "no_shows_decided", _("players who never appeared: decided")
        AUTOMATIC = "automatic", _("automatic step")
        PLAYER_REGISTERED = "player_registered", _("player registered")
        PAIRING_RULES = "pairing_rules", _("round paired by other pairing rules")
        RULES_CHANGED = "rules_changed", _("scoring or meeting rule changed mid-event")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="history")
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=30, choices=Action.choices)
    summary = models.CharField(max_length=300)
    reason = models.CharField(_("reason"), max_length=300, blank=True, validators=[one_line])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    user_label = models.CharField(max_length=150, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")

    def __str__(self) -> str:
        return f"{self.event}: {self.summary}"


class PlayerLogin(models.Model):
    """A player's account for one event: whoever logs in with it sees that player's games
    ("My games"), nothing more. It gives no arbiter right: those come from ``Event.arbiters``
    and the organiser permission only.

    One per player (the one-to-one); an account holds players of many events but at most one
    of each (the constraint: ``event`` repeats ``player.event`` only so that the database can
    enforce it). A withdrawn login is kept, so that the account's page can say it was
    withdrawn; a later invitation accepted for the player takes the row over.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="login")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="player_logins")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="player_logins")
    attached_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"],
                                    condition=models.Q(withdrawn_at__isnull=True),
                                    name="one_player_per_account_and_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} as {self.user}"


class LoginInvitation(models.Model):
    """A one-time link by which a player sets up a login, or adds this event to their account.

    Only the SHA-256 digest of the link's secret is kept: the link is shown once, to the
    arbiter who made it (to hand over or print), and a copy of the database opens nothing. An
    invitation ends when it is used, when it expires, when a newer one for the same player
    replaces it and when the player's login is withdrawn (``closed_at``).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="login_invitations")
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invitation for {self.player}"


class PlayerCard(models.Model):
    """A player's personal code, printed on the player card (QR code and text).

    The code is ``key`` followed by an HMAC of it under the site's secret key
    (``tournament.boards.player_codes``): only the public half is stored, so a copy of the
    database opens no personal page, yet the arbiter can print the same card again. A
    reissued card revokes the previous one, which stays here so that its code is refused
    with the reason ("revoked") rather than as unknown.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cards")
    key = models.CharField(max_length=12, unique=True)
    issued_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["player", "-issued_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=models.Q(revoked_at__isnull=True),
                                    name="one_live_card_per_player"),
        ]

    def __str__(self) -> str:
        return f"card of {self.player}"


class CheckIn(models.Model):
    """A player said "I am here" for a round (``Event.checkin``: round 1 only, or each round).

    One row per player and round: checking in twice changes nothing. Undoing a check-in deletes
    the row (the arbiter's tick was a slip of the key).
    """

    class Via(models.TextChoices):
        CARD = "card", _("own phone")
        KIOSK = "kiosk", _("kiosk")
        ARBITER = "arbiter", _("arbiter")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="checkins")
    round_number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    at = models.DateTimeField(auto_now_add=True)
    via = models.CharField(max_length=8, choices=Via.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True)

    class Meta:
        ordering = ["round_number", "at"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round_number"], name="unique_checkin")
        ]

    def __str__(self) -> str:
        return f"{self.player} checked in for round {self.round_number}"


class Confirmation(models.Model):
    """One player's account of a game's twelve scores (their own and the opponent's).

    When both seats' confirmations agree, the result is stored with the source "players";
    when they disagree, both become conflicts for the arbiter
    (``tournament.services.confirmations``). A player may change theirs until the result is
    stored.
    """

    class Via(models.TextChoices):
        CARD = "card", _("personal page")
        LOGIN = "login", _("my games")
        BOARD = "board", _("board page")

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.CharField(max_length=6, choices=[("first", "first"), ("second", "second")])
    first_scores = models.JSONField()
    second_scores = models.JSONField()
    at = models.DateTimeField()
    via = models.CharField(max_length=8, choices=Via.choices)

    class Meta:
        ordering = ["board", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["board", "seat"], name="unique_confirmation_seat")
        ]

    def __str__(self) -> str:
        return f"{self.board} confirmed by the {self.seat} player"
