"""What the games app tells the event app: which boards hold game records or live entries
(see ``tournament.boards.board_attachments``), which results came from a record (see
``tournament.boards.links.result_sources``), which boards have a spectators' page
(``tournament.boards.links.board_pages``) and where a player plays their online game
(``tournament.boards.links.personal_links``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import GameRecord, LiveGame, OnlineGame, ResultRecord
from tournament.boards.board_attachments import Attachment
from tournament.boards.links import Link
from tournament.boards.tokens import TokenRefused, check_round_open


def records_and_live_entries(board_ids: list[int]) -> Iterable[Attachment]:
    for record in GameRecord.objects.filter(board_id__in=board_ids):
        yield Attachment(record.board_id, "record", _("a stored game record"), {
            "text": record.text, "submitted_via": record.submitted_via,
            "submitted_at": record.submitted_at.isoformat(),
        })
    for live in LiveGame.objects.filter(board_id__in=board_ids):
        if not live.actions:
            continue
        yield Attachment(live.board_id, "live", _("live scoresheet entries"), {
            "actions": live.actions, "version": live.version, "confirmed": live.confirmed,
        })
    for game in OnlineGame.objects.filter(board_id__in=board_ids):
        yield Attachment(game.board_id, "online", _("an online game"), {
            "moves": game.moves, "commitment": game.commitment,  # the seed stays secret
        })


def record_origins(result_ids: list[int]) -> dict[int, Link]:
    """The game viewer of the record each of these results was derived from."""
    links = ResultRecord.objects.filter(result_id__in=result_ids).values_list(
        "result_id", "record_id")
    return {result: Link(_("record"), reverse("game_viewer", args=[record]))
            for result, record in links}


def online_watch_pages(board_ids: list[int]) -> dict[int, Link]:
    """The spectators' page of each of these boards that is played online."""
    games = OnlineGame.objects.filter(board_id__in=board_ids).values_list(
        "board_id", "board__round__event__slug", "board__round__number", "board__number")
    return {board: Link(_("watch"), reverse("online_watch", args=[slug, number, board_number]))
            for board, slug, number, board_number in games}


def online_seat_links(keys: list[tuple[int, int]]) -> dict[tuple[int, int], Link]:
    """The personal link of each asked (board, player) seat of an online game, while its round's
    links work (``check_round_open``, the rule of ``games.online.play.seat_for_token``). Only the
    asked player's seat: the other seat's link is that player's secret."""
    asked = set(keys)
    games = OnlineGame.objects.filter(board_id__in={board for board, _player in asked}) \
        .select_related("board__round__event")
    now = timezone.now()
    found = {}
    for game in games:
        board = game.board
        try:
            check_round_open(board.round, now)
        except TokenRefused:
            continue
        for seat, player in (("A", board.first_id), ("B", board.second_id)):
            if (board.pk, player) in asked:
                found[board.pk, player] = Link(_("Play your game"),
                                               reverse("online_play", args=[game.token(seat)]))
    return found
