"""Re-checking a board token on every press, cheaply; an arbiter's rights on every command.

A board link must stop working the moment the arbiter revokes or reissues it, or its round
closes, so every press re-checks the token. The full check
(``tournament.boards.tokens.board_for_token``)
loads the board with its round, event and both players: too much for every press. A token that
opened the board at connect time is still valid exactly when the board still has that token,
it is not revoked, and its round is still published (a closed round's grace period depends on
the time, so it always takes the full check). That is three columns of one indexed row, which a
press reads in the statement that locks its clock (``PressVet``); when it does not hold, the
full check runs and gives the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from clocks import rows
from tournament.boards.tokens import board_for_token
from tournament.models import Board, Event, Round

#: The token's columns, as ``_opens`` reads them: the board's token, whether it is not
#: revoked, its round's status.
_TOKEN_COLUMNS = ("b.token", "b.token_revoked_at IS NULL", "r.status")


def _opens(row: tuple | None, token: str) -> bool:
    return (row is not None and row[0] == token and bool(row[1])
            and row[2] == Round.Status.PUBLISHED)


def still_open(board_id: int, token: str) -> bool:
    """True when ``token`` certainly still opens board ``board_id`` (one small query)."""
    return _opens(rows.board_values(board_id, _TOKEN_COLUMNS), token)


def recheck(board_id: int, token: str) -> None:
    """Raise ``TokenRefused`` (with the reason) if ``token`` no longer opens the board."""
    if not still_open(board_id, token):
        board_for_token(token)


class PressVet:
    """A press from the board's device: ``recheck``, ``press_refusal`` and the device keeping
    the clock (``clocks.holder``), read by the clock's lock statement itself
    (``clocks.rows.lock``), so that they cost the press no query of their own. ``guarded``
    off (an arbiter's session on the board page) checks the token only; ``device`` is the
    pressing page's device (``holder.device_key``), which must keep the clock.

    A guard registered with an SQL condition is asked for its reason only when its condition
    holds; one without is asked every time.
    """

    #: when the device keeping the clock took it, as the lock read it (``refusal``): the
    #: press's credit counts its silence from then only (``clocks.services.press``)
    holder_since_ms: int | None = None

    def __init__(self, token: str, guarded: bool = True, device: str | None = None) -> None:
        self.token = token
        self.guarded = guarded
        self.device = device
        self.guards = list(_press_guards.values()) if guarded else []
        self.columns = _TOKEN_COLUMNS + tuple(sql for _guard, sql in self.guards if sql)

    def refusal(self, board_id: int, values: tuple, holder: str = "",
                holder_since_ms: int | None = None) -> str | None:
        """Raise ``TokenRefused`` if the token no longer opens the board; return why the
        players may not press it themselves, or None. ``values``: ``columns`` as read;
        ``holder``: the device keeping the clock, since ``holder_since_ms``."""
        self.holder_since_ms = holder_since_ms
        if not _opens(values or None, self.token):
            board_for_token(self.token)
        held = iter(values[len(_TOKEN_COLUMNS):] if values else [True] * len(self.guards))
        for guard, sql in self.guards:
            if sql is None or next(held):
                answer = guard(board_id)
                if answer:
                    return answer
        if self.guarded and (not holder or holder != self.device):
            return holder_refusal(bool(holder))
        return None


def holder_refusal(kept: bool) -> str:
    """Why a device that does not keep the clock may not press it."""
    if kept:
        return _("Another device keeps this board's clock: press there. To move the clock to "
                 "this device, both players agree on it here, or the arbiter hands it over.")
    return _("No device keeps this board's clock: to keep it on this device, both players "
             "agree on it here.")


def still_arbiter(event: Event, user) -> bool:
    """Whether ``user`` is an arbiter of ``event`` now, read afresh: a socket's user was loaded
    when it connected, and an arbiter removed from the event (or an account made inactive or
    stripped of superuser rights) since then must lose control of the clocks at once, as a
    revoked token does. Arbiter commands are rare: two small queries each are nothing."""
    if user is None or not user.is_authenticated:
        return False
    fresh = get_user_model().objects.filter(pk=user.pk, is_active=True).first()
    return fresh is not None and event.is_arbiter(fresh)


#: Checks another app registers (in its ``AppConfig.ready``) to stop the players' own presses
#: on a board whose clock something else drives: each returns the reason, or None. The games
#: app's online games press the clock with every move, so a press on the board page would
#: end a turn without a move.
_press_guards: dict[str, tuple[Callable[[int], str | None], str | None]] = {}


def register_press_guard(name: str, guard: Callable[[int], str | None],
                         condition: str | None = None) -> None:
    """``condition``: an SQL expression over the board row ``b`` that holds whenever ``guard``
    may refuse; with it the guard costs a press no query of its own (``PressVet``)."""
    _press_guards[name] = (guard, condition)


def press_refusal(board_id: int) -> str | None:
    """Why the players may not press this board's clock themselves, or None."""
    return _first_answer({name: guard for name, (guard, _sql) in _press_guards.items()},
                         board_id)


def _first_answer(hooks: dict, value):
    """The first registered hook's answer for ``value`` that is not empty, or None."""
    for hook in hooks.values():
        answer = hook(value)
        if answer:
            return answer
    return None


#: Pages other apps show instead of the read-only clock for some boards (registered in their
#: ``AppConfig.ready``): each returns the page's path for a board, or None. An online game's
#: spectators see the game itself, board and scores with the clocks.
_spectator_pages: dict[str, Callable[[Board], str | None]] = {}


def register_spectator_page(name: str, page: Callable[[Board], str | None]) -> None:
    _spectator_pages[name] = page


def spectator_page(board: Board) -> str | None:
    """The page to show a spectator of ``board`` instead of its clock alone, or None."""
    return _first_answer(_spectator_pages, board)


#: Feeds of what the hall shows beside some boards' clocks (``games``: the online games' seats,
#: moves and scores), by round: the address the hall page reads it from, or None.
_hall_feeds: dict[str, Callable[[Round], str | None]] = {}


def register_hall_feed(name: str, feed: Callable[[Round], str | None]) -> None:
    _hall_feeds[name] = feed


def hall_feed(round_: Round) -> str | None:
    return _first_answer(_hall_feeds, round_)


#: Owners of some boards' clocks (registered in other apps' ``AppConfig.ready``): an owner takes
#: the arbiter's commands on its boards, runs the command (``run``) inside its own checks and
#: returns the outcome, or returns None without running it for a board it does not own. An
#: online game's clock moves with its moves: an arbiter's change must leave the game able to
#: follow it (a flag taken back only while nothing was played after it, the turn the moves
#: give), and the game takes the change in the same transaction.
_command_owners: dict[str, Callable[[Board, dict[str, Any], Callable[[], Any]], Any]] = {}


def register_command_owner(name: str,
                           owner: Callable[[Board, dict[str, Any], Callable[[], Any]], Any],
                           ) -> None:
    _command_owners[name] = owner


def owned_command(board: Board, content: dict[str, Any], run: Callable[[], Any]) -> Any:
    """Run an arbiter's command on ``board`` through the board's owner, if it has one."""
    for owner in _command_owners.values():
        outcome = owner(board, content, run)
        if outcome is not None:
            return outcome
    return run()
