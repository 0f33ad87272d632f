"""A player who never came to an online game: the rule, without writing.

A seat has **appeared** once its personal link opened a socket (the server notes the first
time: ``OnlineGame.seen_a`` / ``seen_b``) or once it has a move. After the event's waiting
time (``Event.no_show_minutes``), counted from the start of the clocks, a seat that has not
appeared loses by forfeit: claimed by its opponent from the game page, or recorded by the
arbiter from the round's online page (both seats absent: a double forfeit). Until then its clock
runs, as over the board. Only what the server saw counts: a page may claim that the other never
came, and the server checks it against its own record of the sockets and the moves.

``games.online.play`` writes (``note_seen``, ``claim_no_show``); this module says who is
absent, from when a claim may be made, why one is refused, and how the game then looks.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import OnlineGame

SEATS = ("A", "B")
MINUTE_MS = 60_000


def appeared(game: OnlineGame, moves: list[dict]) -> dict[str, bool]:
    """Per seat, whether the server has seen it: its socket opened, or a move of its own."""
    moved = {move.get("seat") for move in moves}
    return {seat: game.seen(seat) is not None or seat in moved for seat in SEATS}


def absent(game: OnlineGame, moves: list[dict]) -> list[str]:
    return [seat for seat, here in appeared(game, moves).items() if not here]


def claim_from_ms(clock: dict[str, Any], minutes: int) -> int | None:
    """When a no-show may be claimed (server ms): the clocks' start plus the waiting time."""
    start = clock.get("started_at_ms")
    return None if start is None else start + minutes * MINUTE_MS


def refusal(game: OnlineGame, clock: dict[str, Any], missing: list[str], claimant: str | None,
            minutes: int, names: dict[str, str]) -> str | None:
    """Why a no-show cannot be recorded now (None: it can). ``claimant``: the seat whose
    player claims, or None for the arbiter."""
    if game.record_id is not None or game.no_show or clock["finished"] is not None:
        return _("The game is over.")
    if clock["status"] == "not_started":
        return _("The clocks have not started: the waiting time counts from their start.")
    if clock["paused"]:
        return _("The clock is paused.")
    if claimant is not None and other(claimant) not in missing:
        return _("%(name)s has appeared: the game is played, and the clock decides.") % {
            "name": names[other(claimant)]}
    if claimant is None and not missing:
        return _("Both players have appeared: the game is played, and the clock decides.")
    due = claim_from_ms(clock, minutes)
    if due is not None and clock["server_time_ms"] < due:
        left = (due - clock["server_time_ms"] + 999) // 1000
        return ngettext("The waiting time of %(minutes)d minute is not over: %(left)s to go.",
                        "The waiting time of %(minutes)d minutes is not over: %(left)s to go.",
                        minutes) % {
            "minutes": minutes, "left": f"{left // 60}:{left % 60:02d}"}
    return None


def reason(missing: list[str], names: dict[str, str], minutes: int,
           claimant: str | None) -> str:
    """The result's reason, as the standings' note and the board's history show it."""
    who = " · ".join(names[seat] for seat in missing)
    text = ngettext("%(who)s did not appear within %(minutes)d minute of the start of the clocks",
                    "%(who)s did not appear within %(minutes)d minutes of the start of the clocks",
                    minutes) % {
        "who": who, "minutes": minutes}
    if claimant is not None:
        text += "; " + _("claimed by %(name)s") % {"name": names[claimant]}
    return text


def result(no_show: str) -> str:
    """The forfeit's result of a game whose ``no_show`` seats never came (both: 0-0)."""
    return "0-0" if len(no_show) == 2 else "0-1" if no_show == "A" else "1-0"


def ended_view(view: dict[str, Any], no_show: str) -> dict[str, Any]:
    """A view of a game that ended with a no-show: over, with the forfeit's result and the
    absent seats (``end_code`` ``end_no_show``, ``end_params`` ``{"seats": "B"}``)."""
    return {**view, "over": True, "to_act": None, "awaiting": None, "bonus": False,
            "result": result(no_show), "end": f"no show: {', '.join(no_show)}",
            "end_code": "end_no_show", "end_params": {"seats": no_show}}


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"
