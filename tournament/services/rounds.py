"""Rounds: pairing (through the pairing bridge), publication, closing, re-pairing, hand edits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import pairing as core
from tournament import signals
from tournament.boards import board_attachments
from tournament.bridges import pairing_bridge, standings_bridge
from tournament.models import Absence, Board, Event, HistoryEntry, Player, Result, Round
from tournament.services import checkin
from tournament.services import format as event_format
from tournament.services.errors import NeedsConfirmation, ServiceError
from tournament.services.events import _current_round_number, record_withdrawal, set_absence
from tournament.services.history import log_change
from tournament.services.results import record_result
from tournament.services.validation import checked_value
from tournament.texts.core_messages import pairing_warning_text
from tournament.texts.formatting import absence_text, name_key
from tournament.texts.formatting import vp as vp_text


def missing_results(round_: Round) -> list[Board]:
    accepted = set(
        Result.objects.filter(board__round=round_, status=Result.Status.ACCEPTED)
        .values_list("board_id", flat=True)
    )
    return [b for b in round_.boards.select_related("first", "second") if b.pk not in accepted]


@dataclass(frozen=True)
class NotPaired:
    """A player of the event on no board of a round, and why: ``absent`` (with the absence's
    VP), ``withdrawn`` (after round ``after``) or ``not_yet`` (a late entry joining in round
    ``joins``). Chess arbiters print these under the pairings: a player who looks for their
    name finds it, and everyone sees who is out and what it scores."""

    player: Player
    why: str
    vp: Decimal | None = None
    after: int | None = None
    joins: int | None = None
    absence: Absence | None = None

    def text(self) -> str:
        """What the pairings say of the player, in the active language."""
        if self.why == "absent":
            return _("absent (%(vp)s VP)") % {"vp": vp_text(self.vp)}
        if self.why == "withdrawn":
            return _("withdrawn after round %(n)d") % {"n": self.after}
        return _("joins in round %(n)d") % {"n": self.joins}

    def explained(self) -> str:
        """:meth:`text` with why the player is absent (not checked in, or the reason the
        request gave), for the record of the round."""
        if self.absence is None:
            return self.text()
        return f"{absence_text(self.absence)} ({vp_text(self.vp)} VP)"


def not_paired(round_: Round) -> list[NotPaired]:
    """The event's players on no board of ``round_``, by name."""
    seated = {pk for board in round_.boards.all() for pk in (board.first_id, board.second_id)}
    absences = {a.player_id: a for a in Absence.objects.filter(
        player__event_id=round_.event_id, round_number=round_.number)}
    out = []
    for player in round_.event.players.all():
        if player.pk in seated:
            continue
        if player.pk in absences:
            out.append(NotPaired(player, "absent", vp=absences[player.pk].vp,
                                 absence=absences[player.pk]))
        elif (player.withdrawn_after_round is not None
              and player.withdrawn_after_round < round_.number):
            out.append(NotPaired(player, "withdrawn", after=player.withdrawn_after_round))
        elif player.joined_round > round_.number:
            out.append(NotPaired(player, "not_yet", joins=player.joined_round))
    return sorted(out, key=lambda item: name_key(item.player.name))


def open_conflicts(round_: Round) -> list[Result]:
    """The round's disputed results still waiting for the arbiter, board by board."""
    return list(Result.objects.filter(board__round=round_, status=Result.Status.CONFLICT)
                .select_related("board", "board__first", "board__second", "board__round")
                .order_by("board__number", "version"))


@transaction.atomic
def publish_round(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFTED:
        raise ServiceError(_("Round %(n)d is already published.") % {"n": round_.number})
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    signals.round_published.send(Round, round=round_)
    return round_


@transaction.atomic
def schedule_round(round_: Round, starts_at: datetime | None) -> Round:
    """Set (or clear, with ``None``) when the round starts, shown on the event page; the view
    reads the date with ``tournament.inputs.request_input.date_time``."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    round_.starts_at = starts_at
    round_.save(update_fields=["starts_at"])
    return round_


@transaction.atomic
def close_round(round_: Round, *, over_disputes: bool = False) -> Round:
    """Close a published round whose boards all have a result and whose disputes are settled
    (``over_disputes``: the arbiter chose to pair the next round anyway, with a reason)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    if round_.status == Round.Status.DRAFTED:
        raise ServiceError(_("Publish round %(n)d before closing it.") % {"n": round_.number})
    missing = missing_results(round_)
    if missing:
        raise ServiceError(
            ngettext("Round %(n)d still has %(count)d board without a result.",
                     "Round %(n)d still has %(count)d boards without a result.", len(missing))
            % {"n": round_.number, "count": len(missing)}
        )
    if not over_disputes and open_conflicts(round_):
        raise ServiceError(_("Round %(n)d has open disputes: resolve them before closing it.")
                           % {"n": round_.number})
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    signals.round_closed.send(Round, event=round_.event, number=round_.number)
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
        return _checkin_step(event, 1) or ("pair", _("Pair round 1"))
    if current.status == Round.Status.DRAFTED:
        return ("publish", _("Publish round %(n)d") % {"n": current.number})
    # a board whose players disagree has no result yet, but what it needs is a decision
    conflicts = open_conflicts(current)
    disputed = {c.board_id for c in conflicts}
    if any(b.pk not in disputed for b in missing_results(current)):
        return ("results", _("Enter results of round %(n)d") % {"n": current.number})
    if conflicts:
        return ("conflicts", _("Resolve the disputes of round %(n)d") % {"n": current.number})
    last = event.rounds_planned
    if current.status == Round.Status.PUBLISHED and current.number >= last:
        return ("close", _("Close round %(n)d") % {"n": current.number})
    if current.number >= last:
        return None
    if checkin.never_appeared(event, current.number + 1):
        return ("no_shows", _("Decide about the players who never appeared"))
    return (_checkin_step(event, current.number + 1)
            or ("pair", _("Pair round %(n)d") % {"n": current.number + 1}))


def _checkin_step(event: Event, number: int) -> tuple[str, str] | None:
    """Before pairing a round players check in for, while some have not: close the check-in
    ("Pair round 1" at 0 of 14 checked in was the main button), then decide about those still
    missing (mark them absent); pairing anyway stays one step away on the dashboard."""
    state = checkin.summary(event)
    if state.round != number or not state.missing:
        return None
    if state.open:
        return ("checkin_close", _("Close the check-in for round %(n)d (%(state)s)")
                % {"n": number, "state": state.text()})
    return ("checkin_absent", ngettext(
        "Mark the %(count)d missing player absent for round %(n)d",
        "Mark the %(count)d missing players absent for round %(n)d", len(state.missing))
        % {"count": len(state.missing), "n": number})


def _check_ready_to_pair(event: Event, number: int, *, over_disputes: str = "") -> None:
    if event.players.count() < 2:
        raise ServiceError(_("An event needs at least two players."))
    planned = event_format.planned_rounds(event)
    if number > planned:
        raise ServiceError(ngettext("The %(n)d planned round is paired.",
                                    "All %(n)d planned rounds are paired.", planned)
                           % {"n": planned})
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None:
        if previous.status == Round.Status.DRAFTED:
            raise ServiceError(_("Publish round %(n)d first.") % {"n": previous.number})
        missing = missing_results(previous)
        if missing:
            raise ServiceError(
                ngettext("Round %(n)d still has %(count)d board without a result: enter it "
                         "before pairing round %(next)d.",
                         "Round %(n)d still has %(count)d boards without a result: enter them "
                         "before pairing round %(next)d.", len(missing))
                % {"n": previous.number, "count": len(missing), "next": number}
            )
        disputed = open_conflicts(previous)
        if disputed and not over_disputes.strip():
            raise ServiceError(
                ngettext("Round %(n)d has an open dispute (board %(boards)s): resolve it before "
                         "pairing round %(next)d, or pair anyway with a reason.",
                         "Round %(n)d has open disputes (boards %(boards)s): resolve them before "
                         "pairing round %(next)d, or pair anyway with a reason.",
                         len({c.board_id for c in disputed}))
                % {"n": previous.number, "next": number,
                   "boards": ", ".join(sorted({str(c.board.number) for c in disputed}, key=int))}
            )
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN and event.players.filter(
        joined_round__gt=1
    ).exists():
        raise ServiceError(_("A round robin cannot take late entries; choose Swiss instead."))
    unseen = checkin.never_appeared(event, number)
    if unseen:
        raise ServiceError(_("Before pairing round %(n)d, decide about the players who never "
                             "appeared (on the dashboard): %(names)s.") % {
            "n": number, "names": ", ".join(p.name for p in unseen)})


def _note_paired_on(round_: Round) -> None:
    """Keep each player's VP before the round as it is paired now (``Round.paired_on``)."""
    seeds = dict(round_.event.players.values_list("pk", "seed"))
    before = standings_bridge.vp_before(round_.event, round_.number)
    round_.paired_on = {str(seeds[pk]): str(vp) for pk, vp in sorted(before.items())
                        if seeds.get(pk) is not None}
    round_.save(update_fields=["paired_on"])


def _write_boards(round_: Round, pairing, *, user=None) -> None:
    """Store the core's pairing; byes and round-robin games of absent players get results."""
    event = round_.event
    _note_paired_on(round_)
    by_seed = {p.seed: p for p in event.players.all()}
    round_robin = event.pairing_system == Event.PairingSystem.ROUND_ROBIN
    for index, board in enumerate(pairing.boards, start=1):
        Board.objects.create(round=round_, number=index, first=by_seed[board.first],
                             second=by_seed[board.second])
    bye_player = by_seed.get(pairing.bye) if pairing.bye is not None else None
    if bye_player is not None and (not round_robin or bye_player.is_active_in(round_.number)):
        # A withdrawn round-robin player's bye is not a point: that round has no board.
        bye = Board.objects.create(round=round_, number=len(pairing.boards) + 1,
                                   first=bye_player)
        record_result(bye, Result.Kind.BYE, source=Result.Source.PAIRING,
                      entered_by_label="pairing")
    if round_robin:
        _forfeit_absent_round_robin_games(round_, user=user)


def _forfeit_absent_round_robin_games(round_: Round, *, user=None) -> None:
    """Round robin: games of withdrawn or absent players become forfeits (rules section 2).

    A requested absence is consumed here: the forfeit replaces it, so the round holds exactly
    one result for the absent player (the absence row goes; the history keeps it). An absent
    player whom the table gives the bye simply has the bye.
    """
    absences = {
        a.player_id: a for a in Absence.objects.filter(
            player__event=round_.event, round_number=round_.number)
    }
    for board in round_.boards.select_related("first", "second"):
        if board.is_bye:
            continue
        gone = [
            seat for seat, p in (("first", board.first), ("second", board.second))
            if not p.is_active_in(round_.number) or p.pk in absences
        ]
        if len(gone) == 2:
            record_result(board, Result.Kind.DOUBLE_FORFEIT, source=Result.Source.PAIRING,
                          entered_by_label="pairing", reason="both players absent or withdrawn")
        elif gone:
            record_result(board, Result.Kind.FORFEIT, loser_seat=gone[0],
                          source=Result.Source.PAIRING, entered_by_label="pairing",
                          reason="absent or withdrawn")
    for absence in absences.values():
        log_change(
            round_.event, HistoryEntry.Action.ABSENCE_FORFEITED,
            {"player": absence.player.name, "round": round_.number, "vp": str(absence.vp)},
            user=user, reason=absence.reason,
        )
        absence.delete()


def _pair(event: Event, number: int, *, user=None) -> pairing_bridge.Paired:
    """The pairing core's answer for round ``number`` and what paired it, its refusals as
    service errors. A round paired by other rules than the round before it (than the event's
    own, for round 1) is recorded in the history (:func:`_note_rules`)."""
    try:
        paired = pairing_bridge.pair_round(event, number)
    except core.NoLegalPairing as exc:
        raise ServiceError(
            _("Round %(n)d has no legal pairing (%(why)s). Pair it by hand.")
            % {"n": number, "why": exc}
        ) from exc
    except (core.PairingError, pairing_bridge.IncompleteRound) as exc:
        raise ServiceError(_("Round %(n)d cannot be paired: %(why)s") % {"n": number, "why": exc}
                           ) from exc
    _note_rules(event, number, paired.by, user=user)
    return paired


def _note_rules(event: Event, number: int, by: str, *, user=None) -> None:
    """A change of pairing edition is never silent: the round paired by another edition than
    the round before it (round 1: than the event is set to), or back by its own, is written
    in the history with the reason; so is a round paired again by other rules than its first
    pairing. Pairing a round again by the same rules adds nothing."""
    if not by:
        return
    _engine, _sep, rest = by.partition(":")
    edition, _sep, why = rest.partition(":")
    before = (event.rounds.filter(number__lt=number).exclude(paired_by="")
              .order_by("-number").values_list("paired_by", flat=True).first())
    was = before.split(":")[1] if before else event.pairing_edition
    said = (event.history.filter(action=HistoryEntry.Action.PAIRING_RULES,
                                 details__round=number).order_by("-at", "-pk").first())
    if said is not None and said.details.get("edition") == edition:
        return
    if edition != was or said is not None:
        log_change(event, HistoryEntry.Action.PAIRING_RULES, {
            "round": number, "edition": edition, "own": event.pairing_edition, "why": why},
            user=user)


@transaction.atomic
def pair_next_round(event: Event, *, user=None, over_disputes: str = "") -> Round:
    """Pair the next round with the real pairing code and store it as a draft.

    Round 1 first settles the format and the pairing numbers (``format.settle``). Refuses
    while the previous round has missing results, and while it has open disputes unless the
    arbiter gives a reason (``over_disputes``), kept in the history: a pairing made from a
    disputed result cannot be taken back quietly once the dispute goes the other way. When no
    legal Swiss pairing exists the error says so: the arbiter then pairs by hand
    (``start_manual_round``).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    _check_ready_to_pair(event, number, over_disputes=over_disputes)
    if number == 1:
        event_format.settle(event, user=user)
    paired = _pair(event, number, user=user)
    checkin.note_pairing(event, number, user=user)
    previous = event.rounds.filter(number=number - 1).first()
    disputed = open_conflicts(previous) if previous is not None else []
    if disputed:
        log_change(event, HistoryEntry.Action.PAIRED_OVER_DISPUTES, {
            "round": number, "previous": previous.number,
            "boards": sorted({c.board.number for c in disputed})},
            user=user, reason=over_disputes)
    if previous is not None and previous.status == Round.Status.PUBLISHED:
        close_round(previous, over_disputes=bool(disputed))
    round_ = Round.objects.create(event=event, number=number, paired_by=paired.by)
    _write_boards(round_, paired.pairing, user=user)
    return round_


@transaction.atomic
def start_manual_round(event: Event, *, reason: str, user=None) -> Round:
    """An empty draft round for pairing by hand (when the engine finds no legal pairing)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    _check_ready_to_pair(event, number)
    if not reason.strip():
        raise ServiceError(_("Pairing by hand needs a reason."))
    checked_value(HistoryEntry, "reason", reason.strip())
    if number == 1:
        event_format.settle(event, user=user)
    checkin.note_pairing(event, number, user=user)
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status == Round.Status.PUBLISHED:
        close_round(previous)
    round_ = Round.objects.create(event=event, number=number,
                                  pairing_note=_("Paired by hand: %(r)s") % {"r": reason})
    _note_paired_on(round_)
    return round_


def _results_entered(round_: Round) -> bool:
    return Result.objects.filter(board__round=round_).exclude(source=Result.Source.PAIRING).exists()


def _removal(round_: Round, boards, *, confirm: bool, action: str, user, reason: str,
             about: dict | None = None) -> None:
    """Before boards go: ask when something hangs on them; log what goes, then delete them.

    Results (other than the pairing's own bye and forfeit results) are never removed here: the
    callers refuse first. Clocks, game records and live entries go only with ``confirm``; the
    history keeps their snapshot and the removed pairings.
    """
    boards = list(boards.select_related("first", "second"))
    found = board_attachments.attachments(b.pk for b in boards)
    if found and not confirm:
        numbers = {b.pk: b.number for b in boards}
        listing = "; ".join(
            _("board %(b)d: %(what)s") % {"b": numbers[a.board_id], "what": a.label}
            for a in found
        )
        raise NeedsConfirmation(
            _("Round %(n)d: this removes %(listing)s. Confirm to go ahead; the history keeps "
              "a copy.") % {"n": round_.number, "listing": listing},
            found,
        )
    log_change(round_.event, action, {
        "round": round_.number, **(about or {}),
        "removed_boards": [
            {"number": b.number, "first": b.first.name,
             "second": b.second.name if b.second else None, "token": b.token}
            for b in boards
        ],
        "removed_attachments": [
            {"board": next(b.number for b in boards if b.pk == a.board_id), "kind": a.kind,
             "snapshot": a.snapshot}
            for a in found
        ],
    }, user=user, reason=reason)
    ids = [b.pk for b in boards]
    Result.objects.filter(board_id__in=ids).delete()
    Board.objects.filter(pk__in=ids).delete()


@transaction.atomic
def repair_round(round_: Round, *, reason: str = "", confirm: bool = False, user=None) -> Round:
    """Pair the latest round again (only while no result has been entered).

    Boards with a started clock, a game record or live entries are removed only with
    ``confirm`` (``NeedsConfirmation`` otherwise); the history keeps what went.
    """
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not reason.strip():
        raise ServiceError(_("Pairing a round again needs a reason."))
    checked_value(HistoryEntry, "reason", reason.strip())
    if round_.number != _current_round_number(event):
        raise ServiceError(_("Only the latest round can be paired again."))
    if _results_entered(round_):
        raise ServiceError(_("Round %(n)d already has results; correct them instead.")
                           % {"n": round_.number})
    paired = _pair(event, round_.number, user=user)
    _removal(round_, round_.boards.all(), confirm=confirm, user=user, reason=reason,
             action=HistoryEntry.Action.ROUND_REPAIRED)
    round_.pairing_note = _("Paired again: %(r)s") % {"r": reason.strip()}
    round_.paired_by = paired.by
    round_.save(update_fields=["pairing_note", "paired_by"])
    _write_boards(round_, paired.pairing, user=user)
    return round_


@transaction.atomic
def edit_pairing(round_: Round, *, first_id: int, second_id: int | None, board_number: int,
                 reason: str, confirm: bool = False, user=None) -> Board:
    """Put two players (or one, for a bye) on a board by hand.

    Whoever sat on that board, and any other board of these players, is left unpaired: the
    validator's warnings on the round page list them until the arbiter places them too.
    Boards with a started clock, a game record or live entries go only with ``confirm``.
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not reason.strip():
        raise ServiceError(_("A hand-made pairing needs a reason."))
    checked_value(Board, "manual_reason", reason.strip())
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(_("Round %(n)d is closed.") % {"n": round_.number})
    if first_id == second_id:
        raise ServiceError(_("A player cannot play themself."))
    players = {p.pk: p for p in round_.event.players.filter(pk__in=[first_id, second_id])}
    if first_id not in players or (second_id is not None and second_id not in players):
        raise ServiceError(_("Both players must belong to this event."))
    if board_number < 1:
        raise ServiceError(_("Board numbers start at 1."))
    for player in players.values():
        _check_can_play(player, round_.number)
    affected = round_.boards.filter(
        Q(number=board_number) | Q(first_id__in=[first_id, second_id])
        | Q(second_id__in=[first_id, second_id])
    )
    if Result.objects.filter(board__in=affected).exclude(source=Result.Source.PAIRING).exists():
        raise ServiceError(_("A board involved already has a result; correct it first."))
    names = [players[pk].name for pk in (first_id, second_id) if pk is not None]
    _removal(round_, affected, confirm=confirm, user=user, reason=reason,
             action=HistoryEntry.Action.PAIRING_EDITED,
             about={"board": board_number, "names": names})
    board = Board.objects.create(
        round=round_, number=board_number, first=players[first_id],
        second=players.get(second_id), manual_reason=reason.strip(),
    )
    if board.is_bye:
        record_result(board, Result.Kind.BYE, source=Result.Source.PAIRING,
                      entered_by_label="pairing", reason=reason.strip())
    return board


@dataclass(frozen=True)
class Withdrawal:
    """A withdrawal (or its undo) and what it did to the round being paired: ``draft`` the
    draft round concerned, ``repaired`` whether it was paired again without them (with them,
    for an undo); else the arbiter places the players on the round's page."""

    player: Player
    draft: Round | None = None
    repaired: bool = False


@transaction.atomic
def withdraw_player(player: Player, *, reason: str = "", user=None) -> Withdrawal:
    """Withdraw ``player`` after the last round played. A withdrawal before the pairing applies
    to the round being paired (as in Swiss Manager and Vega): a draft round that pairs the
    player is paired again without them, or, when the arbiter paired it by hand (a board with
    a hand-made pairing, which pairing again would throw away) or the engine finds no pairing
    without them, their board goes and the round page says whom to place."""
    player = record_withdrawal(player, reason=reason)
    about = {"player": player.name, "after": player.withdrawn_after_round}
    draft = (player.event.rounds.filter(status=Round.Status.DRAFTED)
             .filter(Q(boards__first=player) | Q(boards__second=player)).distinct().first())
    if draft is None:
        log_change(player.event, HistoryEntry.Action.PLAYER_WITHDRAWN, about, user=user,
                   reason=reason.strip())
        return Withdrawal(player)
    why = _("%(name)s withdrew: %(reason)s") % {"name": player.name, "reason": reason.strip()}
    if not draft.boards.exclude(manual_reason="").exists():
        try:
            repair_round(draft, reason=why[:300], user=user)
        except ServiceError:
            pass  # no pairing without them: the board goes, the arbiter pairs by hand
        else:
            log_change(player.event, HistoryEntry.Action.PLAYER_WITHDRAWN,
                       {**about, "draft": {"round": draft.number, "repaired": True}},
                       user=user, reason=reason.strip())
            return Withdrawal(player, draft, repaired=True)
    _removal(draft, draft.boards.filter(Q(first=player) | Q(second=player)), confirm=False,
             user=user, reason=reason.strip(), action=HistoryEntry.Action.PLAYER_WITHDRAWN,
             about={**about, "draft": {"round": draft.number, "repaired": False}})
    return Withdrawal(player, draft)


def can_reinstate(player: Player) -> bool:
    """Whether ``player``'s withdrawal can still be undone: no round was played without them
    (only a draft, at most, was paired since)."""
    after = player.withdrawn_after_round
    return after is not None and not player.event.rounds.filter(
        number__gt=after).exclude(status=Round.Status.DRAFTED).exists()


@transaction.atomic
def reinstate_player(player: Player, *, user=None) -> Withdrawal:
    """Undo a withdrawal (the wrong row clicked, a player back after all) while no round has
    been played without them: they are paired again from the next round. A draft round that
    left them out is paired again with them, or, paired by hand or with results, the round
    page lists them as neither paired nor given the bye for the arbiter to place. Written in
    the history; the ``Withdrawal`` returned says what became of the draft."""
    Event.objects.select_for_update().get(pk=player.event_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.withdrawn_after_round is None:
        raise ServiceError(_("%(name)s has not withdrawn.") % {"name": player.name})
    if not can_reinstate(player):
        raise ServiceError(_(
            "A round was played without %(name)s since the withdrawal: it stands. If they "
            "come back, enter them again as a late entry.") % {"name": player.name})
    about = {"player": player.name, "after": player.withdrawn_after_round,
             "reason": player.withdrawal_reason}
    player.withdrawn_after_round, player.withdrawal_reason = None, ""
    player.save(update_fields=["withdrawn_after_round", "withdrawal_reason"])
    draft = player.event.rounds.filter(status=Round.Status.DRAFTED).first()
    repaired = False
    if draft is not None and not draft.boards.filter(Q(first=player) | Q(second=player)).exists():
        if not draft.boards.exclude(manual_reason="").exists() and not _results_entered(draft):
            try:
                repair_round(draft, reason=(_("%(name)s's withdrawal undone")
                                            % {"name": player.name})[:300], user=user)
            except ServiceError:
                pass  # no pairing with them: the round page lists them to place by hand
            else:
                repaired = True
        about["draft"] = {"round": draft.number, "repaired": repaired}
    else:
        draft = None
    log_change(player.event, HistoryEntry.Action.PLAYER_REINSTATED, about, user=user)
    signals.players_changed.send(Player, event=player.event)
    return Withdrawal(player, draft, repaired=repaired)


NO_SHOW_CHOICES = ("absent", "withdraw", "keep")


@transaction.atomic
def decide_no_shows(event: Event, decisions: dict[int, str], *, user=None) -> None:
    """The arbiter's answer, before the next round is paired, about each player who never
    appeared (``checkin.never_appeared``): ``absent`` again in that round (the event's
    absence VP), ``withdraw`` from the event, or ``keep`` (paired all the same). Every such
    player needs an answer; written in the history."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    unseen = checkin.never_appeared(event, number)
    if not unseen:
        raise ServiceError(_("No player is waiting for a decision."))
    if {p.pk for p in unseen} - set(decisions) or set(decisions.values()) - set(NO_SHOW_CHOICES):
        raise ServiceError(_("Choose what becomes of each player who never appeared."))
    done: dict[str, list] = {"withdrawn": [], "absent": [], "kept": []}
    names: dict[str, list[str]] = {"withdrawn": [], "absent": [], "kept": []}
    for player in unseen:
        choice = decisions[player.pk]
        if choice == "withdraw":
            withdraw_player(player, reason=checkin.NO_SHOW_REASON, user=user)
            key = "withdrawn"
        elif choice == "absent":
            set_absence(player, number, reason=checkin.NO_SHOW_REASON)
            key = "absent"
        else:
            key = "kept"
        done[key].append(player.pk)
        names[key].append(player.name)
    log_change(event, HistoryEntry.Action.NO_SHOWS_DECIDED, {
        "round": number, **done, **{f"{k}_names": v for k, v in names.items()}}, user=user)


def _check_can_play(player, number: int) -> None:
    if not player.is_active_in(number):
        raise ServiceError(_("%(name)s does not play in round %(n)d (withdrawn or not yet "
                             "entered).") % {"name": player.name, "n": number})
    if player.absences.filter(round_number=number).exists():
        raise ServiceError(_("%(name)s asked to be absent in round %(n)d; remove the absence "
                             "first.") % {"name": player.name, "n": number})


def pairing_review(round_: Round) -> tuple[list[str], list[str]]:
    """What the round page says about the stored draw: the pairing warnings (the rules it
    breaks), and notes on what breaks no rule but looks as if it did (two players meeting
    again after a forfeit, which is not a meeting). One reading of the event for both."""
    try:
        warnings, forfeits = pairing_bridge.review(round_)
    except (pairing_bridge.IncompleteRound, core.PairingError) as exc:
        return [str(exc)], []
    names = dict(round_.event.players.values_list("seed", "name"))
    notes = [_("Board %(board)d: %(first)s and %(second)s meet again. Their game in round "
               "%(round)d was a forfeit, not played, and a forfeit is not a meeting (FIDE), so "
               "it does not bar a rematch.") % {"board": board, "first": names[first],
                                                "second": names[second], "round": number}
             for board, first, second, number in forfeits]
    return [pairing_warning_text(w) for w in warnings], notes
