"""A board clock's log in words, for the arbiter: who did what, when, and why.

The log (``ClockLogEntry``) keeps every change with its detail: the arbiter's commands with
their reasons, the presses (and, for a press the device dated, what the server credited), the
flags, the devices the clock moved to, the time a restart gave back. This turns each entry
into a line an arbiter reads at the desk or in a dispute, in the reader's language; the board's
result page and the hall link to it, and the printed record of the round carries it
(``tournament.boards.links.clock_logs``: :func:`board_logs`).
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.models import Clock, ClockLogEntry
from tournament.boards.links import ClockLine

Action = ClockLogEntry.Action


def _seconds(ms: int | None) -> str:
    return _("%(s).1f s") % {"s": (ms or 0) / 1000}


def _left(ms: int | None) -> str:
    total = max(0, int(ms or 0)) // 1000
    return f"{total // 60}:{total % 60:02d}"


def _what(entry: ClockLogEntry, names: dict[str, str]) -> str:
    d = entry.detail or {}
    side = names.get(d.get("side") or "", d.get("side") or "")
    if entry.action == Action.PRESS and d.get("press"):
        press = d["press"]
        text = _("%(name)s pressed (press %(n)s), %(left)s left") % {
            "name": names.get(press.get("side"), press.get("side")), "n": press.get("number"),
            "left": _left(press.get("remaining_ms"))}
        rec = d.get("reconciled")
        if rec:
            text += " · " + _("dated by the device: %(used)s of its allowance used") % {
                "used": _seconds(rec.get("budget_used_ms"))}
        return text
    if entry.action == Action.ADJUST:
        kinds = {"add": _("%(name)s: %(amount)s added"),
                 "subtract": _("%(name)s: %(amount)s taken off"),
                 "set": _("%(name)s: time set to %(amount)s")}
        return kinds.get(d.get("kind"), "%(name)s: %(amount)s") % {
            "name": side, "amount": _seconds(d.get("amount_ms"))}
    if entry.action == Action.CORRECT:
        return _("The turn given to %(name)s") % {"name": names.get(d.get("turn"), d.get("turn"))}
    if entry.action == Action.FINISH:
        return _("Clock stopped for good (%(kind)s)") % {"kind": d.get("kind", "")}
    if entry.action == Action.DEVICE:
        if not d.get("device"):
            return _("The clock freed: the next device whose players agree keeps it")
        return _("The clock kept by device %(code)s (%(how)s)") % {
            "code": d["device"], "how": {"first": _("the first to open the board page"),
                                         "players": _("both players agreed on it"),
                                         "arbiter": _("handed over by the arbiter")}.get(
                                             d.get("how"), d.get("how", ""))}
    if entry.action in (Action.PAUSE, Action.RESUME) and d.get("held_ms") is not None:
        return (_("Held while the server was down: %(held)s given back")
                % {"held": _seconds(d["held_ms"])}) if entry.action == Action.PAUSE else \
            _("Running again after the restart")
    if entry.action == Action.FLAG:
        return _("A flag fell")
    return str(entry.get_action_display()).capitalize()


def lines(entries, names: dict[str, str]) -> list[ClockLine]:
    """``entries`` in words; ``names``: the two sides' player names by ``"A"`` and ``"B"``."""
    return [ClockLine(at=timezone.localtime(datetime.datetime.fromtimestamp(
                        e.server_ms / 1000, tz=datetime.UTC)),
                    who=e.who, what=_what(e, names), why=(e.detail or {}).get("reason") or "")
            for e in entries]


def board_logs(board_ids: list[int]) -> dict[int, tuple[ClockLine, ...]]:
    """The log of each of these boards' clocks in words (a board without a clock: none)."""
    found = {}
    clocks = Clock.objects.filter(board_id__in=board_ids).select_related("board__first",
                                                                         "board__second")
    for clock in clocks.prefetch_related("log_entries"):
        board = clock.board
        names = {"A": board.first.name, "B": board.second.name if board.second else ""}
        entries = sorted(clock.log_entries.all(), key=lambda e: e.pk)
        found[board.pk] = tuple(lines(entries, names))
    return found
