"""Results as append-only versions: entry, idempotent re-entry, conflicts, corrections."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import signals
from tournament.models import Board, Result
from tournament.outcome import Outcome, ResultError, derive_outcome
from tournament.services.errors import (
    InvalidResult,
    Recorded,
    ResultRefused,
    ServiceError,
    StaleResult,
)
from tournament.services.validation import checked

#: Who else decides how a board gets its result: ``guard(board, source, reason)`` answers a
#: ``ResultRefused`` for a result that may not be stored on that board, else None. The event
#: app never imports the apps above it, so they register here in ``AppConfig.ready``
#: (``games``: an online game's board takes its result from the game only, or from an
#: arbiter's decision with a reason). Every result passes ``record_result``: one check holds
#: for every way in (the slip page, the arbiter's board page, records, the API).
_result_guards: dict[str, Callable[[Board, str, str], ResultRefused | None]] = {}


def register_result_guard(name: str,
                          guard: Callable[[Board, str, str], ResultRefused | None]) -> None:
    _result_guards[name] = guard


def guard_refusal(board: Board, source: str, reason: str = "") -> ResultRefused | None:
    """What the registered guards say about a result from ``source`` on ``board`` (None: no
    objection): asked before anything is written, e.g. before a player's confirmation."""
    for guard in _result_guards.values():
        refused = guard(board, source, reason)
        if refused is not None:
            return refused
    return None


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
    entered_by_label: str = "",
    hold: bool = False,
) -> Recorded:
    """Store a board's result as a new version.

    - no accepted result yet: the new one is accepted;
    - the same as the accepted one: nothing is written (a double click, a re-submission);
    - different, ``correction`` (an arbiter, with a reason): the old version is superseded;
    - different otherwise: kept as a conflict for the arbiter, the accepted one stays.
    ``expected_version`` is the accepted version the arbiter saw; if another arbiter changed the
    result meanwhile, a correction is refused with ``StaleResult`` instead of overwriting it.
    ``hold`` keeps the new version as a conflict for the arbiter even when the board has no
    accepted result yet (two players who confirmed different scores: neither wins by arriving
    first).

    The players' confirmations are a source too (``tournament.services.confirmations``): a
    result from anyone else on a board with no accepted result yet, which differs from what a
    player confirmed, is kept as a conflict beside that player's account (stored as a
    conflict of its own): an arbiter's typo on the slip must not quietly overrule a player.
    One that agrees with every confirmation is accepted. An arbiter's ``correction`` (with a
    reason) decides, and passes.
    """
    board = Board.objects.select_for_update().select_related("round__event").get(pk=board.pk)
    event = board.round.event
    if board.is_bye and kind != Result.Kind.BYE:
        raise InvalidResult("kind", _("A bye has no game to report."))
    if not board.is_bye and kind == Result.Kind.BYE:
        raise InvalidResult("kind", _("Only a bye board takes a bye result."))
    if kind == Result.Kind.DECISION and not reason.strip():
        raise InvalidResult("reason", _("An arbiter decision needs a reason."))
    refused = guard_refusal(board, source, reason)
    if refused is not None:
        raise refused
    try:
        outcome = derive_outcome(
            kind, first_scores=first_scores, second_scores=second_scores,
            loser_seat=loser_seat, first_vp=first_vp, second_vp=second_vp, bye_vp=event.bye_vp,
        )
    except ResultError as exc:
        raise InvalidResult(exc.field, exc.message) from None
    accepted = current_result(board)
    if accepted is not None and _same(accepted, outcome, kind):
        return Recorded(accepted, created=False, conflict=False)
    disputed: tuple[str, ...] = ()
    if accepted is None and source != Result.Source.PLAYERS and not correction:
        disputed = _hold_differing_confirmations(board, kind, outcome)
        hold = hold or bool(disputed)
    if correction:
        if not reason.strip():
            raise InvalidResult("reason", _("A correction needs a reason."))
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
        Result.Status.ACCEPTED if (accepted is None and not hold) or correction
        else Result.Status.CONFLICT
    )
    version = (board.results.aggregate(m=Max("version"))["m"] or 0) + 1
    result = checked(Result(
        board=board, version=version, kind=kind, status=status, source=source,
        first_scores=outcome.first_scores, second_scores=outcome.second_scores,
        first_vp=outcome.first_vp, second_vp=outcome.second_vp,
        loser_seat=loser_seat if kind in ("resignation", "forfeit") else "",
        reason=reason.strip(), entered_by=user if _is_user(user) else None,
        entered_by_label=_label(user, entered_by_label)[:100],
    ), exclude=["board", "entered_by"])
    try:
        with transaction.atomic():
            result.save(force_insert=True)
    except IntegrityError as exc:  # a concurrent writer won the race for this version
        raise StaleResult(_("Another result for this board was saved at the same moment; "
                            "reload and check.")) from exc
    signals.result_stored.send(Result, event=event, result=result)
    return Recorded(result, created=True, conflict=status == Result.Status.CONFLICT,
                    disputed_by=disputed)


def _hold_differing_confirmations(board: Board, kind: str, outcome: Outcome) -> tuple[str, ...]:
    """The names of the players whose confirmation differs from ``outcome``; each such
    account is stored as a conflict (once), so that the arbiter sees both versions side by
    side and decides."""
    names = []
    for confirmation in board.confirmations.select_related(None).order_by("seat"):
        if (kind == Result.Kind.PLAYED and confirmation.first_scores == outcome.first_scores
                and confirmation.second_scores == outcome.second_scores):
            continue
        name = getattr(board, confirmation.seat).name
        names.append(name)
        record_result(
            board, Result.Kind.PLAYED, source=Result.Source.PLAYERS,
            first_scores=confirmation.first_scores, second_scores=confirmation.second_scores,
            entered_by_label=f"{name} {timezone.localtime(confirmation.at):%H:%M}",
            reason=_("confirmed by %(name)s; the result entered differs") % {"name": name},
            hold=True)
    return tuple(names)


#: Sources an arbiter types: a later slip of the event's arbiter corrects them while the round
#: is open (one's own typo is not a dispute). Against a game record or the players, a differing
#: slip stays a conflict: two sources disagree.
ARBITER_TYPED = (Result.Source.SLIP, Result.Source.ARBITER)


def enter_slip(board: Board, *, user, first_scores, second_scores,
               expected_version: int | None = None) -> Recorded:
    """The twelve scores of a slip, typed by the event's arbiter.

    A board whose accepted result the arbiters typed themselves, in a round not yet closed, is
    corrected (a new version naming who corrected it, no conflict): retyping is how one fixes
    one's own typo. ``expected_version`` (the version the slip page showed) refuses the
    correction if someone changed the result meanwhile.
    """
    accepted = current_result(board)
    own_typo = (accepted is not None and accepted.source in ARBITER_TYPED
                and board.round.status != board.round.Status.CLOSED
                and board.round.event.is_arbiter(user))
    return record_result(
        board, Result.Kind.PLAYED, user=user, first_scores=first_scores,
        second_scores=second_scores, correction=own_typo,
        reason=_("retyped on the slip page") if own_typo else "",
        expected_version=expected_version if own_typo else None,
    )


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


@transaction.atomic
def resolve_conflict(conflict: Result, *, accept: bool, user, reason: str) -> Result:
    """Accept a conflicting submission (it becomes a new accepted version) or dismiss it; the
    decision (who, when, why) is kept with the version it settled."""
    if not reason.strip():
        raise InvalidResult("reason", _("Resolving a conflict needs a reason."))
    Board.objects.select_for_update().get(pk=conflict.board_id)
    conflict = Result.objects.get(pk=conflict.pk)
    if conflict.status != Result.Status.CONFLICT:
        raise ServiceError(_("This submission is no longer an open conflict."))
    conflict.status = Result.Status.ADOPTED if accept else Result.Status.DISMISSED
    _decided(conflict, user, reason.strip())
    conflict.save(update_fields=["status", *DECISION])
    if not accept:
        return conflict
    recorded = record_result(
        conflict.board, conflict.kind, user=user, source=Result.Source.ARBITER,
        first_scores=conflict.first_scores, second_scores=conflict.second_scores,
        loser_seat=conflict.loser_seat, first_vp=conflict.first_vp,
        second_vp=conflict.second_vp,
        reason=f"{reason.strip()} (accepted version {conflict.version})", correction=True,
    )
    if recorded.created:
        signals.result_carried_over.send(Result, result=recorded.result, source=conflict)
    _dismiss_siblings(conflict, recorded.result, user)
    return recorded.result


#: The fields of an arbiter's decision on a version.
DECISION = ("decided_by_label", "decided_at", "decision_reason")


def _decided(result: Result, user, reason: str) -> None:
    result.decided_by_label = _label(user, "")[:100]
    result.decided_at = timezone.now()
    result.decision_reason = reason[:300]


def _dismiss_siblings(adopted: Result, accepted: Result, user) -> None:
    """The other versions of a board whose disagreement the arbiter settled by accepting one
    of them (the other player's account, a slip against a confirmation): dismissed, saying
    why, so that they no longer hold up pairing the next round (which refuses over open
    conflicts)."""
    note = (_("the arbiter accepted version %(v)d (stored as version %(stored)d)")
            % {"v": adopted.version, "stored": accepted.version})
    for sibling in adopted.board.results.filter(status=Result.Status.CONFLICT):
        sibling.status = Result.Status.DISMISSED
        _decided(sibling, user, note)
        sibling.save(update_fields=["status", *DECISION])
