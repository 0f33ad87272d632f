"""Online play: the only code that writes online games (docs/online-protocol.md).

A round marked online (``mark_online``) gets one :class:`~games.models.OnlineGame` per board:
a fresh secret seed, its commitment, and a personal link per seat. The game itself is the pure
core :class:`games.dealt.Table`, replayed from the seed and the stored moves.

Every move (``play``) is one transaction: the game row is locked, the board's clock is read
through the clock services with due flags applied (a seat whose time ran out is flagged in the
game first: it stops, the opponent plays on alone), the core applies the move or refuses it
with the engine's reason (nothing stored but those flags), and a move that ends the seat's
turn presses its clock (``clocks.services.press``) in the same transaction, which starts the
opponent's. There is no separate press: the turn ends with the move. If the clock will not
take the press (its turn is not the seat's, after an arbiter's correction), the move does not
stand. At
the end the clock is finished and the full record, every draw included, goes through
``games.services.submit_record`` like any submitted record: verified again, stored, and
recorded as the board's result with source "record". Views go out after commit with the
clock's snapshot, one per seat (with its own rack only) and one for spectators; each socket
sends only its own (``games.consumers``).

A move takes the game row, then the clock row, each locked once (``games.online.rows``,
``clocks.services.HeldClock``), and every part of it reads the same instant.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import groups
from clocks import services as clock_services
from clocks.core.clock import FinishKind
from games import news
from games import services as game_services
from games.dealt import SEED_BYTES, MoveRefused, Table, parse_seed
from games.engine import format_record
from games.engine_messages import move_refusal_text
from games.live import tags_for
from games.models import LiveGame, OnlineEvent, OnlineGame, OnlineRound
from games.online import no_show
from games.online import rows as online_rows
from tournament import services as event_services
from tournament.boards.tokens import TokenRefused, check_round_open
from tournament.models import Board, Event, Result, Round

SEATS = ("A", "B")


class OnlineRefused(Exception):
    """A command that cannot be carried out; the message says why, nothing changed."""


@dataclass(frozen=True)
class Played:
    """A move's outcome: the sender's view (and clock) afterwards, or why it was refused."""

    view: dict[str, Any]
    error: str | None = None


def is_online(round_: Round) -> bool:
    return OnlineRound.objects.filter(round=round_).exists()


def flag_fell(board: Board) -> None:
    """The flag timer stored a flag on ``board``: an online game takes it in at once (the seat
    stops; with both flags down the game ends and its result is recorded)."""
    game = OnlineGame.objects.filter(board=board, record__isnull=True).first()
    if game is not None:
        sync(game)


def watch_path(board: Board) -> str | None:
    """The spectators' page of the board's online game, if it has one (clocks.access)."""
    if not OnlineGame.objects.filter(board=board).exists():
        return None
    return reverse("online_watch", args=[board.round.event.slug, board.round.number,
                                         board.number])


def online_board_sql() -> str:
    """``press_guard``'s condition in SQL over the board row ``b`` (``clocks.access``): the
    board's device checks it in the query that re-checks its token."""
    q = connection.ops.quote_name
    return (f"EXISTS (SELECT 1 FROM {q(OnlineGame._meta.db_table)} g "
            f"WHERE g.{q('board_id')} = b.{q('id')})")


def press_guard(board_id: int) -> str | None:
    """The board page may not press an online game's clock: the moves do (clocks.access)."""
    if OnlineGame.objects.filter(board_id=board_id).exists():
        return _("This board is played online: the clock moves with the players' moves.")
    return None


# --- the arbiter's switch -------------------------------------------------------------------


def boards_to_play(round_: Round):
    """The round's boards that are played online: every game but one the pairing decided (a
    round robin's game of an absent or withdrawn player is a forfeit from the start, and has
    nothing to play)."""
    decided = Result.objects.filter(board__round=round_, source=Result.Source.PAIRING,
                                    status=Result.Status.ACCEPTED).values("board_id")
    return round_.boards.filter(second__isnull=False).exclude(pk__in=decided)


@transaction.atomic
def mark_online(round_: Round, *, user=None) -> list[OnlineGame]:
    """Run ``round_`` online: deal a game for every board that has none (again after a
    re-pairing). Refused once a board without a game has a started clock (before the round
    went online), live scoresheet entries or a result: an over-the-board game has begun."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        raise OnlineRefused(_("Round %(n)d is closed.") % {"n": round_.number})
    boards = list(boards_to_play(round_).select_related("clock"))
    dealt = set(OnlineGame.objects.filter(board__in=boards).values_list("board_id", flat=True))
    already = OnlineRound.objects.filter(round=round_).exists()
    for board in boards:
        if board.pk in dealt:
            continue  # already online (its game may have begun, or ended)
        clock = getattr(board, "clock", None)
        # in a round already online a started clock is the round's start, not a game begun
        started = clock is not None and clock.core.started_at_ms is not None and not already
        if started or board.results.exists() \
                or LiveGame.objects.filter(board=board).exclude(actions=[]).exists():
            raise OnlineRefused(
                _("Board %(n)d has already begun over the board; the round cannot go online.")
                % {"n": board.number})
    OnlineRound.objects.get_or_create(round=round_, defaults={"marked_by": _user(user)})
    games = [game_for(board) for board in boards]
    if round_.status != Round.Status.DRAFTED:  # the seats' links work now: the players' pages
        news.changed(round_.event_id)
    return games


@transaction.atomic
def mark_event_online(event: Event, *, user=None) -> list[int]:
    """Play the event's rounds online from now on: every round not closed whose games have not
    begun over the board goes online now (a drafted one too, so that its slips can be printed
    before publication), every later round when it is published (``round_published``).
    Returns the numbers of the rounds that went online now."""
    OnlineEvent.objects.get_or_create(event=event, defaults={"marked_by": _user(user)})
    dealt = []
    for round_ in event.rounds.exclude(status=Round.Status.CLOSED).order_by("number"):
        try:
            mark_online(round_, user=user)
        except OnlineRefused:
            continue  # begun over the board: it stays so
        dealt.append(round_.number)
    return dealt


def stop_event_online(event: Event) -> None:
    """Later rounds are played over the board again; rounds online already stay online."""
    OnlineEvent.objects.filter(event=event).delete()


def is_event_online(event: Event) -> bool:
    return OnlineEvent.objects.filter(event=event).exists()


def round_published(sender, round, **kwargs) -> None:
    """``tournament.signals.round_published``: a round of an online event goes online as it is
    published (dealt now, unless the arbiter dealt it before). A round that began over the
    board before (a result entered for a drafted round) stays so; its online page says so."""
    if is_event_online(round.event):
        with contextlib.suppress(OnlineRefused):
            mark_online(round)


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def game_for(board: Board) -> OnlineGame:
    """The board's online game, dealt now if it has none (its round must be online)."""
    if board.is_bye:
        raise OnlineRefused(_("A bye has no game."))
    game = OnlineGame.objects.filter(board=board).first()
    if game is not None:
        return game
    if not OnlineRound.objects.filter(round_id=board.round_id).exists():
        raise OnlineRefused(_("This round is not played online."))
    seed = secrets.token_bytes(SEED_BYTES)
    table = Table(seed, profile=board.round.event.rules_profile)
    game, _created = OnlineGame.objects.get_or_create(
        board=board, defaults={"seed": seed.hex(), "commitment": table.commitment})
    return game


def seat_for_token(token: str, now: datetime.datetime | None = None) -> tuple[OnlineGame, str]:
    """The game and seat a personal link opens, or ``TokenRefused`` with the reason."""
    game = None
    if isinstance(token, str) and 10 <= len(token) <= 32:
        rows = OnlineGame.objects.select_related("board__round__event", "board__first",
                                                 "board__second")
        game = rows.filter(Q(token_a=token) | Q(token_b=token)).first()
    if game is None:
        raise TokenRefused(_("This player link is not valid."))
    check_round_open(game.board.round, now or timezone.now())
    return game, ("A" if game.token_a == token else "B")


#: The sockets opened with one personal link (``link_group``): told when the link is reissued.
LINK = groups.Group("online.link", frozenset({"link.withdrawn"}),
                    "the seat sockets opened with one personal link")


def link_group(link: str) -> str:
    """The channel-layer group of the sockets opened with one personal link. Named by a hash
    of the link, so that the link itself never travels through the channel layer."""
    return LINK.name(hashlib.sha256(link.encode("utf-8")).hexdigest()[:48])


def check_link(game: OnlineGame, seat: str, link: str) -> None:
    """``TokenRefused`` unless ``link`` is still ``seat``'s link of ``game`` (as read from the
    database into ``game``) and its round's links still work."""
    if game.token(seat) != link:
        raise TokenRefused(_("This player link is not valid."))
    check_round_open(game.board.round, timezone.now())


@transaction.atomic
def reissue_seat_token(game: OnlineGame, seat: str) -> OnlineGame:
    """A new personal link for one seat; the old one stops working at once: every socket
    opened with it, on every worker, is told so and closed (``link_group``) when the change
    commits, and a socket's ``sync`` or move re-checks the link anyway."""
    game = OnlineGame.objects.select_for_update().get(pk=game.pk)
    old = game.token(seat)
    setattr(game, f"token_{seat.lower()}", secrets.token_urlsafe(18))
    game.save(update_fields=[f"token_{seat.lower()}", "updated_at"])
    transaction.on_commit(
        lambda: groups.broadcast([(link_group(old), {"type": "link.withdrawn"})]),
        robust=True)
    return game


# --- reading ----------------------------------------------------------------------------------

_TABLES_KEPT = 4096
_tables: OrderedDict[int, Table] = OrderedDict()


def _table(game: OnlineGame) -> Table:
    """The game's table after its stored moves.

    Replaying a game from its seed costs more than the rest of a move, so a worker process
    keeps the tables of the games it served last and plays only the moves it has not seen
    (another worker's socket made them). A kept table serves only when its moves are the
    start of the stored ones, and it is taken out while a move uses it and put back only when
    that move's transaction commits (``_keep``): a refused or rolled-back move never leaves a
    kept table ahead of the database."""
    kept = _tables.pop(game.pk, None)
    moves = game.moves
    if kept is not None and kept.deal.seed.hex() == game.seed \
            and moves[:len(kept.moves)] == kept.moves:
        for move in moves[len(kept.moves):]:
            kept.play(move)
        return kept
    return _replay(game)


def _replay(game: OnlineGame) -> Table:
    """The table replayed from the seed, with the record's tags as the board stands now."""
    board = game.board
    return Table.restore(parse_seed(game.seed), game.moves,
                         profile=board.round.event.rules_profile, tags=tags_for(board))


def _keep(game: OnlineGame, table: Table) -> None:
    """Keep ``table`` for the game's next move once the transaction commits."""
    def keep() -> None:
        _tables[game.pk] = table
        _tables.move_to_end(game.pk)
        while len(_tables) > _TABLES_KEPT:
            _tables.popitem(last=False)

    transaction.on_commit(keep)


def _views(game: OnlineGame, table: Table, clock: dict[str, Any]) -> dict[str | None, dict]:
    board = game.board
    info = {"board": board.pk, "board_number": board.number, "round": board.round.number,
            "players": {"A": board.first.name, "B": board.second.name},
            "record_id": game.record_id, "clock": clock,
            "appeared": no_show.appeared(game, table.moves),
            "claim_from_ms": no_show.claim_from_ms(clock, board.round.event.no_show_minutes)}
    views = {seat: {**v, **info} for seat, v in table.views().items()}
    if game.no_show:
        views = {seat: no_show.ended_view(v, game.no_show) for seat, v in views.items()}
    return views


def view(game: OnlineGame, seat: str | None, *, link: str | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees now: the position, its own rack, both clocks.
    Flags that fell due are shown applied (so a reconnect shows the game as it stands), but
    reading writes nothing: the next move, or the flag timer's announcement, stores them.
    ``link``: the personal link asking, checked first (``TokenRefused``: withdrawn)."""
    game = OnlineGame.objects.select_related(
        "board__round__event", "board__first", "board__second").get(pk=game.pk)
    if link is not None:
        check_link(game, seat, link)
    table = _table(game)
    _keep(game, table)
    clock = clock_services.snapshot(game.board)
    if game.record_id is None and _flag_seats(table, clock):
        table = _replay(game)  # shown with the flags; the kept table stays as stored
        _apply_flags(table, clock)
    return _views(game, table, clock)[seat]


# --- writing ----------------------------------------------------------------------------------


def _flag_seats(table: Table, clock: dict[str, Any]) -> list[str]:
    """The seats whose flag the clock shows and the game has not taken in yet."""
    return [seat for seat in SEATS if clock["flags"][seat] is not None and not table.over
            and not table.game.has_stopped(seat)]


def _apply_flags(table: Table, clock: dict[str, Any]) -> bool:
    """The clock's flags into the game (a flagged seat stops); True when any was new."""
    seats = _flag_seats(table, clock)
    for seat in seats:
        if not table.over:
            table.play({"seat": seat, "move": "flag"})
    return bool(seats)


def _save(game: OnlineGame, table: Table, held: clock_services.HeldClock, *,
          last_seat: str) -> dict:
    """Store the moves; at the end finish the clock and submit the record; publish views."""
    game.moves = table.moves
    if table.over and game.record_id is None:
        table = _replay(game)  # the record's tags as the board stands at the end
        resigned = [s for s in SEATS if table.game.snapshot().resigned[SEATS.index(s)]]
        if held.state.finished is None:
            kind = FinishKind.RESIGNED if resigned else FinishKind.COMPLETED
            held.finish(kind, who=f"online {last_seat}",
                        side=resigned[0] if resigned else None, reason=table.game.end)
        held.store()
        submission = game_services.submit_record(
            game.board, format_record(table.record()), via=game_services.ONLINE_VIA,
            label="online game")
        game.record = submission.record
    held.store()
    online_rows.save(game)
    views = _views(game, table, held.snapshot)
    held.publish(views=encoded_views(views))
    _keep(game, table)
    return views


def encoded_views(views: dict[str | None, dict]) -> dict[str, str]:
    """A move's views as the ``state`` messages the sockets send, encoded once, by seat
    (``watch``: the spectators'). They travel to every socket of the board in the one message
    that brings the clock (``clocks.services.publish``); each socket sends only its own seat's
    (``games.consumers``), so another seat's rack never leaves the server."""
    return {seat or "watch": json.dumps({"type": "state", "view": v})
            for seat, v in views.items()}


@transaction.atomic
def sync(game: OnlineGame) -> dict[str | None, dict]:
    """Bring the game up to its clock (flags that fell due) and return every view."""
    online_rows.lock(game)
    table = _table(game)
    held = clock_services.HeldClock(game.board)
    if game.record_id is None and _apply_flags(table, held.snapshot):
        return _save(game, table, held, last_seat="flag timer")
    held.store()
    held.publish()
    _keep(game, table)
    return _views(game, table, held.snapshot)


def _think_ms(data: dict) -> tuple[dict, int | None]:
    """The move without ``think_ms``, and that: the client's own measure of its turn, whose
    difference with the server's (network lag) is credited within bounds (docs/clock.md)."""
    if "think_ms" not in data:
        return data, None
    think = data["think_ms"]
    if type(think) is not int or not 0 <= think <= 86_400_000:
        raise OnlineRefused(_("'think_ms' must be a whole number between 0 and 86400000."))
    return {k: v for k, v in data.items() if k != "think_ms"}, think


@transaction.atomic
def play(game: OnlineGame, seat: str, data: Any, *, link: str | None = None) -> Played:
    """Apply one move sent by ``seat`` (see the module docstring).

    ``link``: the personal link the move came through; it is checked on the locked row
    (``TokenRefused`` when it was withdrawn or its round closed since the socket connected),
    so a move costs no second look-up of the link."""
    if not isinstance(data, dict):
        raise OnlineRefused(_("A move must be a JSON object."))
    if data.get("seat", seat) != seat:
        raise OnlineRefused(_("This link plays seat %(seat)s.") % {"seat": seat})
    if data.get("move") == "flag" or "clock" in data:
        raise OnlineRefused(_("Time is the server's: the clock says when a flag falls."))
    data, think = _think_ms(data)
    online_rows.lock(game)
    if link is not None:
        check_link(game, seat, link)
    if game.record_id is not None or game.no_show:
        raise OnlineRefused(_("The game is over."))
    table = _table(game)
    held = clock_services.HeldClock(game.board)
    clock = held.snapshot
    flagged = _apply_flags(table, clock)
    refusal = _clock_refusal(clock) if not table.over else None
    step = None
    if refusal is None:
        try:
            step = table.play({**data, "seat": seat})
        except MoveRefused as error:
            refusal = move_refusal_text(error)
    if refusal is not None:  # nothing changes but the flags, which stand
        if flagged:
            return Played(_save(game, table, held, last_seat=seat)[seat], refusal)
        held.store()
        held.publish()
        _keep(game, table)
        return Played(_views(game, table, clock)[seat], refusal)
    if table.over and table.moves[-1]["move"] == "place":
        # the game's last placement: no press (the clock finishes with the game), but the
        # record keeps this turn's time as it keeps every other's
        seconds = held.state.remaining_ms(seat, held.now) // 1000
        table.moves[-1]["clock"] = seconds
        table.note_clock(seat, seconds)
    elif step.ends_turn and not table.over:
        measured = None if think is None else clock_services.Measured(
            think, cap_ms=clock_services.ONLINE_LAG_CAP_MS)
        outcome = held.press(seat, clock["press_number"], who=f"online {seat}",
                             measured=measured)
        if outcome.ignored is not None:  # the clock will not take the turn: the move does not stand
            table = _replay(game)
            _apply_flags(table, held.snapshot)
            return Played(_save(game, table, held, last_seat=seat)[seat],
                          clock_services.ignored_message(outcome.ignored))
        table.moves[-1]["clock"] = outcome.press.remaining_ms // 1000
        table.note_clock(seat, outcome.press.remaining_ms // 1000)
        if table.to_act == seat and not table.game.has_stopped(no_show.other(seat)):
            # the opponent holds no tiles (the bag ran out) and passes: the turn comes back
            held.correct(seat, who=f"online {seat}",
                         reason=_("seat %(seat)s holds no tiles and passes")
                         % {"seat": no_show.other(seat)})
    return Played(_save(game, table, held, last_seat=seat)[seat])


def arbiter_command(board: Board, content: dict[str, Any], run) -> Any:
    """An arbiter's clock command on an online game's board (``clocks.access`` owner), or None
    for a board without one.

    The game row is locked first, as a move locks it (then the clock), so that a command and a
    move wait for each other instead of deadlocking. After the command the game follows the
    clock (``_follow_clock``) in the same transaction, or the command is refused and nothing
    changes."""
    game = OnlineGame.objects.select_related(
        "board__round__event", "board__first", "board__second").filter(board_id=board.pk).first()
    if game is None:
        return None
    with transaction.atomic():
        online_rows.lock(game)
        outcome = run()
        if game.record_id is None and outcome.changed:
            _follow_clock(game)
    return outcome


def _follow_clock(game: OnlineGame) -> None:
    """Take an arbiter's clock change into the game: a flag the arbiter took back (time added
    to a flagged seat) is withdrawn, if it is the game's last move; the clock's turn must be the
    seat the moves give. Anything else is refused (``ClockRefused``, the transaction rolls
    back): the result of a game the arbiter wants otherwise is corrected by hand."""
    table = _table(game)
    held = clock_services.HeldClock(game.board)
    clock = held.snapshot
    changed = False
    for seat in SEATS:
        if clock["flags"][seat] is None and {"seat": seat, "move": "flag"} in table.moves:
            if table.moves[-1] != {"seat": seat, "move": "flag"}:
                raise clock_services.ClockRefused(
                    _("Seat %(seat)s's flag has been followed by moves in this online game: it "
                      "can no longer be taken back. Correct the result by hand if need be.")
                    % {"seat": seat})
            game.moves = table.moves[:-1]
            table, changed = _replay(game), True
    changed = _apply_flags(table, clock) or changed
    if not table.over and clock["turn"] != table.to_act:
        raise clock_services.ClockRefused(
            _("In this online game seat %(seat)s is to move: the clock's turn must be "
              "%(seat)s.") % {"seat": table.to_act})
    if changed:  # otherwise the clock's own snapshot tells the sockets all there is
        _save(game, table, held, last_seat="arbiter")
    else:
        _keep(game, table)


# --- a player who never came (games.online.no_show) -------------------------------------------


def appear(game_id: int, seat: str) -> tuple[str, dict[str, Any]] | None:
    """The player of ``seat`` has another page of the event open and connected (My games, the
    event page, the end screen of their last game) as the game is dealt or started: the server
    has seen them, as if they had opened the seat (``note_seen``, whose message it returns)."""
    game = OnlineGame.objects.select_related("board__round__event", "board__first",
                                             "board__second").filter(pk=game_id).first()
    if game is None or game.seen(seat) is not None or game.record_id is not None:
        return None
    return note_seen(game, seat)


def note_seen(game: OnlineGame, seat: str) -> tuple[str, dict[str, Any]] | None:
    """``seat``'s link opened a socket: the seat has appeared. Only the first time is kept;
    then the board group's message that tells every socket (the opponent's page stops offering
    a claim) is returned, and the caller sends it once committed, before its own socket joins
    the group: that socket gets its first view anyway (on Redis's pub/sub layer, which delivers
    by the members at arrival, it may get this one too: the same view, which changes nothing).
    None when the seat had appeared already."""
    if game.seen(seat) is not None:  # as just read with the link: a reconnection costs nothing
        return None
    field = "seen_a" if seat == "A" else "seen_b"
    with transaction.atomic():
        if not OnlineGame.objects.filter(pk=game.pk, **{f"{field}__isnull": True}).update(
                **{field: timezone.now()}):
            return None
        game = OnlineGame.objects.select_related(
            "board__round__event", "board__first", "board__second").get(pk=game.pk)
        table = _table(game)
        _keep(game, table)
        clock = clock_services.snapshot(game.board)
        views = _views(game, table, clock)
    return groups.BOARD.name(game.board.pk), {
        "type": "clock.snapshot", "version": clock["version"],
        "json": clock_services.snapshot_json(clock), "views": encoded_views(views)}


@transaction.atomic
def claim_no_show(game: OnlineGame, *, seat: str | None, link: str | None = None,
                  user=None, by: str = "") -> dict[str | None, dict]:
    """Record that the opponent of ``seat`` (``seat`` None: the arbiter, for every seat that
    has not appeared) never came: after the event's waiting time from the start of the clocks,
    a forfeit with the reason (both absent: a double forfeit), the clock finished, the game over
    without a record. Refused with the reason (``OnlineRefused``) otherwise; nothing changes.
    ``by`` names who records it for the arbiter (a self-running event's automation)."""
    online_rows.lock(game)
    if link is not None:
        check_link(game, seat, link)
    game.seen_a, game.seen_b = (OnlineGame.objects.filter(pk=game.pk)
                                .values_list("seen_a", "seen_b").get())
    board = game.board
    event = board.round.event
    names = {"A": board.first.name, "B": board.second.name}
    table = _table(game)
    held = clock_services.HeldClock(board)
    clock = held.snapshot
    missing = no_show.absent(game, table.moves)
    why = no_show.refusal(game, clock, missing, seat, event.no_show_minutes, names)
    if why is None and (table.over or _flag_seats(table, clock)):
        why = _("The game is over.") if table.over else _(
            "A flag has fallen: the clock decides this game.")
    if why is None and event_services.current_result(board) is not None:
        why = _("This board already has a result.")
    if why is not None:
        _keep(game, table)
        raise OnlineRefused(why)
    losers = [no_show.other(seat)] if seat is not None else missing
    reason = no_show.reason(losers, names, event.no_show_minutes, seat)
    if len(losers) == 2:
        event_services.record_result(board, Result.Kind.DOUBLE_FORFEIT, user=user,
                                     source=Result.Source.ARBITER, reason=reason,
                                     entered_by_label=by)
    else:
        event_services.record_result(
            board, Result.Kind.FORFEIT, user=user, source=Result.Source.ARBITER, reason=reason,
            loser_seat="first" if losers == ["A"] else "second",
            entered_by_label=by if seat is None else names[seat])
    held.finish(FinishKind.ARBITER, who=(by or "arbiter") if seat is None else f"online {seat}",
                reason=reason)
    held.store()
    game.no_show = "".join(losers)
    OnlineGame.objects.filter(pk=game.pk).update(no_show=game.no_show)
    views = _views(game, table, held.snapshot)
    held.publish(views=encoded_views(views))
    _keep(game, table)
    return views


def _clock_refusal(clock: dict[str, Any]) -> str | None:
    if clock["status"] == "not_started":
        return _("The game has not started yet: the arbiter starts the clocks.")
    if clock["paused"]:
        return _("The clock is paused.")
    if clock["finished"] is not None:
        return _("The clock is finished.")
    return None


def start_round(round_: Round, *, who: str, user=None) -> int:
    """Start the clocks of an online round (every game starts at the same millisecond)."""
    if not is_online(round_):
        raise OnlineRefused(_("This round is not played online."))
    for board in boards_to_play(round_):
        game_for(board)
    news.changed(round_.event_id)
    return clock_services.start_round(round_, who=who, user=user)
