"""Results the players confirm: the only code that writes ``Confirmation`` rows.

After the game each player gives the twelve colour scores (their own and the opponent's). When
both seats' accounts agree, the result is stored with the source "players" (both names and
times kept in ``entered_by_label``) and accepted without the arbiter; when they disagree, both
accounts become conflicts for the arbiter (``record_result(hold=True)``), each saying whose it
is. A board whose result comes from a verified record (an online game, a game record) needs
no confirmation. Every refusal is a ``ResultRefused`` with a stable ``code``; nothing is written.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.boards import links
from tournament.boards.board_attachments import Attachment
from tournament.boards.tokens import TokenRefused, check_round_open
from tournament.models import Board, Confirmation, Event, Player, Result, Round
from tournament.outcome import ResultError, derive_outcome
from tournament.services.errors import InvalidResult, Recorded, ResultRefused, ServiceError
from tournament.services.results import current_result, guard_refusal, record_result

SEATS = ("first", "second")

# The states of a board as the arbiter's round page and the players' panel name them.
WAITING = "waiting"
ONE_CONFIRMED = "one_confirmed"
CONFIRMED = "confirmed"
CONFLICT = "conflict"
ARBITER = "arbiter"
RECORD = "record"
BYE = "bye"

STATE_WORDS = {
    WAITING: gettext_lazy("waiting for the players"),
    ONE_CONFIRMED: gettext_lazy("one player confirmed"),
    CONFIRMED: gettext_lazy("confirmed by both players"),
    CONFLICT: gettext_lazy("conflict: the arbiter decides"),
    ARBITER: gettext_lazy("entered by the arbiter"),
    RECORD: gettext_lazy("from the game record"),
    BYE: gettext_lazy("bye"),
}
#: A symbol beside the words (the words carry the meaning; the symbol is for the eye).
STATE_MARKS = {WAITING: "○", ONE_CONFIRMED: "◐", CONFIRMED: "●", CONFLICT: "⚠",
               ARBITER: "✎", RECORD: "▦", BYE: "–"}


def players_confirm_results(event: Event) -> bool:
    """Whether this event's players confirm their results (``Event.player_results``)."""
    if event.player_results == Event.PlayerResults.ALWAYS:
        return True
    if event.player_results == Event.PlayerResults.NEVER:
        return False
    return event.checkin != Event.CheckIn.OFF


def seat_of(board: Board, player: Player) -> str | None:
    if player.pk == board.first_id:
        return "first"
    if board.second_id is not None and player.pk == board.second_id:
        return "second"
    return None


def _when(at: datetime.datetime) -> str:
    return timezone.localtime(at).strftime("%H:%M")


def _agree(a: Confirmation, b: Confirmation) -> bool:
    return a.first_scores == b.first_scores and a.second_scores == b.second_scores


def _same_scores(result: Result | None, first: dict, second: dict) -> bool:
    return (result is not None and result.kind == Result.Kind.PLAYED
            and result.first_scores == first and result.second_scores == second)


def _refused(code: str, message: str) -> ResultRefused:
    return ResultRefused(code, message)


def check_can_confirm(board: Board, player: Player, now: datetime.datetime | None = None) -> str:
    """The player's seat at ``board`` if they may confirm its result now, else ``ResultRefused``
    with the reason (``code``: not_enabled, not_your_board, bye, round_closed, online_game,
    record, decided)."""
    now = now or timezone.now()
    event = board.round.event
    if not players_confirm_results(event):
        raise _refused("not_enabled", _("In this event the arbiter enters the results; "
                                        "hand in your result slip."))
    seat = seat_of(board, player)
    if seat is None:
        raise _refused("not_your_board", _("You do not play on this board."))
    if board.is_bye:
        raise _refused("bye", _("A bye has no game to confirm."))
    try:
        check_round_open(board.round, now)
    except TokenRefused as exc:
        raise _refused("round_closed", str(exc)) from None
    refused = guard_refusal(board, Result.Source.PLAYERS)
    if refused is not None:
        raise _refused("online_game", _("This game is played online: its result comes from the "
                                        "game itself, nothing to confirm."))
    accepted = current_result(board)
    if accepted is not None and accepted.source == Result.Source.RECORD:
        raise _refused("record", _("This result comes from the verified game record: nothing "
                                   "to confirm."))
    if board.results.filter(source=Result.Source.PLAYERS,
                            status=Result.Status.ADOPTED).exists():
        # the arbiter chose between the players' accounts: confirming again would only
        # reopen the dispute
        raise _refused("decided", _("The arbiter decided this result; ask the arbiter if it is "
                                    "wrong."))
    return seat


@dataclass(frozen=True)
class Confirmed:
    """What ``confirm`` did: the player's confirmation, the board's state after it, and the
    result it stored (if it stored one)."""

    confirmation: Confirmation
    state: str
    recorded: Recorded | None = None


@transaction.atomic
def confirm(board: Board, player: Player, first_scores, second_scores, via: str,
            now: datetime.datetime | None = None) -> Confirmed:
    """Store the player's account of the board's twelve scores; store the result when both
    players' accounts agree, or both accounts as conflicts when they differ.

    A player may change their account until the result is stored from the players; after that
    the same scores again change nothing and different ones are refused ("stored": the
    arbiter corrects it).
    """
    now = now or timezone.now()
    board = (Board.objects.select_for_update(of=("self",))
             .select_related("round__event", "first", "second").get(pk=board.pk))
    seat = check_can_confirm(board, player, now)
    if via not in Confirmation.Via.values:
        raise InvalidResult("via", f"via: unknown way in {via!r}")
    try:
        outcome = derive_outcome(Result.Kind.PLAYED, first_scores=first_scores,
                                 second_scores=second_scores)
    except ResultError as exc:
        raise InvalidResult(exc.field, exc.message) from None
    first, second = outcome.first_scores, outcome.second_scores
    accepted = current_result(board)
    mine = board.confirmations.filter(seat=seat).first()
    if accepted is not None and accepted.source == Result.Source.PLAYERS:
        if _same_scores(accepted, first, second):
            return Confirmed(mine, CONFIRMED) if mine else Confirmed(
                _save(board, seat, first, second, via, now), CONFIRMED)
        raise _refused("stored", _("Both players confirmed this result and it is stored; "
                                   "ask the arbiter to correct it."))
    if mine is not None and mine.first_scores == first and mine.second_scores == second:
        return Confirmed(mine, board_state(board))  # a double click: nothing changes
    mine = _save(board, seat, first, second, via, now)
    other = board.confirmations.filter(seat="second" if seat == "first" else "first").first()
    if other is None:
        return _alone(board, mine, accepted)
    return _settle(board, mine, other)


def _alone(board: Board, mine: Confirmation, accepted: Result | None) -> Confirmed:
    """One player has confirmed. Against a result entered by someone else (the arbiter's slip,
    a game record) that differs, the player's account is a conflict for the arbiter: their
    page said "the arbiter then decides", and the arbiter must be told. Their earlier
    accounts that the new one replaces go."""
    _dismiss_players_conflicts(board, [mine],
                               _("dismissed: the player changed their confirmation"))
    recorded = None
    if accepted is not None and not _same_scores(accepted, mine.first_scores,
                                                 mine.second_scores):
        name = _name(board, mine.seat)
        recorded = record_result(
            board, Result.Kind.PLAYED, source=Result.Source.PLAYERS,
            first_scores=mine.first_scores, second_scores=mine.second_scores,
            entered_by_label=f"{name} {_when(mine.at)}",
            reason=_("confirmed by %(name)s; differs from the stored result") % {"name": name},
            hold=True)
    return Confirmed(mine, board_state(board), recorded)


@transaction.atomic
def accept_confirmation(board: Board, seat: str, *, user) -> Recorded:
    """The arbiter accepts the one player's confirmation of a board whose opponent has not
    confirmed (in one click, instead of retyping twelve scores): stored as the arbiter's,
    saying whose scores they are and who did not confirm. ``ServiceError`` when there is no
    such confirmation, or the board has a result or a dispute already."""
    board = (Board.objects.select_for_update(of=("self",))
             .select_related("round__event", "first", "second").get(pk=board.pk))
    confirmation = board.confirmations.filter(seat=seat).first()
    if confirmation is None or board.confirmations.count() != 1:
        raise ServiceError(_("Only a board with one player's confirmation can be accepted "
                             "this way."))
    if current_result(board) is not None or board.results.filter(
            status=Result.Status.CONFLICT).exists():
        raise ServiceError(_("This board has a result or a dispute already: see its page."))
    other = "second" if seat == "first" else "first"
    values = {"name": _name(board, seat), "at": _when(confirmation.at),
              "other": _name(board, other)}
    return record_result(
        board, Result.Kind.PLAYED, user=user, source=Result.Source.ARBITER,
        first_scores=confirmation.first_scores, second_scores=confirmation.second_scores,
        reason=_("%(name)s's confirmation of %(at)s accepted; %(other)s did not confirm")
        % values)


def _save(board: Board, seat: str, first: dict, second: dict, via: str,
          now: datetime.datetime) -> Confirmation:
    confirmation, _created = Confirmation.objects.update_or_create(
        board=board, seat=seat,
        defaults={"first_scores": first, "second_scores": second, "at": now, "via": via})
    return confirmation


def _name(board: Board, seat: str) -> str:
    return getattr(board, seat).name


def _settle(board: Board, mine: Confirmation, other: Confirmation) -> Confirmed:
    """Both seats have confirmed: store the result, or both accounts as conflicts."""
    by_seat = {mine.seat: mine, other.seat: other}
    if _agree(mine, other):
        # the players agree (perhaps after a disagreement): their earlier accounts go
        _dismiss_players_conflicts(board, [], _("dismissed: the players then agreed"))
        label = _("%(first)s %(first_at)s and %(second)s %(second_at)s") % {
            "first": _name(board, "first"), "first_at": _when(by_seat["first"].at),
            "second": _name(board, "second"), "second_at": _when(by_seat["second"].at)}
        recorded = record_result(
            board, Result.Kind.PLAYED, source=Result.Source.PLAYERS,
            first_scores=mine.first_scores, second_scores=mine.second_scores,
            entered_by_label=label)
        return Confirmed(mine, board_state(board), recorded)
    _dismiss_players_conflicts(board, [mine, other],
                               _("dismissed: the player changed their confirmation"))
    recorded = None
    for seat in SEATS:
        account = by_seat[seat]
        other_name = _name(board, "second" if seat == "first" else "first")
        recorded = record_result(
            board, Result.Kind.PLAYED, source=Result.Source.PLAYERS,
            first_scores=account.first_scores, second_scores=account.second_scores,
            entered_by_label=f"{_name(board, seat)} {_when(account.at)}",
            reason=_("confirmed by %(name)s; %(other)s confirmed other scores")
            % {"name": _name(board, seat), "other": other_name},
            hold=True)
    return Confirmed(mine, board_state(board), recorded)


def _dismiss_players_conflicts(board: Board, keep: list[Confirmation], note: str) -> None:
    """The players' open conflicts that none of the accounts in ``keep`` says (a player
    changed theirs, or the players now agree): dismissed with ``note``, so that the arbiter
    decides between what the players say now."""
    for result in board.results.filter(status=Result.Status.CONFLICT,
                                       source=Result.Source.PLAYERS):
        if not any(_same_scores(result, c.first_scores, c.second_scores) for c in keep):
            result.status = Result.Status.DISMISSED
            result.reason = (f"{result.reason} · {note}" if result.reason else note)[:300]
            result.save(update_fields=["status", "reason"])


@dataclass(frozen=True)
class BoardState:
    """A board's state for the round page and the players' panel."""

    key: str
    confirmations: tuple[Confirmation, ...] = ()
    conflicts: tuple[Result, ...] = ()

    @property
    def words(self) -> str:
        return str(STATE_WORDS[self.key])

    @property
    def mark(self) -> str:
        return STATE_MARKS[self.key]


def _state(board: Board, accepted: Result | None, conflicts: list[Result],
           confirmations: list[Confirmation], online: bool) -> BoardState:
    held = tuple(confirmations)
    if board.is_bye:
        return BoardState(BYE)
    if conflicts:
        return BoardState(CONFLICT, held, tuple(conflicts))
    if accepted is not None:
        if accepted.source == Result.Source.RECORD:
            return BoardState(RECORD, held)
        if accepted.source == Result.Source.PLAYERS:
            return BoardState(CONFIRMED, held)
        return BoardState(ARBITER, held)
    if online:
        return BoardState(RECORD, held)
    return BoardState(ONE_CONFIRMED if held else WAITING, held)


def board_states(round_: Round) -> dict[int, BoardState]:
    """Every board's state in a round, by board id: three queries and one per online-games
    provider, whatever the number of boards."""
    boards = list(round_.boards.all())
    accepted: dict[int, Result] = {}
    conflicts: dict[int, list[Result]] = {}
    for result in Result.objects.filter(board__round=round_, status__in=(
            Result.Status.ACCEPTED, Result.Status.CONFLICT)).order_by("version"):
        if result.status == Result.Status.ACCEPTED:
            accepted[result.board_id] = result
        else:
            conflicts.setdefault(result.board_id, []).append(result)
    confirmations: dict[int, list[Confirmation]] = {}
    for c in Confirmation.objects.filter(board__round=round_):
        confirmations.setdefault(c.board_id, []).append(c)
    online = links.board_pages.links(b.pk for b in boards if not b.is_bye)
    return {b.pk: _state(b, accepted.get(b.pk), conflicts.get(b.pk, []),
                         confirmations.get(b.pk, []), b.pk in online) for b in boards}


def board_state(board: Board) -> str:
    """The state of one board: waiting, one_confirmed, confirmed, conflict, arbiter, record
    (or bye)."""
    return board_detail(board).key


def board_detail(board: Board) -> BoardState:
    results = list(board.results.filter(status__in=(Result.Status.ACCEPTED,
                                                    Result.Status.CONFLICT)).order_by("version"))
    accepted = next((r for r in results if r.status == Result.Status.ACCEPTED), None)
    conflicts = [r for r in results if r.status == Result.Status.CONFLICT]
    online = bool(links.board_pages.links([board.pk])) if not board.is_bye else False
    return _state(board, accepted, conflicts, list(board.confirmations.all()), online)


@dataclass(frozen=True)
class RoundSummary:
    """The count at the top of the arbiter's round page."""

    games: int
    confirmed: int
    conflicts: int
    one_confirmed: int


def round_summary(states: dict[int, BoardState]) -> RoundSummary:
    keys = [s.key for s in states.values() if s.key != BYE]
    return RoundSummary(len(keys), keys.count(CONFIRMED), keys.count(CONFLICT),
                        keys.count(ONE_CONFIRMED))


def confirmations_on_boards(board_ids: list[int]) -> list[Attachment]:
    """The players' confirmations on these boards, for ``board_attachments``: pairing a round
    again or editing a pairing asks the arbiter before removing them, and the event's history
    keeps what each player had confirmed."""
    return [Attachment(c.board_id, "confirmation", _("a player's result confirmation"), {
        "seat": c.seat, "first_scores": c.first_scores, "second_scores": c.second_scores,
        "at": c.at.isoformat(), "via": c.via,
    }) for c in Confirmation.objects.filter(board_id__in=board_ids)]
