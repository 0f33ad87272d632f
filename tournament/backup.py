"""Full-event backup as JSON: everything an event holds, without database ids.

Players are referred to by pairing number, boards by (round, index in the round). Importing an
export and exporting it again gives the same document, so a backup can be checked by a diff
(board tokens excepted when the copy is imported next to the original on one server).
Result versions and game records are kept whole: the audit trail survives a move between
servers. Users are referred to by username and left out where they do not exist.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime

from games.models import GameRecord
from tournament.models import (
    Absence,
    Board,
    Event,
    HistoryEntry,
    Player,
    Result,
    Round,
    new_board_token,
)

FORMAT = "ingenious-td-event"
VERSION = 1
EVENT_FIELDS = [
    "slug", "name", "venue", "rounds_planned", "pairing_system", "rules_profile",
    "time_control", "forfeit_counts_as_meeting", "first_mover", "lot_seed", "tiebreaks",
    "token_grace_minutes", "publish_pairings", "publish_standings", "pairing_order",
]
OPTIONAL_EVENT_FIELDS = {"pairing_order": Event.PairingOrder.ENTRY}
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
                     "record": records.get(r.record_id)}
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
def import_event(data: dict, *, slug: str | None = None, arbiter=None) -> Event:
    """Create an event from an export; refuses a malformed file or a slug already taken."""
    try:
        return _import(data, slug=slug, arbiter=arbiter)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, BackupError):
            raise
        raise BackupError(f"not a valid event backup: {type(exc).__name__}: {exc}") from exc


def _import(data: dict, *, slug: str | None, arbiter) -> Event:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("not an event backup of this tool (format field missing)")
    if data.get("version") != VERSION:
        raise BackupError(f"backup version {data.get('version')!r} is not supported")
    spec = {**OPTIONAL_EVENT_FIELDS, **data["event"]}
    spec["slug"] = slug or spec["slug"]
    if Event.objects.filter(slug=spec["slug"]).exists():
        raise BackupError(f"an event with the short name {spec['slug']!r} already exists")
    users = get_user_model().objects
    event = Event.objects.create(
        **{f: spec[f] for f in EVENT_FIELDS},
        start_date=parse_date(spec["start_date"]) if spec["start_date"] else None,
        end_date=parse_date(spec["end_date"]) if spec["end_date"] else None,
        bye_vp=Decimal(spec["bye_vp"]), absence_vp=Decimal(spec["absence_vp"]),
    )
    # Whoever imports through the web becomes the only arbiter: a file must not hand other
    # accounts an event. The operator's command line (no importer) restores the file's list.
    if arbiter is None:
        event.arbiters.set(users.filter(username__in=spec["arbiters"]))
    else:
        event.arbiters.set([arbiter])
    by_seed = {}
    for p in data["players"]:
        player = Player.objects.create(
            event=event, seed=p["seed"], name=p["name"], club=p["club"], country=p["country"],
            rating=p["rating"], joined_round=p["joined_round"],
            withdrawn_after_round=p["withdrawn_after_round"],
            withdrawal_reason=p["withdrawal_reason"],
        )
        by_seed[p["seed"]] = player
        for a in p["absences"]:
            Absence.objects.create(player=player, round_number=a["round"],
                                   vp=Decimal(a["vp"]), reason=a["reason"])
    for r in data["rounds"]:
        round_ = Round.objects.create(
            event=event, number=r["number"], status=r["status"],
            starts_at=_parse_dt(r["starts_at"]), published_at=_parse_dt(r["published_at"]),
            closed_at=_parse_dt(r["closed_at"]), pairing_note=r["pairing_note"],
        )
        for b in r["boards"]:
            board = Board.objects.create(
                round=round_, number=b["number"], first=by_seed[b["first"]],
                second=by_seed[b["second"]] if b["second"] is not None else None,
                token=_free_token(b["token"]),
                token_revoked_at=_parse_dt(b["token_revoked_at"]),
                manual_reason=b["manual_reason"],
            )
            records = []
            for g in b["records"]:
                record = GameRecord.objects.create(
                    board=board, text=g["text"], digest=g["digest"], summary=g["summary"],
                    submitted_via=g["submitted_via"],
                )
                GameRecord.objects.filter(pk=record.pk).update(
                    submitted_at=_parse_dt(g["submitted_at"]))
                records.append(record)
            for v in b["results"]:
                result = Result.objects.create(
                    board=board, version=v["version"], kind=v["kind"], status=v["status"],
                    source=v["source"], first_scores=v["first_scores"],
                    second_scores=v["second_scores"], first_vp=Decimal(v["first_vp"]),
                    second_vp=Decimal(v["second_vp"]) if v["second_vp"] is not None else None,
                    loser_seat=v["loser_seat"], reason=v["reason"],
                    entered_by=users.filter(username=v["entered_by"]).first(),
                    entered_by_label=v["entered_by"],
                    record=records[v["record"]] if v["record"] is not None else None,
                )
                Result.objects.filter(pk=result.pk).update(entered_at=_parse_dt(v["entered_at"]))
    for h in data.get("history", []):
        entry = HistoryEntry.objects.create(
            event=event, action=h["action"], summary=h["summary"], reason=h["reason"],
            user_label=h["user"], details=h["details"],
        )
        HistoryEntry.objects.filter(pk=entry.pk).update(at=_parse_dt(h["at"]))
    return event


def _free_token(token: str) -> str:
    """Keep a board's token (printed QR codes go on working after a move to another server)
    unless this server already uses it, e.g. for a copy of the event next to the original."""
    return new_board_token() if Board.objects.filter(token=token).exists() else token


def _parse_dt(value):
    return parse_datetime(value) if value else None
