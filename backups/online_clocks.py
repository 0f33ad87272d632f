"""The clocks of a restored online round, rebuilt from its games' moves.

A backup carries no clocks: a clock is a log of one server's millisecond times, which mean
nothing after a crash or on another server. An online game's moves carry what matters instead:
the time each seat had left when its turn ended (the record's ``@M:SS``) and its flag. So when
a restored online round had begun (one of its games has a move), every game of the round gets
its clock back through the clock services, each step in the clock's log under the importer's
name, as if an arbiter had done it by hand:

* started and at once paused: nobody's time runs while the server was down or while the
  arbiter restores; the arbiter resumes the round from the hall of clocks (**Resume all**)
  once the players are back at their links;
* the turn on the seat to act, and each seat set to the time its last turn left it: the full
  time before its first turn, 0:00 for a seat that flagged (the game already has it stopped;
  the clock shows its flag when the turn next reaches it: at once, or, with a Bronstein delay,
  once the delay has run, which its opponent waits out that one time);
* finished, with the game's end, where the game is over (so that starting the round's clocks
  never starts a finished game's clock).

The turn in progress when the backup was written starts again with the time its seat had at
its start: how long the seat had been thinking is not in the file. A round none of whose games
had a move gets no clocks: the arbiter starts it as usual.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from clocks import services
from clocks.core.clock import AdjustKind, FinishKind
from clocks.core.timecontrol import TimeControl
from games.dealt import Table
from tournament.models import Board

#: Who the clock's log names when the operator's command line restores (no importer).
WHO = "backup"
SEATS = ("A", "B")


def restore_round(games: list[tuple[Board, Table]], *, user=None) -> None:
    """The clocks of one restored online round's games (saved boards and their replays)."""
    if not any(table.moves for _board, table in games):
        return
    who = user.get_username() if user is not None else WHO
    for board, table in games:
        _restore(board, table, who=who, user=user)


def _restore(board: Board, table: Table, *, who: str, user) -> None:
    reason = _("restored from a backup: the time the moves recorded")
    base_ms = TimeControl.parse(board.round.event.time_control).base_ms
    services.start(board, who=who, user=user)
    services.pause(board, who=who, user=user)
    if table.to_act == "B":  # the start gave A the turn
        services.correct(board, "B", reason=reason, who=who, user=user)
    for seat in SEATS:
        services.adjust(board, seat, AdjustKind.SET, _time_left_ms(table.moves, seat, base_ms),
                        reason=reason, who=who, user=user)
    if table.over:
        resigned = next((m["seat"] for m in table.moves if m["move"] == "resign"), None)
        kind = FinishKind.RESIGNED if resigned else FinishKind.COMPLETED
        services.finish(board, kind, side=resigned, reason=table.game.end, who=who, user=user)


def _time_left_ms(moves: list[dict], seat: str, base_ms: int) -> int:
    """What ``seat`` had left after its last turn: its latest clock note, 0 once it flagged."""
    left = base_ms
    for move in moves:
        if move["seat"] == seat:
            if move["move"] == "flag":
                left = 0
            elif "clock" in move:
                left = move["clock"] * 1000
    return left
