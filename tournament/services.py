"""The only code that writes events, players, rounds and results.

Every function here is a transaction: it locks what it changes, checks, writes, and leaves
nothing half-done when it refuses. Views, commands and consumers call these; they never save
models themselves.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.db.models import Q as models_q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament import pairing as core
from tournament import pairing_bridge
from tournament.models import Absence, Board, Event, Player, Result, Round
from tournament.outcome import Outcome, ResultError, derive_outcome


class ServiceError(Exception):
    """An action the arbiter asked for that the rules or the event's state do not allow."""


class StaleResult(ServiceError):
    """The result changed since the form was shown; nothing was written."""


@dataclass(frozen=True)
class Recorded:
    """What ``record_result`` did: the row it concerns and whether it wrote one."""

    result: Result
    created: bool
    conflict: bool


# --- events and players -------------------------------------------------------------------


def unique_slug(name: str) -> str:
    base = slugify(name)[:50] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_event(*, name: str, arbiter=None, slug: str | None = None, **fields) -> Event:
    event = Event.objects.create(name=name, slug=slug or unique_slug(name), **fields)
    if arbiter is not None:
        event.arbiters.add(arbiter)
    return event


def _next_seed(event: Event) -> int:
    return (event.players.aggregate(m=Max("seed"))["m"] or 0) + 1


def _current_round_number(event: Event) -> int:
    return event.rounds.aggregate(m=Max("number"))["m"] or 0


@transaction.atomic
def add_player(event: Event, *, name: str, club: str = "", country: str = "",
               rating: int | None = None) -> Player:
    """Enter a player; after round 1 has been paired this is a late entry (0 VP so far)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A player needs a name."))
    if event.players.filter(name__iexact=name).exists():
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name})
    joined = _current_round_number(event) + 1
    return Player.objects.create(
        event=event, name=name, club=club, country=country, rating=rating,
        seed=_next_seed(event), joined_round=joined,
    )


def parse_players_csv(text: str) -> list[dict]:
    """Rows of a CSV with a ``name`` column (``club``, ``country``, ``rating`` optional)."""
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "name" not in [f.strip().lower() for f in reader.fieldnames]:
        raise ServiceError(_("The CSV needs a header line with a 'name' column."))
    rows = []
    for line_no, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        if not row.get("name"):
            raise ServiceError(_("Line %(line)d: the name is empty.") % {"line": line_no})
        rating = row.get("rating") or None
        if rating is not None:
            if not rating.isdigit():
                raise ServiceError(
                    _("Line %(line)d: rating %(value)r is not a whole number.")
                    % {"line": line_no, "value": rating}
                )
            rating = int(rating)
        rows.append({"name": row["name"], "club": row.get("club", ""),
                     "country": row.get("country", "")[:3], "rating": rating})
    return rows


@transaction.atomic
def import_players(event: Event, text: str) -> list[Player]:
    """All rows or none: one bad line refuses the whole file."""
    return [add_player(event, **row) for row in parse_players_csv(text)]


@transaction.atomic
def withdraw_player(player: Player, *, reason: str = "") -> Player:
    """Not paired after the current round; past games stand."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.withdrawn_after_round is not None:
        raise ServiceError(_("%(name)s has already withdrawn.") % {"name": player.name})
    player.withdrawn_after_round = _current_round_number(player.event)
    player.save(update_fields=["withdrawn_after_round"])
    return player


@transaction.atomic
def set_absence(player: Player, round_number: int, *, vp=None, reason: str = "") -> Absence:
    """A requested absence for a round not yet paired (0 VP unless the arbiter grants ½)."""
    event = player.event
    if event.rounds.filter(number=round_number).exists():
        raise ServiceError(_("Round %(n)d is already paired.") % {"n": round_number})
    absence, _created = Absence.objects.update_or_create(
        player=player, round_number=round_number,
        defaults={"vp": event.absence_vp if vp is None else vp, "reason": reason},
    )
    return absence


# --- results ------------------------------------------------------------------------------


def current_result(board: Board) -> Result | None:
    return board.results.filter(status=Result.Status.ACCEPTED).first()


def _same(result: Result, outcome: Outcome, kind: str) -> bool:
    return (
        result.kind == kind
        and result.first_vp == outcome.first_vp
        and result.second_vp == outcome.second_vp
        and result.first_scores == outcome.first_scores
        and result.second_scores == outcome.second_scores
    )


def _label(user, label: str) -> str:
    if label:
        return label
    return user.get_username() if user is not None and user.is_authenticated else ""


@transaction.atomic
def record_result(
    board: Board,
    kind: str,
    *,
    user=None,
    source: str = Result.Source.SLIP,
    first_scores=None,
    second_scores=None,
    loser_seat: str = "",
    first_vp=None,
    second_vp=None,
    reason: str = "",
    correction: bool = False,
    expected_version: int | None = None,
    record=None,
    entered_by_label: str = "",
) -> Recorded:
    """Store a board's result as a new version.

    - no accepted result yet: the new one is accepted;
    - the same as the accepted one: nothing is written (a double click, a re-submission);
    - different, ``correction`` (an arbiter, with a reason): the old version is superseded;
    - different otherwise: kept as a conflict for the arbiter, the accepted one stays.
    ``expected_version`` is the accepted version the arbiter saw; if another arbiter changed the
    result meanwhile, a correction is refused with ``StaleResult`` instead of overwriting it.
    """
    board = Board.objects.select_for_update().select_related("round__event").get(pk=board.pk)
    event = board.round.event
    if board.is_bye and kind != Result.Kind.BYE:
        raise ResultError("kind", _("A bye has no game to report."))
    if not board.is_bye and kind == Result.Kind.BYE:
        raise ResultError("kind", _("Only a bye board takes a bye result."))
    if kind == Result.Kind.DECISION and not reason.strip():
        raise ResultError("reason", _("An arbiter decision needs a reason."))
    outcome = derive_outcome(
        kind, first_scores=first_scores, second_scores=second_scores, loser_seat=loser_seat,
        first_vp=first_vp, second_vp=second_vp, bye_vp=event.bye_vp,
    )
    accepted = current_result(board)
    if accepted is not None and _same(accepted, outcome, kind):
        return Recorded(accepted, created=False, conflict=False)
    if correction:
        if not reason.strip():
            raise ResultError("reason", _("A correction needs a reason."))
        seen = accepted.version if accepted else None
        if expected_version is not None and expected_version != seen:
            raise StaleResult(
                _("This result was changed by someone else (now version %(v)s); "
                  "reload and check before correcting.") % {"v": seen}
            )
    open_conflict = board.results.filter(status=Result.Status.CONFLICT)
    for pending in open_conflict:
        if _same(pending, outcome, kind):
            return Recorded(pending, created=False, conflict=True)
    if accepted is not None and correction:
        accepted.status = Result.Status.SUPERSEDED
        accepted.save(update_fields=["status"])
    status = (
        Result.Status.ACCEPTED if accepted is None or correction else Result.Status.CONFLICT
    )
    version = (board.results.aggregate(m=Max("version"))["m"] or 0) + 1
    try:
        with transaction.atomic():
            result = Result.objects.create(
                board=board, version=version, kind=kind, status=status, source=source,
                first_scores=outcome.first_scores, second_scores=outcome.second_scores,
                first_vp=outcome.first_vp, second_vp=outcome.second_vp,
                loser_seat=loser_seat if kind in ("resignation", "forfeit") else "",
                reason=reason.strip(), entered_by=user if _is_user(user) else None,
                entered_by_label=_label(user, entered_by_label), record=record,
            )
    except IntegrityError as exc:  # a concurrent writer won the race for this version
        raise StaleResult(_("Another result for this board was saved at the same moment; "
                            "reload and check.")) from exc
    return Recorded(result, created=True, conflict=status == Result.Status.CONFLICT)


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


@transaction.atomic
def resolve_conflict(conflict: Result, *, accept: bool, user, reason: str) -> Result:
    """Accept a conflicting submission (it becomes a new accepted version) or dismiss it."""
    if not reason.strip():
        raise ResultError("reason", _("Resolving a conflict needs a reason."))
    Board.objects.select_for_update().get(pk=conflict.board_id)
    conflict = Result.objects.get(pk=conflict.pk)
    if conflict.status != Result.Status.CONFLICT:
        raise ServiceError(_("This submission is no longer an open conflict."))
    conflict.status = Result.Status.DISMISSED
    conflict.save(update_fields=["status"])
    if not accept:
        return conflict
    recorded = record_result(
        conflict.board, conflict.kind, user=user, source=Result.Source.ARBITER,
        first_scores=conflict.first_scores, second_scores=conflict.second_scores,
        loser_seat=conflict.loser_seat, first_vp=conflict.first_vp,
        second_vp=conflict.second_vp, record=conflict.record,
        reason=f"{reason.strip()} (accepted version {conflict.version})", correction=True,
    )
    return recorded.result


# --- round life cycle ---------------------------------------------------------------------


def missing_results(round_: Round) -> list[Board]:
    accepted = set(
        Result.objects.filter(board__round=round_, status=Result.Status.ACCEPTED)
        .values_list("board_id", flat=True)
    )
    return [b for b in round_.boards.select_related("first", "second") if b.pk not in accepted]


@transaction.atomic
def publish_round(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFTED:
        raise ServiceError(_("Round %(n)d is already published.") % {"n": round_.number})
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    return round_


@transaction.atomic
def close_round(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    if round_.status == Round.Status.DRAFTED:
        raise ServiceError(_("Publish round %(n)d before closing it.") % {"n": round_.number})
    missing = missing_results(round_)
    if missing:
        raise ServiceError(
            _("Round %(n)d still has %(count)d boards without a result.")
            % {"n": round_.number, "count": len(missing)}
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    return round_


# --- small queries the pages share ------------------------------------------------------


def next_round_number(event: Event) -> int:
    return _current_round_number(event) + 1


def boards_with_results(round_: Round) -> list[tuple[Board, Result | None]]:
    """Each board of the round with its accepted result (two queries, whatever the size)."""
    boards = list(round_.boards.select_related("first", "second").order_by("number", "pk"))
    accepted = {
        r.board_id: r
        for r in Result.objects.filter(board__round=round_, status=Result.Status.ACCEPTED)
    }
    return [(b, accepted.get(b.pk)) for b in boards]


def next_board_without_result(round_: Round, *, after: Board) -> Board | None:
    waiting = [b for b, r in boards_with_results(round_) if r is None and not b.is_bye]
    later = [b for b in waiting if b.number > after.number]
    return (later or waiting or [None])[0]


def next_action(event: Event) -> tuple[str, str] | None:
    """The one thing the arbiter should do next, as (code, label) for the dashboard's button."""
    if event.players.count() < 2:
        return ("players", _("Add players"))
    current = event.rounds.order_by("-number").first()
    if current is None:
        return ("pair", _("Pair round 1"))
    if current.status == Round.Status.DRAFTED:
        return ("publish", _("Publish round %(n)d") % {"n": current.number})
    if missing_results(current):
        return ("results", _("Enter results of round %(n)d") % {"n": current.number})
    if current.status == Round.Status.PUBLISHED and current.number >= event.rounds_planned:
        return ("close", _("Close round %(n)d") % {"n": current.number})
    if current.number >= event.rounds_planned:
        return None
    return ("pair", _("Pair round %(n)d") % {"n": current.number + 1})


@transaction.atomic
def update_event(event: Event, form) -> Event:
    """Save the settings form; the tiebreak order comes from its own field."""
    event = form.save(commit=False)
    event.tiebreaks = form.cleaned_data["tiebreak_order"] or event.tiebreaks
    event.save()
    return event


@transaction.atomic
def update_player(player: Player, *, name: str, club: str = "", country: str = "",
                  rating: int | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    name = " ".join(name.split())
    clash = player.event.players.filter(name__iexact=name).exclude(pk=player.pk).exists()
    if clash:
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name})
    player.name, player.club, player.country, player.rating = name, club, country, rating
    player.save()
    return player


# --- pairing ------------------------------------------------------------------------------


def _check_ready_to_pair(event: Event, number: int) -> None:
    if number > event.rounds_planned:
        raise ServiceError(_("All %(n)d planned rounds are paired.") % {"n": event.rounds_planned})
    if event.players.count() < 2:
        raise ServiceError(_("An event needs at least two players."))
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None:
        if previous.status == Round.Status.DRAFTED:
            raise ServiceError(_("Publish round %(n)d first.") % {"n": previous.number})
        missing = missing_results(previous)
        if missing:
            raise ServiceError(
                _("Round %(n)d still has %(count)d boards without a result: enter them before "
                  "pairing round %(next)d.")
                % {"n": previous.number, "count": len(missing), "next": number}
            )
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN and event.players.filter(
        joined_round__gt=1
    ).exists():
        raise ServiceError(_("A round robin cannot take late entries; choose Swiss instead."))


def _write_boards(round_: Round, pairing, *, user=None) -> None:
    """Store the core's pairing; byes and round-robin games of absent players get results."""
    event = round_.event
    by_seed = {p.seed: p for p in event.players.all()}
    for index, board in enumerate(pairing.boards, start=1):
        Board.objects.create(round=round_, number=index, first=by_seed[board.first],
                             second=by_seed[board.second])
    if pairing.bye is not None:
        bye = Board.objects.create(round=round_, number=len(pairing.boards) + 1,
                                   first=by_seed[pairing.bye])
        record_result(bye, Result.Kind.BYE, source=Result.Source.PAIRING,
                      entered_by_label="pairing")
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
        _forfeit_absent_round_robin_games(round_, user=user)


def _forfeit_absent_round_robin_games(round_: Round, *, user=None) -> None:
    """Round robin: games of withdrawn or absent players become forfeits (rules decision)."""
    absent = set(
        Absence.objects.filter(player__event=round_.event, round_number=round_.number)
        .values_list("player_id", flat=True)
    )
    for board in round_.boards.filter(second__isnull=False).select_related("first", "second"):
        gone = [
            seat for seat, p in (("first", board.first), ("second", board.second))
            if not p.is_active_in(round_.number) or p.pk in absent
        ]
        if len(gone) == 2:
            record_result(board, Result.Kind.DOUBLE_FORFEIT, source=Result.Source.PAIRING,
                          entered_by_label="pairing", reason="both players absent or withdrawn")
        elif gone:
            record_result(board, Result.Kind.FORFEIT, loser_seat=gone[0],
                          source=Result.Source.PAIRING, entered_by_label="pairing",
                          reason="absent or withdrawn")


@transaction.atomic
def pair_next_round(event: Event, *, user=None) -> Round:
    """Pair the next round with the real pairing code and store it as a draft.

    Refuses while the previous round has missing results. When no legal Swiss pairing exists
    the error says so: the arbiter then pairs by hand (``start_manual_round``).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    _check_ready_to_pair(event, number)
    try:
        pairing = pairing_bridge.pair_round(event, number)
    except core.NoLegalPairing as exc:
        raise ServiceError(
            _("Round %(n)d has no legal pairing (%(why)s). Pair it by hand.")
            % {"n": number, "why": exc}
        ) from exc
    except core.PairingError as exc:
        raise ServiceError(_("Round %(n)d cannot be paired: %(why)s") % {"n": number, "why": exc}
                           ) from exc
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status == Round.Status.PUBLISHED:
        close_round(previous)
    round_ = Round.objects.create(event=event, number=number)
    _write_boards(round_, pairing, user=user)
    return round_


@transaction.atomic
def start_manual_round(event: Event, *, reason: str) -> Round:
    """An empty draft round for pairing by hand (when the engine finds no legal pairing)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    _check_ready_to_pair(event, number)
    if not reason.strip():
        raise ServiceError(_("Pairing by hand needs a reason."))
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status == Round.Status.PUBLISHED:
        close_round(previous)
    return Round.objects.create(event=event, number=number,
                                pairing_note=_("Paired by hand: %(r)s") % {"r": reason})


def _results_entered(round_: Round) -> bool:
    return Result.objects.filter(board__round=round_).exclude(source=Result.Source.PAIRING).exists()


@transaction.atomic
def repair_round(round_: Round, *, user=None, reason: str = "") -> Round:
    """Pair the latest round again (only while no result has been entered)."""
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not reason.strip():
        raise ServiceError(_("Pairing a round again needs a reason."))
    if round_.number != _current_round_number(event):
        raise ServiceError(_("Only the latest round can be paired again."))
    if _results_entered(round_):
        raise ServiceError(_("Round %(n)d already has results; correct them instead.")
                           % {"n": round_.number})
    try:
        pairing = pairing_bridge.pair_round(event, round_.number)
    except core.PairingError as exc:
        raise ServiceError(str(exc)) from exc
    Result.objects.filter(board__round=round_).delete()
    round_.boards.all().delete()
    round_.pairing_note = _("Paired again: %(r)s") % {"r": reason.strip()}
    round_.save(update_fields=["pairing_note"])
    _write_boards(round_, pairing, user=user)
    return round_


@transaction.atomic
def edit_pairing(round_: Round, *, first_id: int, second_id: int | None, board_number: int,
                 reason: str) -> Board:
    """Put two players (or one, for a bye) on a board by hand.

    Whoever sat on that board, and any other board of these players, is left unpaired: the
    validator's warnings on the round page list them until the arbiter places them too.
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not reason.strip():
        raise ServiceError(_("A hand-made pairing needs a reason."))
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(_("Round %(n)d is closed.") % {"n": round_.number})
    if first_id == second_id:
        raise ServiceError(_("A player cannot play themself."))
    players = {p.pk: p for p in round_.event.players.filter(pk__in=[first_id, second_id])}
    if first_id not in players or (second_id is not None and second_id not in players):
        raise ServiceError(_("Both players must belong to this event."))
    if board_number < 1:
        raise ServiceError(_("Board numbers start at 1."))
    affected = round_.boards.filter(
        models_q(number=board_number) | models_q(first_id__in=[first_id, second_id])
        | models_q(second_id__in=[first_id, second_id])
    )
    if Result.objects.filter(board__in=affected).exclude(source=Result.Source.PAIRING).exists():
        raise ServiceError(_("A board involved already has a result; correct it first."))
    Result.objects.filter(board__in=affected).delete()
    affected.delete()
    board = Board.objects.create(
        round=round_, number=board_number, first=players[first_id],
        second=players.get(second_id), manual_reason=reason.strip(),
    )
    if board.is_bye:
        record_result(board, Result.Kind.BYE, source=Result.Source.PAIRING,
                      entered_by_label="pairing", reason=reason.strip())
    return board


def pairing_warnings(round_: Round) -> list[str]:
    try:
        return [str(w) for w in pairing_bridge.warnings_for(round_)]
    except ValueError as exc:  # an earlier round lacks results: nothing sound to check
        return [str(exc)]
