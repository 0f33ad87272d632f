"""Pairing the next round ahead of time, while the round's last game is still being played.

At a thousand players bbpPairings takes most of a minute for one Swiss round
(docs/benchmarks.md), and a self-running round is paired only once its last game has ended.
While exactly one game of the round is left, its result is one of three (the first player
wins, a draw, the second wins), and whoever the round's closing will withdraw for missed games
is known already. So the next round's pairing is asked for each of the three, in the
background and at a lower priority (``tournament.pairing.engines.in_background``). During the
break after a closed round (the next round due minutes later) it is asked once, as the stored
results stand; and round 1 once registration has closed, with the pairing numbers it will
settle (``tournament.services.format.as_settled``; not when they are drawn by lot then). Once
the round is paired, the runs still going (the other outcomes) are killed.

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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from django.conf import settings
from django.db import close_old_connections, connection

from tournament.bridges import pairing_bridge
from tournament.models import Board, Event, Result, Round
from tournament.pairing.engines import in_background, stop_background
from tournament.services import format as event_format
from tournament.standings import Game

log = logging.getLogger(__name__)

#: The last game's outcomes, the likelier first (a draw is rare): (first's VP, second's VP).
OUTCOMES = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)),
            (Fraction(1, 2), Fraction(1, 2)))
#: Programs run at once: one per core of the two-core machine the figures were taken on.
WORKERS = 2

_pool: ThreadPoolExecutor | None = None
_asked: set[tuple[int, int, int]] = set()  # (event, round, board or 0) asked already
_lock = threading.Lock()


def enabled() -> bool:
    return getattr(settings, "AUTOPILOT_PAIR_AHEAD", True)


def last_game(latest: Round) -> Board | None:
    """The one game left of the round being played (None: none, or more than one)."""
    if latest.status != Round.Status.PUBLISHED:
        return None
    left = list(latest.boards.exclude(results__status=Result.Status.ACCEPTED)[:2])
    if len(left) != 1 or left[0].second_id is None:
        return None
    return left[0]


def ask(event: Event, number: int, *, board: Board | None = None,
        withdrawn: Callable[[], frozenset[int]] = frozenset) -> bool:
    """Ask round ``number``'s pairing once: for each outcome of ``board``, the last game of
    the round before, with ``withdrawn()`` the players that round's closing will withdraw
    (read only when asking: the tick calls this every second); or, without a board, as the
    stored results stand (a closed round, the next not due yet). In the background
    (``_submit``); whether it was asked now."""
    key = (event.pk, number, board.pk if board is not None else 0)
    with _lock:
        if key in _asked:
            return False
        _asked.difference_update({k for k in _asked if k[0] == key[0]})
        _asked.add(key)
    leaving = withdrawn()
    for outcome in OUTCOMES if board is not None else (None,):
        _submit(pair_assuming, event.pk, number, board.pk if board else None, outcome,
                leaving)
    return True


def pair_assuming(event_id: int, number: int, board_id: int | None,
                  outcome: tuple[Fraction, Fraction] | None,
                  withdrawn: frozenset[int]) -> bool:
    """Round ``number``'s pairing as if board ``board_id`` ended with ``outcome`` and
    ``withdrawn`` were withdrawn; whether it was asked (not once the round is paired or the
    game has ended)."""
    event = Event.objects.get(pk=event_id)
    if event.rounds.filter(number=number).exists():
        return False
    numbers = None
    if number == 1:  # as settling will number the players
        settled = event_format.as_settled(event)
        if settled is None or settled[0].pairing_system == Event.PairingSystem.ROUND_ROBIN:
            return False
        event, numbers = settled
    assumed = None
    if board_id is not None:
        board = Board.objects.get(pk=board_id)
        if board.results.filter(status=Result.Status.ACCEPTED).exists():
            return False  # over: the real pairing is being made
        assumed = {board.pk: Game.decision(number - 1, board.first_id, board.second_id,
                                           *outcome)}
    with in_background(event_id):
        pairing_bridge.pair_round(event, number, assumed=assumed, withdrawn=withdrawn,
                                  numbers=numbers)
    return True


def stop(event: Event) -> int:
    """The event's round is paired: end the runs ahead still going (other outcomes)."""
    return stop_background(event.pk)


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
