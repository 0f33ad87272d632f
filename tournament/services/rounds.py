"""Rounds: pairing (through the pairing bridge), publication, closing, re-pairing, hand edits."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import pairing as core
from tournament import pairing_bridge
from tournament.models import Absence, Board, Event, Result, Round
from tournament.services.errors import ServiceError
from tournament.services.events import _current_round_number
from tournament.services.results import record_result


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
def schedule_round(round_: Round, starts_at: str) -> Round:
    """Set (or clear, with an empty value) when the round starts, shown on the event page."""
    from django.utils.dateparse import parse_datetime

    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    when = None
    if starts_at.strip():
        when = parse_datetime(starts_at.strip())
        if when is None:
            raise ServiceError(_("%(value)r is not a date and time.") % {"value": starts_at})
        if timezone.is_naive(when):
            when = timezone.make_aware(when)
    round_.starts_at = when
    round_.save(update_fields=["starts_at"])
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


def _write_boards(round_: Round, pairing) -> None:
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
        _forfeit_absent_round_robin_games(round_)


def _forfeit_absent_round_robin_games(round_: Round) -> None:
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
def pair_next_round(event: Event) -> Round:
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
    _write_boards(round_, pairing)
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
def repair_round(round_: Round, *, reason: str = "") -> Round:
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
    _write_boards(round_, pairing)
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
        Q(number=board_number) | Q(first_id__in=[first_id, second_id])
        | Q(second_id__in=[first_id, second_id])
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
