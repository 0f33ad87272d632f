"""Events and players: creation, entries (late ones too), imports, withdrawals, absences."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import signals
from tournament.boards import player_codes
from tournament.inputs import csv_input
from tournament.models import Absence, Event, HistoryEntry, Player, Result
from tournament.services import format as event_format
from tournament.services.errors import ServiceError
from tournament.services.history import log_change
from tournament.services.validation import InvalidInput, checked
from tournament.texts.formatting import vp


def unique_slug(name: str) -> str:
    base = slugify(name)[:50] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_event(*, name: str, arbiter=None, slug: str | None = None, **fields) -> Event:
    event = checked(Event(name=name, slug=slug or unique_slug(name), **fields))
    if Event.objects.filter(slug=event.slug).exists():
        raise InvalidInput({str(Event._meta.get_field("slug").verbose_name): [
            _("An event with the short name %(slug)r already exists; choose another.")
            % {"slug": event.slug}]})
    event.save()
    if arbiter is not None:
        event.arbiters.add(arbiter)
    return event


def _next_seed(event: Event) -> int:
    return (event.players.aggregate(m=Max("seed"))["m"] or 0) + 1


def _current_round_number(event: Event) -> int:
    return event.rounds.aggregate(m=Max("number"))["m"] or 0


def _joining_round(event: Event) -> int:
    """The round a player entered now joins in: after round 1 is paired, a late entry."""
    joined = _current_round_number(event) + 1
    if joined > 1 and event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
        raise ServiceError(_("A round robin cannot take late entries: its table was fixed when "
                             "round 1 was paired."))
    if joined > 1 and joined > event.rounds_planned:
        raise ServiceError(ngettext(
            "The %(n)d planned round is paired: a player entered now would play no round.",
            "All %(n)d planned rounds are paired: a player entered now would play no round.",
            event.rounds_planned) % {"n": event.rounds_planned})
    return joined


def _new_player(event: Event, *, name: str, club: str, country: str, rating: int | None,
                seed: int, joined: int, where: str = "") -> Player:
    """An unsaved player, its fields tidied and checked against the model's limits (not the
    event's existence: the caller has just read it, and the check is a query per player)."""
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A player needs a name."))
    return checked(Player(
        event=event, name=name, club=club.strip(), country=country.strip(), rating=rating,
        seed=seed, joined_round=joined,
    ), exclude=["event"], where=where)


def _name_taken(name: str) -> ServiceError:
    return ServiceError(_("There is already a player called %(name)s.") % {"name": name})


@transaction.atomic
def add_player(event: Event, *, name: str, club: str = "", country: str = "",
               rating: int | None = None) -> Player:
    """Enter a player; after round 1 has been paired this is a late entry (0 VP so far)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    joined = _joining_round(event)
    # Checked before any query uses the name: PostgreSQL refuses a NUL even in a lookup.
    player = _new_player(event, name=name, club=club, country=country, rating=rating,
                         seed=_next_seed(event), joined=joined)
    if event.players.filter(name__iexact=player.name).exists():
        raise _name_taken(player.name)
    player.save()
    player_codes.first_cards([player])
    return player


_RATING = re.compile(r"[0-9]{1,9}")


#: The columns the players import reads, by the names a header may give them
#: (``player_columns``).
PLAYER_COLUMNS = ("name", "club", "country", "rating")
#: What spreadsheets of players also call them, beyond the site's five languages.
_COLUMN_SYNONYMS = {"elo": "rating", "fed": "country", "federation": "country"}


def player_columns() -> dict[str, str]:
    """Header names the players import understands, case-folded: each column's English name
    and its name in every language of the site (the players page's own labels: a German
    arbiter's spreadsheet says "Verein", a Swedish one "Klubb"), and a few common synonyms."""
    names = dict(_COLUMN_SYNONYMS)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for column in PLAYER_COLUMNS:
                names.setdefault(str(Player._meta.get_field(column).verbose_name).casefold(),
                                 column)
    names.update({column: column for column in PLAYER_COLUMNS})
    return names


def ignored_columns(text: str) -> list[str]:
    """The header's columns the import does not read (the players page says so)."""
    known = player_columns()
    header = next(csv.reader(io.StringIO(text), delimiter=csv_input.separator(text)), [])
    return [name.strip() for name in header if name.strip().casefold() not in known]


def parse_players_csv(text: str) -> list[dict]:
    """Rows of a CSV with a ``name`` column (``club``, ``country``, ``rating`` optional; in any
    of the site's languages: ``player_columns``), separated by commas, semicolons or tabs
    (``csv_input.separator``).

    Only the shape is read here; each row's values are checked as the player is entered, so a
    refusal names the line and the field (``import_players``).
    """
    reader = csv.DictReader(io.StringIO(text), delimiter=csv_input.separator(text))
    known = player_columns()
    try:
        header = reader.fieldnames
        if not header or "name" not in [known.get((f or "").strip().casefold()) for f in header]:
            raise ServiceError(_("The CSV needs a header line with a 'name' column."))
        rows = []
        for raw in reader:
            line_no = reader.line_num
            row = {known.get((k or "").strip().casefold()): v for k, v in raw.items()
                   if isinstance(v, str)}
            row = {k: v.strip() for k, v in row.items() if k is not None}
            if not row.get("name"):
                raise ServiceError(_("Line %(line)d: the name is empty.") % {"line": line_no})
            rating = row.get("rating") or None
            if rating is not None:
                if not _RATING.fullmatch(rating):
                    raise ServiceError(
                        _("Line %(line)d: rating %(value)r is not a whole number.")
                        % {"line": line_no, "value": rating[:20]}
                    )
                rating = int(rating)
            rows.append({"line": line_no, "name": row["name"], "club": row.get("club", ""),
                         "country": row.get("country", ""), "rating": rating})
    except csv.Error as exc:
        raise ServiceError(_("Line %(line)d: %(error)s") % {"line": reader.line_num,
                                                            "error": exc}) from None
    return rows


def import_players(event: Event, text: str) -> list[Player]:
    """All rows or none: one bad line refuses the whole file, naming the line and field.

    Every row is checked before anything is written, outside any transaction; the players
    are then inserted together in one short transaction. SQLite has one write lock for the
    whole database, and entering 5,000 players one by one held it for 12–24 s, so that a
    clock press in another event waited as long (``docs/benchmarks.md``). Still atomic: the
    writing transaction takes the event's lock, checks again what may have changed since the
    rows were read (names and pairing numbers entered meanwhile, a round paired), and either
    inserts every row or refuses the file."""
    rows = parse_players_csv(text)
    joined = _joining_round(event)
    players, lines = [], {}
    for seed, row in enumerate(rows, start=1):
        line = row.pop("line")
        try:
            player = _new_player(event, **row, seed=seed, joined=joined,
                                 where=_("Line %(line)d") % {"line": line})
        except InvalidInput:  # names its line already (``where``)
            raise
        except ServiceError as exc:
            raise _on_line(line, exc) from None
        key = player.name.casefold()
        if key in lines:  # the file names the player twice
            raise _on_line(line, _name_taken(player.name))
        lines[key] = line
        players.append(player)
    return _enter_all(event, players, joined, lines)


def _on_line(line: int, error: ServiceError) -> ServiceError:
    return ServiceError(_("Line %(line)d: %(error)s") % {"line": line, "error": error})


@transaction.atomic
def _enter_all(event: Event, players: list[Player], joined: int,
               lines: dict[str, int]) -> list[Player]:
    """Insert checked players in one statement per batch, under the event's lock, after
    checking again what may have changed since they were checked (``import_players``)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if _joining_round(event) != joined:
        raise ServiceError(_("A round was paired while the file was read; import it again."))
    taken = {name.casefold() for name in event.players.values_list("name", flat=True)}
    for player in players:
        if player.name.casefold() in taken:
            raise _on_line(lines[player.name.casefold()], _name_taken(player.name))
    first = _next_seed(event)
    for offset, player in enumerate(players):
        player.seed = first + offset
    created = Player.objects.bulk_create(players, batch_size=500)
    player_codes.first_cards(created)
    return created


@transaction.atomic
def record_withdrawal(player: Player, *, reason: str = "") -> Player:
    """Not paired after the last round played (or being played); past games stand. A round
    still a draft has not been played: the withdrawal applies to it (the caller,
    ``rounds.withdraw_player``, pairs it again)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.withdrawn_after_round is not None:
        raise ServiceError(_("%(name)s has already withdrawn.") % {"name": player.name})
    if not reason.strip():
        raise ServiceError(_("Withdrawing a player needs a reason."))
    played = player.event.rounds.exclude(status="drafted").aggregate(m=Max("number"))["m"]
    player.withdrawn_after_round = played or 0
    player.withdrawal_reason = reason.strip()
    checked(player)
    player.save(update_fields=["withdrawn_after_round", "withdrawal_reason"])
    signals.players_changed.send(Player, event=player.event)
    return player


@transaction.atomic
def set_absence(player: Player, round_number: int, *, vp=None, reason: str = "") -> Absence:
    """A requested absence for a round not yet paired (rules section 2).

    Swiss: the player is not paired and scores the event's absence VP (0, or ½ if granted).
    Round robin: there is no one else to pair, so the absence becomes a forfeit of that round's
    game when the round is paired; ½ is not offered (an arbiter decision remains possible).
    """
    event = Event.objects.select_for_update().get(pk=player.event_id)
    player = Player.objects.get(pk=player.pk)
    info = event_format.event_format(event)
    if not 1 <= round_number <= info.rounds:
        raise ServiceError(_("The event has rounds 1 to %(n)d.") % {"n": info.rounds})
    if event.rounds.filter(number=round_number).exists():
        raise ServiceError(_("Round %(n)d is already paired.") % {"n": round_number})
    if not player.is_active_in(round_number):
        raise ServiceError(_("%(name)s does not play in round %(n)d (withdrawn or not yet "
                             "entered).") % {"name": player.name, "n": round_number})
    default = Decimal("0") if info.is_round_robin else event.absence_vp
    try:
        points = default if vp in (None, "") else Decimal(str(vp))
    except InvalidOperation:
        points = None
    if points is not None and not points.is_finite():
        points = None  # "NaN", "sNaN" (which even refuses to be compared), "Infinity"
    if info.is_round_robin and points != Decimal("0"):
        raise ServiceError(_("In a round robin an absence is a forfeit of that round's game "
                             "(0 VP); ½ is not offered. An arbiter decision remains possible "
                             "once the round is paired."))
    if points not in (Decimal("0"), Decimal("0.5")):
        raise ServiceError(_("An absence scores 0 or ½ VP, not %(vp)s.") % {"vp": vp})
    absence = (Absence.objects.filter(player=player, round_number=round_number).first()
               or Absence(player=player, round_number=round_number))
    absence.vp, absence.reason = points, reason.strip()
    checked(absence)
    absence.save()
    signals.players_changed.send(Player, event=event)
    return absence


@transaction.atomic
def cancel_absence(absence: Absence) -> None:
    """Take back a requested absence while its round is not paired yet."""
    absence = Absence.objects.select_related("player__event").get(pk=absence.pk)
    if absence.player.event.rounds.filter(number=absence.round_number).exists():
        raise ServiceError(_("Round %(n)d is already paired; its absences stand.")
                           % {"n": absence.round_number})
    absence.delete()
    signals.players_changed.send(Player, event=absence.player.event)


FIXED_AFTER_ROUND_ONE = ("pairing_system", "pairing_order", "first_mover", "pairing_edition")
"""Settings that round 1 settles (every round of a Swiss is paired by the same rules); the
number of rounds changes only with a reason."""

CHANGED_WITH_A_REASON = ("bye_vp", "absence_vp", "late_entry_vp", "forfeit_counts_as_meeting")
"""Settings that may change once round 1 is paired, but only with a reason kept in the
history: the rounds after are scored or paired otherwise than the rounds before."""


@transaction.atomic
def update_event(event: Event, changes: dict, *, user=None, reason: str = "") -> Event:
    """Save the settings; once round 1 is paired the format is fixed (rules section 1).

    The number of rounds may still change then, with a reason, never below the rounds already
    paired, and never for a round robin (its table fixes it); the change goes to the history.
    So does a change of what a bye, an absence or a late entry scores, or of whether a forfeit
    counts as a meeting (:data:`CHANGED_WITH_A_REASON`), each with the same ``reason``.
    So does the reason given for a number of Swiss rounds outside the MSO's 7–9 (``rounds_note``,
    shown beside the warning), each time it is given or changed.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    paired = _current_round_number(event)
    if paired:
        fixed = [f for f in FIXED_AFTER_ROUND_ONE
                 if f in changes and changes[f] != getattr(event, f)]
        if fixed:
            raise ServiceError(_("%(field)s is fixed once round 1 is paired.")
                               % {"field": Event._meta.get_field(fixed[0]).verbose_name})
    if paired and "bye_vp" in changes and changes["bye_vp"] != event.bye_vp:
        _check_bye_change(event, Decimal(changes["bye_vp"]))
    rounds = changes.get("rounds_planned", event.rounds_planned)
    if paired and rounds != event.rounds_planned:
        _check_rounds_change(event, rounds, paired, reason)
        log_change(event, HistoryEntry.Action.ROUNDS_CHANGED,
                   {"old": event.rounds_planned, "new": rounds},
                   user=user, reason=reason)
    if paired:
        _log_rules_change(event, changes, user=user, reason=reason)
    note = changes.get("rounds_note", event.rounds_note).strip()
    if note and note != event.rounds_note:
        log_change(event, HistoryEntry.Action.ROUNDS_NOTED, {"rounds": rounds}, user=user,
                   reason=note)
    for field, value in {**changes, "rounds_note": note}.items():
        setattr(event, field, value)
    checked(event)
    event.save()
    return event


def _check_bye_change(event: Event, bye_vp: Decimal) -> None:
    """A bye's value may change mid-event only where the pairing still reads the event as the
    standings count it. Raised above a bye already given, that bye would count less than its
    value now: the 2025 rules' engine (bbpPairings) cannot read such a correction, and the
    rounds after would be paired by the 2017 rules instead. That is refused, with the reason;
    lowering it (the bye given keeps its full point, which bbpPairings reads) is not."""
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN or event.pairing_edition != "2025":
        return
    given = (Result.objects.filter(board__round__event=event, board__second__isnull=True,
                                   status=Result.Status.ACCEPTED, first_vp__lt=bye_vp)
             .order_by("first_vp").first())
    if given is not None:
        raise ServiceError(_(
            "A pairing bye was given at %(old)s VP in round %(round)d: raised to %(new)s, "
            "that bye would count less than the byes to come, which the engine of the 2025 "
            "rules (bbpPairings) cannot read, and the next rounds would be paired by other "
            "rules. The bye keeps its value for this event (lowering it is possible).") % {
            "old": vp(given.first_vp), "round": given.board.round.number,
            "new": vp(bye_vp)})


def _log_rules_change(event: Event, changes: dict, *, user, reason: str) -> None:
    """A change once round 1 is paired of what the rounds after score or how they pair
    (:data:`CHANGED_WITH_A_REASON`): refused without a reason, else kept in the history with
    each value before and after."""
    changed = {name: (getattr(event, name), changes[name]) for name in CHANGED_WITH_A_REASON
               if name in changes and changes[name] is not None
               and changes[name] != getattr(event, name)}
    if not changed:
        return
    if not reason.strip():
        raise ServiceError(_("Round 1 is paired: changing %(field)s needs a reason, kept in "
                             "the event's history.") % {
            "field": Event._meta.get_field(next(iter(changed))).verbose_name})
    log_change(event, HistoryEntry.Action.RULES_CHANGED, {"changes": {
        name: [str(old), str(new)] for name, (old, new) in changed.items()}},
        user=user, reason=reason)


def _check_rounds_change(event: Event, rounds: int, paired: int, reason: str) -> None:
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
        raise ServiceError(ngettext("A round robin plays its table's %(n)d round.",
                                    "A round robin plays its table's %(n)d rounds.",
                                    event.rounds_planned) % {"n": event.rounds_planned})
    if not reason.strip():
        raise ServiceError(_("Round 1 is paired: changing the number of rounds needs a "
                             "reason, kept in the event's history."))
    if rounds < paired:
        raise ServiceError(ngettext(
            "%(n)d round is already paired; the event cannot have fewer.",
            "%(n)d rounds are already paired; the event cannot have fewer.", paired,
        ) % {"n": paired})


@transaction.atomic
def update_player(player: Player, *, name: str, club: str = "", country: str = "",
                  rating: int | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    name = " ".join(name.split())
    player.name, player.club, player.country, player.rating = name, club, country, rating
    checked(player)
    clash = player.event.players.filter(name__iexact=name).exclude(pk=player.pk).exists()
    if clash:
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name})
    player.save()
    return player
