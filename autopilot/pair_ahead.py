"""Pairing the next round ahead of time, while the round's last game is still being played.

At a thousand players bbpPairings takes most of a minute for one Swiss round
(docs/benchmarks.md), and a self-running round is paired only once its last game has ended.
While exactly one game of the round is left, its result is one of three (the first player
wins, a draw, the second wins), and whoever the round's closing will withdraw for missed games
is known already. So the next round's pairing is asked for each of the three, in the
background and at a lower priority (``tournament.pairing.engines.in_background``).

Nothing here decides anything or writes anything: the real pairing (``autopilot.runner``,
through ``services.pair_next_round``) is made as always, from the stored results, once the
game has ended. The engine keeps its answers by the exact text of its input file, and waits
for a run of the same file already going; so the real pairing gets its answer at once, or as
soon as the run for the true outcome ends, and a file that differs in anything (a late
registration, an absence asked meanwhile, an arbiter's change) is simply paired anew.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from django.conf import settings
from django.db import close_old_connections, connection

from tournament.bridges import pairing_bridge
from tournament.models import Board, Event, Result, Round
from tournament.pairing.engines import in_background
from tournament.standings import Game

log = logging.getLogger(__name__)

#: The last game's outcomes, the likelier first (a draw is rare): (first's VP, second's VP).
OUTCOMES = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)),
            (Fraction(1, 2), Fraction(1, 2)))
#: Programs run at once: one per core of the two-core machine the figures were taken on.
WORKERS = 2

_pool: ThreadPoolExecutor | None = None
_asked: set[tuple[int, int, int]] = set()  # (event, round, board) asked already
_lock = threading.Lock()


def enabled() -> bool:
    return getattr(settings, "AUTOPILOT_PAIR_AHEAD", True)


def last_game(event: Event, latest: Round | None, rounds: int) -> Board | None:
    """The one game left of the event's latest round, when the next round is a Swiss round
    to pair (None otherwise: more games left, a Berger table, no round to come)."""
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
        return None  # the Berger table needs no engine
    if latest is None or latest.status != Round.Status.PUBLISHED or latest.number >= rounds:
        return None
    left = list(latest.boards.exclude(results__status=Result.Status.ACCEPTED)[:2])
    if len(left) != 1 or left[0].second_id is None:
        return None
    return left[0]


def ask(board: Board, withdrawn: frozenset[int]) -> bool:
    """Ask the next round's pairing for each outcome of ``board``, the last game of its round
    (once per game), with ``withdrawn`` the players its round's closing will withdraw; each
    in the background (``_submit``)."""
    key = (board.round.event_id, board.round.number, board.pk)
    with _lock:
        if key in _asked:
            return False
        _asked.difference_update({k for k in _asked if k[0] == key[0]})
        _asked.add(key)
    for outcome in OUTCOMES:
        _submit(pair_assuming, board.pk, outcome, withdrawn)
    return True


def pair_assuming(board_id: int, outcome: tuple[Fraction, Fraction],
                  withdrawn: frozenset[int]) -> bool:
    """The next round's pairing as if board ``board_id`` ended with ``outcome`` and
    ``withdrawn`` were withdrawn; whether it was asked (not once the game has ended)."""
    board = Board.objects.select_related("round__event").get(pk=board_id)
    if board.results.filter(status=Result.Status.ACCEPTED).exists():
        return False  # over: the real pairing is being made
    number = board.round.number
    game = Game.decision(number, board.first_id, board.second_id, *outcome)
    with in_background():
        pairing_bridge.pair_round(board.round.event, number + 1, assumed={board.pk: game},
                                  withdrawn=withdrawn)
    return True


def _submit(function, *args) -> None:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="pair-ahead")
    _pool.submit(_in_thread, function, *args)


def _in_thread(function, *args) -> None:
    close_old_connections()
    try:
        function(*args)
    except Exception as exc:  # a guess that fails costs nothing: the real pairing says why
        log.info("pairing ahead of time: %s", exc)
    finally:
        connection.close()
