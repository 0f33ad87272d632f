"""An online move's two statements on its game row (lock and read, save) in plain SQL.

Every move locks the game row and reads what may have changed since the socket connected (the
moves, the record, the links, a no-show, when each seat appeared, the round's status, the
board's number and the players' names), then writes the moves back. Built with the ORM these
two queries (four joins, five model instances) cost more of a worker's database thread than the
rest of the move; like the clock's press (``clocks/rows.py``) they are built once per database
vendor from the models' metadata and run through Django's cursor, on the same connection and
transaction.

Only the game row is locked (``FOR UPDATE OF``): locking the joined board, round and players
too would make every move of a round wait for the others.
"""

from __future__ import annotations

import datetime
import json
from functools import cache

from django.db import connection
from django.utils.dateparse import parse_datetime

from games.models import OnlineGame
from tournament.models import Board, Player, Round

_SAVED = ("moves", "record", "updated_at")


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(alias: str, model, field: str) -> str:
    return f"{alias}.{_q(model._meta.get_field(field).column)}"


@cache
def _lock_sql(vendor: str, for_update_of: bool) -> str:
    def table(model, alias: str) -> str:
        return f"{_q(model._meta.db_table)} {alias}"

    game = [_column("g", OnlineGame, f)
            for f in ("moves", "record", "token_a", "token_b", "no_show", "seen_a", "seen_b")]
    columns = [*game, _column("b", Board, "number"), _column("r", Round, "status"),
               _column("f", Player, "name"), _column("s", Player, "name")]
    sql = (f"SELECT {', '.join(columns)} FROM {table(OnlineGame, 'g')}"
           f" JOIN {table(Board, 'b')} ON {_column('b', Board, 'id')} = "
           f"{_column('g', OnlineGame, 'board')}"
           f" JOIN {table(Round, 'r')} ON {_column('r', Round, 'id')} = "
           f"{_column('b', Board, 'round')}"
           f" JOIN {table(Player, 'f')} ON {_column('f', Player, 'id')} = "
           f"{_column('b', Board, 'first')}"
           f" JOIN {table(Player, 's')} ON {_column('s', Player, 'id')} = "
           f"{_column('b', Board, 'second')}"
           f" WHERE {_column('g', OnlineGame, 'id')} = %s")
    return sql + (" FOR UPDATE OF g" if for_update_of else "")


@cache
def _save_sql(vendor: str) -> str:
    columns = ", ".join(f"{_q(OnlineGame._meta.get_field(f).column)} = %s" for f in _SAVED)
    return f"UPDATE {_q(OnlineGame._meta.db_table)} SET {columns} WHERE {_q('id')} = %s"


def lock(game: OnlineGame) -> None:
    """Lock ``game``'s row until the transaction ends and refresh it in place, with the parts
    of its board that a move reads (``game.board``, its round and players, as loaded with
    ``select_related`` when the socket connected). A round whose status changed is loaded
    again whole: closing it brings the closing time and the links' grace period into play.
    On SQLite the immediate transaction already holds the database's write lock."""
    sql = _lock_sql(connection.vendor, connection.features.has_select_for_update_of)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        row = cursor.fetchone()
    if row is None:
        raise OnlineGame.DoesNotExist(f"online game {game.pk} is gone")
    (moves, game.record_id, game.token_a, game.token_b, game.no_show, seen_a, seen_b, number,
     status, first, second) = row
    game.moves = json.loads(moves) if isinstance(moves, str) else moves
    # when each seat appeared: the other seat may have appeared since this socket connected,
    # and every view the move sends says so (the claim box goes)
    game.seen_a, game.seen_b = _moment(seen_a), _moment(seen_b)
    board = game.board
    board.number, board.first.name, board.second.name = number, first, second
    if status != board.round.status:
        board.round = Round.objects.select_related("event").get(pk=board.round_id)


def _moment(value) -> datetime.datetime | None:
    """A datetime column as the raw cursor gives it (SQLite: text in UTC), as the ORM would."""
    if isinstance(value, str):
        moment = parse_datetime(value)
        return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=datetime.UTC)
    return value


def save(game: OnlineGame) -> None:
    """Write the game's moves and record link (``updated_at`` is set to now)."""
    fields = [OnlineGame._meta.get_field(f) for f in _SAVED]
    params = [f.get_db_prep_save(f.pre_save(game, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_save_sql(connection.vendor), [*params, game.pk])
