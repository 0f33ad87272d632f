"""Tells the event app which boards hold game records or live entries (see board_attachments)."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from games.models import GameRecord, LiveGame, OnlineGame
from tournament.board_attachments import Attachment


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
