"""Game records entering the event: verify, match to the board, store, record the result.

``submit_record`` is the single path for a record from any source (arbiter paste or upload,
a player with the board's token, the JSON API, the simulator). A record that the engine
rejects, or whose header does not match the board, writes nothing; a valid one is stored once
(re-submitting it is a no-op) and its result goes through ``tournament.services.record_result``
like a result slip, so conflicts with a slip are kept for the arbiter.

A board played online takes no record but its game's own (``ONLINE_VIA``, written by
``games.online.play``): the game is the only witness of its result, so a record from anywhere else
(the board's shared token, the API, the arbiter's paste) is refused with the code
``online_game`` before anything is read. ``online_result_guard`` holds the same line for the
other ways a result comes in (``tournament.services.record_result``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.engine import EngineError, Record, VerifiedGame, format_record, parse_record, verify
from games.engine_messages import engine_text
from games.models import GameRecord, OnlineGame, OnlineRound, ResultRecord
from tournament import services as event_services
from tournament.models import Board, Result

MAX_RECORD_BYTES = 256 * 1024
#: ``via`` of the record an online game writes at its end: the only record its board takes.
ONLINE_VIA = "online"


class RecordRejected(Exception):
    """A record that was not stored: ``line`` (None: the whole record), the reason in the
    active language, and a stable ``code`` for programs (the JSON API): the engine's message
    code when the engine refused the record, else one of this module's own. ``status``: the
    HTTP status when it is not the usual one for a bad record (409: the board takes no record
    at all, whatever its text)."""

    def __init__(self, message: str, line: int | None = None, text: str = "", *,
                 code: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.text = text
        self.code = code
        self.status = status

    @classmethod
    def engine(cls, error: EngineError, text: str = "") -> RecordRejected:
        """The engine's refusal, its reason translated (``games.engine_messages``)."""
        return cls(engine_text(error), error.line, text, code=error.code)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class Submission:
    record: GameRecord
    created: bool
    result: Result
    conflict: bool


def _text(source: str | bytes) -> str:
    """The record as text for the error page (bytes that are not UTF-8 shown replaced)."""
    return source if isinstance(source, str) else source.decode("utf-8", errors="replace")


def is_online_board(board: Board) -> bool:
    """Whether ``board`` is played online: it has a game, or its round is online (every board
    of an online round is dealt one; a bye has none)."""
    return not board.is_bye and (
        OnlineGame.objects.filter(board_id=board.pk).exists()
        or OnlineRound.objects.filter(round_id=board.round_id).exists())


def _online_refusal_text(board: Board) -> str:
    return _("Board %(n)d is played online: its result comes from its game only (or from an "
             "arbiter's decision with a reason), not from a record or a slip.") % {
        "n": board.number}


def online_result_guard(board: Board, source: str, reason: str):
    """``tournament.services.record_result``'s guard for online boards: a slip, or an
    arbiter's result without a reason, is refused. A record is let through: ``submit_record``
    has already refused every record but the game's own; the pairing's own results (byes,
    absences) are the pairing's."""
    if not is_online_board(board):
        return None
    if source in (Result.Source.RECORD, Result.Source.PAIRING) \
            or (source == Result.Source.ARBITER and reason.strip()):
        return None
    return event_services.ResultRefused("online_game", _online_refusal_text(board))


def _check_size(source: str | bytes) -> None:
    size = len(source.encode("utf-8") if isinstance(source, str) else source)
    if size > MAX_RECORD_BYTES:
        raise RecordRejected(
            _("The record is %(size)d KB; the limit is %(limit)d KB.")
            % {"size": size // 1024, "limit": MAX_RECORD_BYTES // 1024}, code="record_too_large"
        )


def _check_header(record: Record, board: Board, text: str) -> None:
    """The record must name this board's round, board number and players, first mover first."""
    event = board.round.event
    expected = {
        "Round": str(board.round.number),
        "Board": str(board.number),
        "First": board.first.name,
        "Second": board.second.name,
    }
    for tag, want in expected.items():
        got = record.tag(tag)
        if got is None:
            raise RecordRejected(_("The record has no [%(tag)s] tag; it must say %(want)r.")
                                 % {"tag": tag, "want": want}, None, text, code="tag_missing")
        if " ".join(got.split()).casefold() != want.casefold():
            raise RecordRejected(
                _("[%(tag)s %(got)r] does not match this board, which has %(want)r.")
                % {"tag": tag, "got": got, "want": want}, record.tag_line(tag), text,
                code="tag_mismatch",
            )
    players = record.tag("Players", "2")
    if players != "2":
        raise RecordRejected(_("A tournament game has two players, not %(n)s.") % {"n": players},
                             record.tag_line("Players"), text, code="players_mismatch")
    rules = record.tag("Rules", event.rules_profile)
    if rules != event.rules_profile:
        raise RecordRejected(
            _("The record is played under %(got)r rules; this event uses %(want)r.")
            % {"got": rules, "want": event.rules_profile}, record.tag_line("Rules"), text,
            code="rules_mismatch",
        )


def verified_record(source: str | bytes) -> tuple[Record, VerifiedGame]:
    """The record parsed once and replayed by the engine (raises ``RecordRejected``), for any
    board: what a stored record must pass, whether it arrives by submission or in a backup."""
    _check_size(source)
    try:
        record = parse_record(source)  # the engine's own error type, whatever the input
    except EngineError as exc:
        raise RecordRejected.engine(exc, _text(source)) from exc
    verdict = verify(record)
    if not verdict.ok:
        raise RecordRejected.engine(verdict.error, _text(source))
    return record, verdict.game


def record_digest(canonical: str) -> str:
    """What makes a re-submission of the same record a no-op: the hash of its canonical text."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def check_record(board: Board, source: str | bytes) -> tuple[Record, VerifiedGame]:
    """Verify a record for a board without writing anything (raises ``RecordRejected``)."""
    if board.is_bye:
        raise RecordRejected(_("A bye has no game record."), code="bye")
    record, game = verified_record(source)
    _check_header(record, board, _text(source))
    return record, game


def board_for_record(event, source: str | bytes) -> Board:
    """The board a record names by its [Round] and [Board] tags (its players are checked later).

    For an arbiter with a pile of records for the whole event: no need to pick each board.
    """
    try:
        record = parse_record(source)
    except EngineError as exc:
        raise RecordRejected.engine(exc) from exc
    numbers = {}
    for tag in ("Round", "Board"):
        value = record.tag(tag)
        if value is None or not value.strip().isdigit():
            raise RecordRejected(_("The record needs a [%(tag)s] tag with a number to find its "
                                   "board.") % {"tag": tag}, record.tag_line(tag),
                                 code="board_tag_missing")
        numbers[tag] = int(value)
    board = (
        Board.objects.select_related("round__event", "first", "second")
        .filter(round__event=event, round__number=numbers["Round"], number=numbers["Board"],
                second__isnull=False)
        .first()
    )
    if board is None:
        raise RecordRejected(_("Round %(r)d has no board %(b)d in this event.")
                             % {"r": numbers["Round"], "b": numbers["Board"]},
                             record.tag_line("Board"), code="board_unknown")
    return board


@transaction.atomic
def submit_record(board: Board, source: str | bytes, *, user=None, via: str = "arbiter",
                  label: str = "") -> Submission:
    """Verify and store a record for ``board`` and record its result (see module doc)."""
    if via != ONLINE_VIA and is_online_board(board):
        raise RecordRejected(_online_refusal_text(board), code="online_game", status=409)
    record, game = check_record(board, source)
    canonical = format_record(record)
    digest = record_digest(canonical)
    board = Board.objects.select_for_update().get(pk=board.pk)
    stored, created = GameRecord.objects.get_or_create(
        board=board, digest=digest,
        defaults={
            "text": canonical, "summary": game.to_json(), "submitted_via": via,
            "submitted_by": user if user is not None and user.is_authenticated else None,
        },
    )
    resigned = game.resigned
    kind = Result.Kind.RESIGNATION if resigned else Result.Kind.PLAYED
    recorded = event_services.record_result(
        board, kind, user=user, source=Result.Source.RECORD,
        first_scores=game.scores["A"], second_scores=game.scores["B"],
        loser_seat={"A": "first", "B": "second"}[resigned[0]] if resigned else "",
        entered_by_label=label or via, reason=_("verified game record"),
    )
    if recorded.created:
        ResultRecord.objects.create(result=recorded.result, record=stored)
    return Submission(stored, created, recorded.result, recorded.conflict)


def carry_record_link(sender, *, result: Result, source: Result, **kwargs) -> None:
    """A version that repeats an earlier one (an accepted conflict) stands on its record too
    (receiver of ``tournament.signals.result_carried_over``)."""
    link = ResultRecord.objects.filter(result=source).first()
    if link is not None:
        ResultRecord.objects.create(result=result, record=link.record)
