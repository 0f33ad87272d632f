"""What the games app tells the event app: which boards hold game records or live entries
(see ``tournament.board_attachments``) and which results came from a record (see
``tournament.result_origins``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import GameRecord, LiveGame, OnlineGame, ResultRecord
from tournament.board_attachments import Attachment
from tournament.result_origins import Origin


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


def record_origins(result_ids: list[int]) -> dict[int, Origin]:
    """The game viewer of the record each of these results was derived from."""
    links = ResultRecord.objects.filter(result_id__in=result_ids).values_list(
        "result_id", "record_id")
    return {result: Origin(_("record"), reverse("game_viewer", args=[record]))
            for result, record in links}
