"""Game records in the event: submission (arbiter, player, JSON API), live entry, the viewer."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games import live, throttle
from games.engine import EngineError, format_record, parse_record
from games.engine.board import COLOURS
from games.models import GameRecord
from games.services import (
    MAX_RECORD_BYTES,
    RecordRejected,
    board_for_record,
    submit_record,
    verified_record,
)
from tournament.boards.tokens import TokenRefused, board_for_token
from tournament.inputs.json_input import JSONRefused, Limits, read_json
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Board
from tournament.permissions import arbiter_required, visible_boards
from tournament.texts.core_messages import json_text

SUBMISSIONS_PER_10_MIN = 20
ENTRIES_PER_MINUTE = 120
#: A live scoresheet entry is a few fields: far below the default size, and never nested.
LIVE_JSON = Limits(max_bytes=16 * 1024, max_depth=4)


def _api_error(status: int, code: str, message: str, line: int | None = None) -> JsonResponse:
    """The API's one error shape: a stable ``code`` for programs, the ``message`` for people
    in the request's language, and the record ``line`` where one is to blame."""
    return JsonResponse({"ok": False, "error": {"line": line, "code": code, "message": message}},
                        status=status)


def _refused(request, message: str, status: int = 403, code: str = "token_refused", *,
             later: bool = False):
    if request.headers.get("Accept", "").startswith("application/json") or \
            request.content_type == "application/json":
        return _api_error(status, code, message)
    return render(request, "games/refused.html", {"message": message, "later": later},
                  status=status)


def _read_upload(request) -> str | None:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > MAX_RECORD_BYTES:
            raise RecordRejected(_("The file is %(size)d KB; the limit is %(limit)d KB.")
                                 % {"size": upload.size // 1024,
                                    "limit": MAX_RECORD_BYTES // 1024},
                                 code="record_too_large")
        return upload.read().decode("utf-8", errors="replace")
    return request.POST.get("record") or None


def _submission_page(request, board: Board, *, via: str, context: dict):
    error = None
    text = ""
    if request.method == "POST":
        try:
            text = _read_upload(request) or ""
            if not text.strip():
                raise RecordRejected(_("Paste the record or choose a file."), code="no_record")
            submission = submit_record(board, text, user=request.user, via=via)
        except RecordRejected as exc:
            error = exc
            text = exc.text or text
        else:
            if submission.conflict:
                messages.warning(request, _("The record is valid but differs from the result "
                                            "already entered: the arbiter will resolve it."))
            elif submission.created:
                messages.success(request, _("Record verified and the result recorded."))
            else:
                messages.info(request, _("This record was already submitted; nothing changed."))
            return redirect(request.path)
    lines = text.splitlines()
    return render(request, "games/submit.html", {
        **context, "board": board, "error": error, "text": text,
        "lines": [(i, line) for i, line in enumerate(lines, start=1)],
        "records": board.game_records.all(), "limit_kb": MAX_RECORD_BYTES // 1024,
    }, status=(error.status or 400) if error else 200)


@arbiter_required
def arbiter_submit(request, event, board_id):
    board = get_object_or_404(Board.objects.select_related("round", "first", "second"),
                              pk=board_id, round__event=event)
    return _submission_page(request, board, via="arbiter",
                            context={"event": event, "is_arbiter": True})


@arbiter_required
def arbiter_submit_any(request, event):
    """One page for every record of the event: the board is found from the record's tags."""
    error, text, submission = None, "", None
    if request.method == "POST":
        try:
            text = _read_upload(request) or ""
            if not text.strip():
                raise RecordRejected(_("Paste the record or choose a file."), code="no_record")
            board = board_for_record(event, text)
            submission = submit_record(board, text, user=request.user, via="arbiter")
        except RecordRejected as exc:
            error = exc
        else:
            messages.success(request, _("Round %(r)d, board %(b)d: %(what)s") % {
                "r": board.round.number, "b": board.number,
                "what": _("kept as a conflict for you to resolve") if submission.conflict
                else _("result recorded") if submission.created else _("already submitted"),
            })
            return redirect(request.path)
    return render(request, "games/submit_any.html", {
        "event": event, "is_arbiter": True, "error": error, "text": text,
        "lines": list(enumerate(text.splitlines(), start=1)), "limit_kb": MAX_RECORD_BYTES // 1024,
    }, status=(error.status or 400) if error else 200)


@never_cache
def player_submit(request, token):
    try:
        board = board_for_token(token)
    except TokenRefused as exc:
        return _refused(request, str(exc), later=exc.later)
    if request.method == "POST" and not throttle.allow(
        f"submit:{board.pk}", limit=SUBMISSIONS_PER_10_MIN, window_s=600
    ):
        return _refused(request, _("Too many submissions from this board; wait a few "
                                   "minutes."), status=429, code="too_many_submissions")
    return _submission_page(request, board, via="player",
                            context={"event": board.round.event, "token": token})


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _too_large() -> JsonResponse:
    return _api_error(413, "record_too_large", _("The record is larger than %(limit)d KB.")
                      % {"limit": MAX_RECORD_BYTES // 1024})


@csrf_exempt
@require_POST
def api_submit(request):
    """``POST /api/records/`` with the record as the body (text or JSON).

    Authorisation: ``Authorization: Board <token>`` (a digital board; no cookies, so no CSRF),
    or an arbiter's session, which must then carry the CSRF token like any form, with
    ``?board=<id>``.
    """
    if _declared_length(request) > MAX_RECORD_BYTES:
        # Decided before anything reads the body (the CSRF check would, and Django answers an
        # HTML 400 past DATA_UPLOAD_MAX_MEMORY_SIZE); the server's stream is limited to the
        # declared length, so the body read below is bounded too.
        return _too_large()
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Board "):
        try:
            board = board_for_token(auth.removeprefix("Board ").strip())
        except TokenRefused as exc:
            return _api_error(403, "token_refused", str(exc))
        if not throttle.allow(f"submit:{board.pk}", limit=SUBMISSIONS_PER_10_MIN, window_s=600):
            return _api_error(429, "too_many_submissions", _(
                "Too many submissions from this board; wait a few minutes."))
        user, via = None, "api"
    else:
        reason = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if reason is not None:
            return _api_error(403, "not_authorised", _(
                "Give the board token (Authorization: Board <token>) or log in; "
                "a session needs the CSRF token."))
        # junk in ?board= is the middleware's 400 in this API's error shape
        board = Board.objects.select_related("round__event").filter(pk=whole_number(
            request.GET.get("board"), label="board", column=column_range(Board, "id"),
            required=False)).first()
        if board is None:
            return _api_error(400, "board_missing", _("Name the board with ?board=<id>."))
        if not board.round.event.is_arbiter(request.user):
            return _api_error(403, "not_arbiter", _(
                "Only the event's arbiters may submit without a board token."))
        user, via = request.user, "api"
    if len(request.body) > MAX_RECORD_BYTES:
        return _too_large()
    try:
        submission = submit_record(board, request.body, user=user, via=via)
    except RecordRejected as exc:
        return _api_error(exc.status or 422, exc.code, exc.message, exc.line)
    result = submission.result
    return JsonResponse({
        "ok": True, "created": submission.created, "conflict": submission.conflict,
        "record": reverse("game_viewer", args=[submission.record.pk]),
        "result": {"first_vp": str(result.first_vp), "second_vp": str(result.second_vp),
                   "version": result.version, "status": result.status},
    }, status=201 if submission.created else 200)


# --- live scoresheet (JSON, from the board page) --------------------------------------------


def _live_response(board_state: live.LiveState, status: int = 200):
    return JsonResponse({"ok": True, **board_state.to_json()}, status=status)


def _json_body(request) -> dict:
    try:
        data = read_json(request.body or b"{}", LIVE_JSON)
    except JSONRefused as refused:
        raise live.LiveRefused(json_text(refused)) from None
    if not isinstance(data, dict):
        raise live.LiveRefused(_("The request must be a JSON object."))
    return data


@never_cache
def live_view(request, token, action=""):
    try:
        board = board_for_token(token)
    except TokenRefused as exc:
        return JsonResponse({"ok": False, "error": str(exc)}, status=403)
    if request.method == "GET":
        return _live_response(live.state(board))
    if request.method != "POST":
        return JsonResponse({"ok": False, "error": _("GET or POST only.")}, status=405)
    if not throttle.allow(f"live:{board.pk}", limit=ENTRIES_PER_MINUTE, window_s=60):
        return JsonResponse({"ok": False, "error": _("Too many entries; slow down.")},
                            status=429)
    try:
        data = _json_body(request)
        version = data.get("version")
        if not isinstance(version, int):
            raise live.LiveRefused(_("The entry must say which version it is based on."))
        if action == "undo":
            new = live.undo(board, expected_version=version)
        elif action == "confirm":
            new, _submission = live.confirm(board, data.get("seat"), expected_version=version)
        else:
            new = live.enter(board, data.get("entry"), expected_version=version)
    except (live.LiveRefused, RecordRejected) as exc:
        current = live.state(board)
        return JsonResponse({"ok": False, "error": str(exc), **current.to_json()}, status=409)
    return _live_response(new)


# --- the public game viewer -------------------------------------------------------------------


def _visible_record(request, record_id: int) -> GameRecord:
    """A record of a board whose pairing the visitor may see (``permissions.visible_boards``):
    a game's players and moves are no more public than its pairing."""
    return get_object_or_404(GameRecord.objects.select_related(
        "board__round__event", "board__first", "board__second"),
        pk=record_id, board__in=visible_boards(request.user))


def viewer_steps(text: str) -> list[dict]:
    """Per action of a stored record: what it was, both seats' six tracks after it, clock.

    Replayed, not trusted: a stored text that no longer verifies (a database edited by hand,
    a record from before a rules fix) raises ``RecordRejected`` for the page to say so."""
    parsed, game = verified_record(text)
    steps = []
    for action, levels in zip(parsed.actions, game.history, strict=True):
        steps.append({
            "seat": action.seat, "kind": action.kind, "text": str(action),
            "placement": str(action.placement) if action.placement else None,
            "scores": {seat: dict(zip(COLOURS, levels[i], strict=True))
                       for i, seat in enumerate(("A", "B"))},
            "clock": action.clock,
        })
    return steps


def game_viewer(request, record_id):
    record = _visible_record(request, record_id)
    event = record.board.round.event
    try:
        steps, unreadable = viewer_steps(record.text), None
    except RecordRejected as exc:
        steps, unreadable = [], str(exc)
    return render(request, "games/viewer.html", {
        "event": event, "is_arbiter": event.is_arbiter(request.user), "record": record,
        "board": record.board, "steps": steps, "summary": record.summary,
        "unreadable": unreadable,
    })


def game_download(request, record_id, fmt):
    """The stored text as it is (``.txt``), or converted to JSON, which needs it to parse."""
    record = _visible_record(request, record_id)
    name = f"{record.board.round.event.slug}-r{record.board.round.number}-b{record.board.number}"
    if fmt == "json":
        try:
            parsed = parse_record(record.text)
        except EngineError as exc:  # what the viewer says too; the text download still works
            return HttpResponse(_("The stored record cannot be read: %(reason)s")
                                % {"reason": RecordRejected.engine(exc)}, status=409,
                                content_type="text/plain; charset=utf-8")
        response = HttpResponse(format_record(parsed, form="json"),
                                content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    else:
        response = HttpResponse(record.text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.txt"'
    return response
