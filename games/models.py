"""Game records as submitted for a board, kept with the engine's verdict."""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.db import models


class GameRecord(models.Model):
    """A verified game record (text form, canonical) for a board of the event.

    Records are stored only after the engine verified them; ``digest`` makes a re-submission
    of the same record a no-op.
    """

    board = models.ForeignKey(
        "tournament.Board", on_delete=models.CASCADE, related_name="game_records"
    )
    text = models.TextField()
    digest = models.CharField(max_length=64)
    summary = models.JSONField(default=dict)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    submitted_via = models.CharField(max_length=20, default="arbiter")
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "submitted_at"]
        constraints = [
            models.UniqueConstraint(fields=["board", "digest"], name="unique_record_per_board")
        ]

    def __str__(self) -> str:
        return f"record for {self.board}"


class ResultRecord(models.Model):
    """The game record a result version was derived from.

    The link lives here, beside the records, and points down at the event app's result: the
    event app stores results without knowing that records exist (it asks
    ``tournament.boards.links.result_sources`` when it shows one). Several versions may share a
    record (a
    conflict accepted later becomes a new version of the same record); a record that a result
    stands on cannot be deleted by itself.
    """

    result = models.OneToOneField(
        "tournament.Result", on_delete=models.CASCADE, related_name="record_link"
    )
    record = models.ForeignKey(GameRecord, on_delete=models.RESTRICT, related_name="result_links")

    def __str__(self) -> str:
        return f"{self.result} from {self.record}"


class LiveGame(models.Model):
    """The move log being entered at a board, one action at a time (the live scoresheet).

    ``actions`` are in the engine's JSON action form; the state is always the engine's replay
    of them, so a reload or a second device sees exactly the same game. ``version`` counts
    accepted entries: a device that sends an entry based on an older version is refused, so two
    devices entering at once cannot interleave.
    """

    board = models.OneToOneField("tournament.Board", on_delete=models.CASCADE, related_name="live")
    actions = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    confirmed = models.JSONField(default=dict)
    record = models.ForeignKey(GameRecord, on_delete=models.SET_NULL, null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"live game of {self.board}"


def new_seat_token() -> str:
    """A secret for one player's personal link: unguessable, short enough for a URL."""
    return secrets.token_urlsafe(18)


#: What a personal link may look like when it comes from elsewhere (a backup file): the
#: characters of :func:`new_seat_token`, as long as ``games.online.play.seat_for_token`` looks up
#: (10 to 32), so that the link is one segment of the seat's address and opens its seat.
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{10,32}")


class OnlineEvent(models.Model):
    """An event whose rounds are played online: each round goes online when it is published
    (``games.online.play.round_published``), unless the arbiter dealt it earlier or it began over
    the board. Rounds online already stay online when the switch is turned off."""

    event = models.OneToOneField("tournament.Event", on_delete=models.CASCADE,
                                 related_name="online_play")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="+")
    marked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"online play of {self.event}"


class OnlineRound(models.Model):
    """A round the arbiter runs online: its boards are played on the server."""

    round = models.OneToOneField("tournament.Round", on_delete=models.CASCADE,
                                 related_name="online")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True)
    marked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"online {self.round}"


class OnlineGame(models.Model):
    """The dealt game of one board of an online round (games.dealt is its core).

    ``seed`` is the server's secret until the game ends; ``commitment`` is shown from the
    start. ``moves`` are the accepted moves in order (the table is their replay from the
    seed), so the row is the whole truth; it is locked for every move. ``token_a`` and
    ``token_b`` are the two players' personal links (a rack is private to one seat, so the
    board's shared token does not open it).
    """

    board = models.OneToOneField("tournament.Board", on_delete=models.CASCADE,
                                 related_name="online_game")
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    moves = models.JSONField(default=list)
    token_a = models.CharField(max_length=32, unique=True, default=new_seat_token)
    token_b = models.CharField(max_length=32, unique=True, default=new_seat_token)
    record = models.ForeignKey(GameRecord, on_delete=models.SET_NULL, null=True, blank=True)
    # When each seat's link first opened its socket, as the server saw it: a player who did
    # so has appeared, and is never a no-show (``games.online.no_show``).
    seen_a = models.DateTimeField(null=True, blank=True)
    seen_b = models.DateTimeField(null=True, blank=True)
    # The seats that lost by forfeit for not appearing ("", "A", "B" or "AB"): the game is
    # over without a record, and takes no move.
    no_show = models.CharField(max_length=2, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"online game of {self.board}"

    def seen(self, seat: str):
        return {"A": self.seen_a, "B": self.seen_b}[seat]

    def token(self, seat: str) -> str:
        return {"A": self.token_a, "B": self.token_b}[seat]
