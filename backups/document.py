"""Full-event backup as JSON: everything an event holds, without database ids.

Players are referred to by pairing number, boards by (round, index in the round). Importing an
export and exporting it again gives the same document, so a backup can be checked by a diff
(board tokens excepted when the copy is imported next to the original on one server).
Result versions and game records are kept whole: the audit trail survives a move between
servers. Users are referred to by username and left out where they do not exist.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from backups import reader
from games.models import GameRecord, ResultRecord
from tournament.models import Board, Event, HistoryEntry, Result, new_board_token

FORMAT = "ingenious-td-event"
VERSION = 1
EVENT_FIELDS = [
    "slug", "name", "venue", "rounds_planned", "pairing_system", "rules_profile",
    "time_control", "forfeit_counts_as_meeting", "first_mover", "lot_seed", "tiebreaks",
    "token_grace_minutes", "publish_pairings", "publish_standings", "pairing_order",
    "print_language",
]
OPTIONAL_EVENT_FIELDS = {"pairing_order": Event.PairingOrder.ENTRY, "print_language": "en"}
"""Fields that older backups lack, with the value that keeps such an event as it was."""


class BackupError(ValueError):
    """A backup file that cannot be imported; nothing was written."""


def _dt(value):
    return value.isoformat() if value else None


def _dec(value):
    return None if value is None else str(value)


def export_event(event: Event) -> dict:
    players = list(event.players.order_by("seed"))
    seed = {p.pk: p.seed for p in players}
    rounds = []
    sources = dict(ResultRecord.objects.filter(result__board__round__event=event)
                   .values_list("result_id", "record_id"))
    for round_ in event.rounds.order_by("number").prefetch_related("boards__results"):
        boards = []
        for board in round_.boards.order_by("number", "pk"):
            records = {r.pk: i for i, r in enumerate(board.game_records.order_by("pk"))}
            boards.append({
                "number": board.number, "first": seed[board.first_id],
                "second": seed.get(board.second_id), "token": board.token,
                "token_revoked_at": _dt(board.token_revoked_at),
                "manual_reason": board.manual_reason,
                "records": [
                    {"text": g.text, "digest": g.digest, "summary": g.summary,
                     "submitted_via": g.submitted_via, "submitted_at": _dt(g.submitted_at)}
                    for g in board.game_records.order_by("pk")
                ],
                "results": [
                    {"version": r.version, "kind": r.kind, "status": r.status,
                     "source": r.source, "first_scores": r.first_scores,
                     "second_scores": r.second_scores, "first_vp": _dec(r.first_vp),
                     "second_vp": _dec(r.second_vp), "loser_seat": r.loser_seat,
                     "reason": r.reason, "entered_by": r.entered_by_label,
                     "entered_at": _dt(r.entered_at),
                     "record": records.get(sources.get(r.pk))}
                    for r in board.results.order_by("version")
                ],
            })
        rounds.append({
            "number": round_.number, "status": round_.status,
            "starts_at": _dt(round_.starts_at), "published_at": _dt(round_.published_at),
            "closed_at": _dt(round_.closed_at), "pairing_note": round_.pairing_note,
            "boards": boards,
        })
    return {
        "format": FORMAT, "version": VERSION,
        "event": {
            **{f: getattr(event, f) for f in EVENT_FIELDS},
            "start_date": event.start_date.isoformat() if event.start_date else None,
            "end_date": event.end_date.isoformat() if event.end_date else None,
            "bye_vp": _dec(event.bye_vp), "absence_vp": _dec(event.absence_vp),
            "arbiters": sorted(event.arbiters.values_list("username", flat=True)),
        },
        "players": [
            {"seed": p.seed, "name": p.name, "club": p.club, "country": p.country,
             "rating": p.rating, "joined_round": p.joined_round,
             "withdrawn_after_round": p.withdrawn_after_round,
             "withdrawal_reason": p.withdrawal_reason,
             "absences": [
                 {"round": a.round_number, "vp": _dec(a.vp), "reason": a.reason}
                 for a in p.absences.order_by("round_number")
             ]}
            for p in players
        ],
        "rounds": rounds,
        "history": [
            {"at": _dt(h.at), "action": h.action, "summary": h.summary, "reason": h.reason,
             "user": h.user_label, "details": h.details}
            for h in event.history.order_by("at", "pk")
        ],
    }


@transaction.atomic
def import_event(data, *, slug: str | None = None, arbiter=None) -> Event:
    """Create an event from an export, or refuse the whole file and write nothing.

    Every object of the file is checked first (``backups.reader``): the refusal lists each
    problem with its path in the file. Whoever imports through the web (``arbiter``) becomes the
    only arbiter: a file must not hand other accounts an event. The operator's command line (no
    importer) restores the file's list of arbiters.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("not an event backup of this tool (format field missing)"))
    if data.get("version") != VERSION:
        raise BackupError(_("backup version %(v)r is not supported") % {"v": data.get("version")})
    try:
        plan = reader.read(data, slug=slug, fields=EVENT_FIELDS,
                                  optional=OPTIONAL_EVENT_FIELDS)
    except reader.Problems as exc:
        raise BackupError(_("not a valid event backup: %(problems)s") % {"problems": exc}) from exc
    return _write(plan, arbiter)


def _write(plan: reader.Plan, arbiter) -> Event:
    users = get_user_model().objects
    event = plan.event
    event.save()
    if arbiter is None:
        event.arbiters.set(users.filter(username__in=plan.arbiters))
    else:
        event.arbiters.set([arbiter])
    by_seed = {}
    for player, absences in plan.players:
        player.event = event
        player.save()
        by_seed[player.seed] = player
        for absence in absences:
            absence.player = player
            absence.save()
    for planned in plan.rounds:
        round_ = planned.round
        round_.event = event
        round_.save()
        for item in planned.boards:
            board = item.board
            board.round, board.first = round_, by_seed[item.first]
            board.second = by_seed[item.second] if item.second is not None else None
            board.token = _free_token(board.token)
            board.save()
            records = []
            for record, submitted_at in item.records:
                record.board = board
                record.save()
                _keep_time(GameRecord, record.pk, "submitted_at", submitted_at)
                records.append(record)
            for result, record_index, entered_by, entered_at in item.results:
                result.board = board
                result.entered_by = users.filter(username=entered_by).first()
                result.save()
                if record_index is not None:
                    ResultRecord.objects.create(result=result, record=records[record_index])
                _keep_time(Result, result.pk, "entered_at", entered_at)
    for entry, at in plan.history:
        entry.event = event
        entry.save()
        _keep_time(HistoryEntry, entry.pk, "at", at)
    return event


def _free_token(token: str) -> str:
    """Keep a board's token (printed QR codes go on working after a move to another server)
    unless this server already uses it, e.g. for a copy of the event next to the original."""
    return new_board_token() if Board.objects.filter(token=token).exists() else token


def _keep_time(model, pk: int, field: str, moment) -> None:
    """Restore a creation time the model sets by itself (``auto_now_add``), when known."""
    if moment is not None:
        model.objects.filter(pk=pk).update(**{field: moment})
