"""Full-event backup as JSON: everything an event holds, without database ids.

Players are referred to by pairing number, boards by (round, index in the round). Importing an
export and exporting it again gives the same document, so a backup can be checked by a diff
(board tokens and personal links excepted when the copy is imported next to the original on one
server).
Result versions and game records are kept whole: the audit trail survives a move between
servers. Users are referred to by username and left out where they do not exist.

An event whose every round is played online says who switched it so (``event.online``). A
round played online keeps who marked it online (``rounds[i].online``), and each of its boards
its dealt game (``boards[j].online``): seed, commitment, the moves as stored, the two personal
links and the index of its record on the board, so a game in progress goes on from where it
stood with the links already printed on the players' slips. The seed and the links are
secrets: whoever holds the file can play every seat of a game in progress. An over-the-board
board whose clock started keeps it (``boards[j].clock``: its state and log, with the Wi-Fi
reconciliations of its presses; ``clocks.archive``), and it comes back paused if it was
running; ``backups.online_clocks`` rebuilds the clocks of online games from their moves.

Version 2 added the online games, version 3 the over-the-board clocks, version 4 the check-in
(the event's check-in settings, each player's cards and check-ins, each board's players'
confirmations of the scores); older files still import (no ``online`` keys: every round over the
board; no ``clock`` keys: no clock; no check-in keys: no cards, check-ins or confirmations),
version 5 the event's rule for unplayed rounds in the colour tiebreaks (older files: "nothing",
the rule they were written under) and each round's VP as it was paired on (older files: none,
the pages show the standings' value), version 6 the FIDE (Dutch) System's edition the event
is paired by (older files: 2017, the edition they were paired by) and what paired each round,
version 7 the waiting time for an absent online player and, per online game, when each seat
first appeared and who lost for not appearing (older files: 5 minutes, nobody seen, none),
version 8 each player's login and a self-running event's automation and registrations
(``backups.automation``; older files: no logins, an ordinary event).
A card keeps its key, so that printed cards go on working on
a server with the same ``SECRET_KEY`` (the code's second half is derived from it); a key this
server already uses (a copy beside the original) gets a new one, and that card must be printed
again. The version goes up so that an older server refuses a file with what it does not know
instead of silently dropping it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from backups import automation, online_clocks, reader
from backups.rows import iso, keep_time
from clocks import archive
from clocks.models import Clock
from clocks.services import now_ms
from games.models import (
    GameRecord,
    OnlineEvent,
    OnlineGame,
    OnlineRound,
    ResultRecord,
    new_seat_token,
)
from tournament.boards import player_codes
from tournament.inputs.json_input import JSONRefused, Limits, read_json
from tournament.models import (
    Absence,
    Board,
    CheckIn,
    Confirmation,
    Event,
    HistoryEntry,
    PlayerCard,
    Result,
    new_board_token,
)
from tournament.texts.core_messages import json_text

FORMAT = "ingenious-td-event"
VERSION = 8
#: The versions this server reads (see the module docstring).
READS = (1, 2, 3, 4, 5, 6, 7, 8)
EVENT_FIELDS = [
    "slug", "name", "venue", "rounds_planned", "pairing_system", "rules_profile",
    "time_control", "forfeit_counts_as_meeting", "first_mover", "lot_seed", "tiebreaks",
    "token_grace_minutes", "publish_pairings", "publish_standings", "pairing_order",
    "print_language", "clock_compensation_s", "rounds_note", "checkin", "player_results",
    "checkin_open", "kiosk_generation", "unplayed_colours", "pairing_edition", "no_show_minutes",
]
OPTIONAL_EVENT_FIELDS = {"pairing_order": Event.PairingOrder.ENTRY, "print_language": "en",
                         "clock_compensation_s": 180, "rounds_note": "",
                         "checkin": Event.CheckIn.OFF,
                         "player_results": Event.PlayerResults.WITH_CHECKIN,
                         "checkin_open": True, "kiosk_generation": 0,
                         "unplayed_colours": Event.UnplayedColours.NOTHING,
                         "pairing_edition": Event.PairingEdition.FIDE_2017,
                         "no_show_minutes": 5}
"""Fields that older backups lack, with the value that keeps such an event as it was."""


class BackupError(ValueError):
    """A backup file that cannot be imported; nothing was written."""


#: What a backup file may hold: the import page's 20 MB, the reader's nesting limit, and
#: integers up to 19 digits (a lot's seed is a 64-bit number).
LIMITS = Limits(max_bytes=20 * 1024 * 1024, max_depth=reader.MAX_DEPTH, max_digits=19)


def parse(raw: bytes | str):
    """The JSON document of a backup file, for every way a file comes in (the import page,
    a restored automatic backup, ``import_event``); ``BackupError`` says what is wrong.

    The site's one JSON reader (``tournament.inputs.json_input``) refuses what the standard reader
    lets through to crash a later step: text that is not UTF-8, ``NaN`` and ``Infinity`` (no
    database stores them), integers of thousands of digits, lone surrogates and a nest too
    deep for any reader, each with where it is."""
    try:
        return read_json(raw, LIMITS)
    except JSONRefused as refused:
        raise BackupError(_("The file is not a readable backup: %(why)s")
                          % {"why": json_text(refused)}) from None


def _dec(value):
    return None if value is None else str(value)


def export_event(event: Event) -> dict:
    # Each board's and player's rows are prefetched in the file's order: a backup costs a
    # fixed number of queries whatever the event's size (one is written every few results).
    players = list(event.players.order_by("seed").select_related("login__user").prefetch_related(
        Prefetch("absences", Absence.objects.order_by("round_number")),
        Prefetch("cards", PlayerCard.objects.order_by("issued_at", "pk")),
        Prefetch("checkins", CheckIn.objects.order_by("round_number").select_related("user"))))
    seed = {p.pk: p.seed for p in players}
    rounds = []
    sources = dict(ResultRecord.objects.filter(result__board__round__event=event)
                   .values_list("result_id", "record_id"))
    online_rounds = {o.round_id: o for o in OnlineRound.objects.filter(round__event=event)
                     .select_related("marked_by")}
    online_games = {g.board_id: g for g in OnlineGame.objects.filter(board__round__event=event)}
    clocks = {c.board_id: c for c in Clock.objects.filter(board__round__event=event)
              .prefetch_related("log_entries")}
    boards_in_order = Prefetch("boards", Board.objects.order_by("number", "pk").prefetch_related(
        Prefetch("game_records", GameRecord.objects.order_by("pk")),
        Prefetch("results", Result.objects.order_by("version")),
        Prefetch("confirmations", Confirmation.objects.order_by("seat"))))
    for round_ in event.rounds.order_by("number").prefetch_related(boards_in_order):
        boards = []
        for board in round_.boards.all():
            records = {r.pk: i for i, r in enumerate(board.game_records.all())}
            boards.append({
                "number": board.number, "first": seed[board.first_id],
                "second": seed.get(board.second_id), "token": board.token,
                "token_revoked_at": iso(board.token_revoked_at),
                "manual_reason": board.manual_reason,
                "records": [
                    {"text": g.text, "digest": g.digest, "summary": g.summary,
                     "submitted_via": g.submitted_via, "submitted_at": iso(g.submitted_at)}
                    for g in board.game_records.all()
                ],
                "results": [
                    {"version": r.version, "kind": r.kind, "status": r.status,
                     "source": r.source, "first_scores": r.first_scores,
                     "second_scores": r.second_scores, "first_vp": _dec(r.first_vp),
                     "second_vp": _dec(r.second_vp), "loser_seat": r.loser_seat,
                     "reason": r.reason, "entered_by": r.entered_by_label,
                     "entered_at": iso(r.entered_at), "decided_by": r.decided_by_label,
                     "decided_at": iso(r.decided_at), "decision_reason": r.decision_reason,
                     "record": records.get(sources.get(r.pk))}
                    for r in board.results.all()
                ],
                "online": _online_game(online_games.get(board.pk), records),
                "clock": (None if board.pk in online_games
                          else _clock(clocks.get(board.pk))),
                "confirmations": [
                    {"seat": c.seat, "first_scores": c.first_scores,
                     "second_scores": c.second_scores, "at": iso(c.at), "via": c.via}
                    for c in board.confirmations.all()
                ],
            })
        rounds.append({
            "number": round_.number, "status": round_.status,
            "starts_at": iso(round_.starts_at), "published_at": iso(round_.published_at),
            "closed_at": iso(round_.closed_at), "pairing_note": round_.pairing_note,
            "paired_on": round_.paired_on, "paired_by": round_.paired_by,
            "online": _online_mark(online_rounds.get(round_.pk)),
            "boards": boards,
        })
    return {
        "format": FORMAT, "version": VERSION,
        "event": {
            **{f: getattr(event, f) for f in EVENT_FIELDS},
            "start_date": event.start_date.isoformat() if event.start_date else None,
            "end_date": event.end_date.isoformat() if event.end_date else None,
            "bye_vp": _dec(event.bye_vp), "absence_vp": _dec(event.absence_vp),
            "late_entry_vp": _dec(event.late_entry_vp),
            "checkin_closes_at": iso(event.checkin_closes_at),
            "arbiters": sorted(event.arbiters.values_list("username", flat=True)),
            "online": _online_mark(OnlineEvent.objects.filter(event=event).first()),
        },
        "players": [
            {"seed": p.seed, "name": p.name, "club": p.club, "country": p.country,
             "rating": p.rating, "joined_round": p.joined_round,
             "withdrawn_after_round": p.withdrawn_after_round,
             "withdrawal_reason": p.withdrawal_reason, "login": automation.login_of(p),
             "absences": [
                 {"round": a.round_number, "vp": _dec(a.vp), "reason": a.reason}
                 for a in p.absences.all()
             ],
             "cards": [
                 {"key": c.key, "issued_at": iso(c.issued_at), "revoked_at": iso(c.revoked_at)}
                 for c in p.cards.all()
             ],
             "checkins": [
                 {"round": c.round_number, "at": iso(c.at), "via": c.via,
                  "user": c.user.username if c.user else None}
                 for c in p.checkins.all()
             ]}
            for p in players
        ],
        "rounds": rounds,
        "automation": automation.export(event, seed),
        "history": [
            {"at": iso(h.at), "action": h.action, "summary": h.summary, "reason": h.reason,
             "user": h.user_label, "details": h.details}
            for h in event.history.order_by("at", "pk")
        ],
    }


def _clock(clock: Clock | None) -> dict | None:
    """An over-the-board clock that started: its state and log (``clocks.archive``)."""
    if clock is None or clock.core.started_at_ms is None:
        return None
    return archive.record(clock, list(clock.log_entries.all()))


def _online_mark(online: OnlineRound | OnlineEvent | None) -> dict | None:
    if online is None:
        return None
    return {"marked_by": online.marked_by.username if online.marked_by else None,
            "marked_at": iso(online.marked_at)}


def _online_game(game: OnlineGame | None, records: dict[int, int]) -> dict | None:
    if game is None:
        return None
    return {"seed": game.seed, "commitment": game.commitment, "moves": game.moves,
            "token_a": game.token_a, "token_b": game.token_b,
            "record": records.get(game.record_id), "created_at": iso(game.created_at),
            "updated_at": iso(game.updated_at),
            "seen": {"A": iso(game.seen_a), "B": iso(game.seen_b)}, "no_show": game.no_show}


def import_event(data, *, slug: str | None = None, arbiter=None,
                 attach_accounts: bool = True) -> Event:
    """Create an event from an export, or refuse the whole file and write nothing.

    Every object of the file is checked first (``backups.reader``), outside the writing
    transaction: replaying every game takes a while, and on SQLite a transaction that writes
    holds the one lock every clock press needs. The refusal lists each problem with its path
    in the file. Whoever imports through the web (``arbiter``) becomes the
    only arbiter: a file must not hand other accounts an event. The operator's command line (no
    importer) restores the file's list of arbiters. A restored online round that had begun
    gets its games' clocks back, paused (``backups.online_clocks``), in the same transaction.

    The players' logins and registrations name accounts of this server. A login is attached
    only by its owner: a file uploaded from outside (``attach_accounts=False``) attaches none,
    whatever it says; the operator's command line and the server's own automatic backups give
    back those the event had, but never to one of the event's arbiters (an arbiter is never a
    player with a login).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("not an event backup of this tool (format field missing)"))
    if data.get("version") not in READS:
        raise BackupError(_("backup version %(v)r is not supported") % {"v": data.get("version")})
    try:
        plan = reader.read(data, slug=slug, fields=EVENT_FIELDS,
                                  optional=OPTIONAL_EVENT_FIELDS)
    except reader.Problems as exc:
        raise BackupError(_("not a valid event backup: %(problems)s") % {"problems": exc}) from exc
    return _write(plan, arbiter, attach_accounts)


def accounts_named(data) -> int:
    """How many players' logins and registrations a (valid) file names: what an upload does not
    attach, for the importer to be told."""
    players = sum(1 for p in data.get("players", []) if isinstance(p, dict) and p.get("login"))
    automation = data.get("automation") if isinstance(data.get("automation"), dict) else {}
    registrations = sum(1 for r in automation.get("registrations", [])
                        if isinstance(r, dict) and r.get("user"))
    return players + registrations


@transaction.atomic
def _write(plan: reader.Plan, arbiter, attach_accounts: bool) -> Event:
    users = get_user_model().objects
    event = plan.event
    if Event.objects.filter(slug=event.slug).exists():  # taken since the file was read
        raise BackupError(_("not a valid event backup: %(problems)s")
                          % {"problems": f"event.slug: {reader.slug_taken(event.slug)}"})
    event.save()
    if arbiter is None:
        event.arbiters.set(users.filter(username__in=plan.arbiters))
    else:
        event.arbiters.set([arbiter])
    if plan.online is not None:
        online, marked_by, marked_at = plan.online
        online.event, online.marked_by = event, users.filter(username=marked_by).first()
        online.save()
        keep_time(OnlineEvent, online.pk, "marked_at", marked_at)
    by_seed = {}
    for player, absences in plan.players:
        player.event = event
        player.save()
        by_seed[player.seed] = player
        for absence in absences:
            absence.player = player
            absence.save()
        for card, issued_at in plan.cards.get(player.seed, []):
            card.player = player
            card.key = _free_token(card.key, PlayerCard.objects.filter(key=card.key),
                                   _new_card_key)
            card.save()
            keep_time(PlayerCard, card.pk, "issued_at", issued_at)
        if player.seed not in plan.cards:  # a backup from before the cards: a first one
            player_codes.first_cards([player])
        for row, username, at in plan.checkins.get(player.seed, []):
            row.player = player
            row.user = users.filter(username=username).first() if username else None
            row.save()
            keep_time(CheckIn, row.pk, "at", at)
    for planned in plan.rounds:
        round_ = planned.round
        round_.event = event
        round_.save()
        if planned.online is not None:
            online, marked_by, marked_at = planned.online
            online.round, online.marked_by = round_, users.filter(username=marked_by).first()
            online.save()
            keep_time(OnlineRound, online.pk, "marked_at", marked_at)
        for item in planned.boards:
            board = item.board
            board.round, board.first = round_, by_seed[item.first]
            board.second = by_seed[item.second] if item.second is not None else None
            board.token = _free_token(board.token, Board.objects.filter(token=board.token),
                                      new_board_token)
            board.save()
            records = []
            for record, submitted_at in item.records:
                record.board = board
                record.save()
                keep_time(GameRecord, record.pk, "submitted_at", submitted_at)
                records.append(record)
            for result, record_index, entered_by, entered_at in item.results:
                result.board = board
                result.entered_by = users.filter(username=entered_by).first()
                result.save()
                if record_index is not None:
                    ResultRecord.objects.create(result=result, record=records[record_index])
                keep_time(Result, result.pk, "entered_at", entered_at)
            for confirmation in item.confirmations:
                confirmation.board = board
                confirmation.save()
            if item.online is not None:
                _write_game(item.online, board, records)
            if item.clock is not None:
                archive.restore(board, item.clock, who=arbiter.username if arbiter else
                                archive.RESTORE, user=arbiter, now_ms=now_ms())
        online_clocks.restore_round(
            [(item.board, item.online.table) for item in planned.boards if item.online],
            user=arbiter)
    for entry, at in plan.history:
        entry.event = event
        entry.save()
        keep_time(HistoryEntry, entry.pk, "at", at)
    if attach_accounts:
        automation.restore_logins(event, plan.logins, by_seed)
    if plan.automation is not None:  # after the history: its pause is the latest entry
        automation.restore(event, plan.automation, by_seed, arbiter=arbiter,
                           attach_accounts=attach_accounts)
    return event


def _write_game(planned: reader.PlannedGame, board: Board, records: list[GameRecord]) -> None:
    game = planned.game
    game.board = board
    game.record = records[planned.record] if planned.record is not None else None
    for seat in ("token_a", "token_b"):
        token = getattr(game, seat)
        setattr(game, seat, _free_token(
            token, OnlineGame.objects.filter(Q(token_a=token) | Q(token_b=token)),
            new_seat_token))
    game.save()
    keep_time(OnlineGame, game.pk, "created_at", planned.created_at)
    keep_time(OnlineGame, game.pk, "updated_at", planned.updated_at)


def _free_token(token: str, holders, new) -> str:
    """Keep a link (printed QR codes and slips go on working after a move to another server)
    unless this server already uses it (``holders``: the rows holding it), e.g. for a copy of the
    event next to the original: the copy then gets a ``new()`` one."""
    return new() if holders.exists() else token


def _new_card_key() -> str:
    while True:
        key = player_codes.new_key()
        if not PlayerCard.objects.filter(key=key).exists():
            return key
