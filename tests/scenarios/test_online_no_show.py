"""Scenario (#38, item 11): an online round robin in which players do not come.

The arbiter runs the event online through the pages and starts the clocks. In round 1 one
player never opens the game: his opponent's page offers the claim only after the event's
waiting time (a claim before it is refused, and nothing changes), then the win is recorded as
a forfeit with the reason. In round 2 nobody comes to board 1: the arbiter records the double
forfeit from the round's online page. The other games are played (a resignation). After every
step the story's checks open every page, download and PDF, and the standings' VP, the pairing's
points and the TRF agree; at the end the TRF codes the forfeits as forfeits, and the standings
and crosstable count them.

The players' sockets are the online games' own (tests/online): here the server's record that a
seat opened its game (``note_seen``, what a socket's opening does) and a claim sent through the
socket (``claim_no_show``, what ``{"type": "claim"}`` does) stand in for them, as the online
event story plays its moves through the game's service.
"""

import json
import re

import pytest

from games.models import OnlineGame
from games.online import play as online
from tests.scenarios import checks

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]
MINUTE = 60_000


def _games(story, number: int) -> list[OnlineGame]:
    return list(OnlineGame.objects.filter(board__round__event__slug=story.slug,
                                          board__round__number=number)
                .select_related("board__first", "board__second").order_by("board__number"))


def _seat_view(story, game: OnlineGame, seat: str) -> dict:
    """The seat's page as its player opens it (the view it renders before the socket)."""
    page = story.public.get(f"/p/{game.token(seat)}/").content.decode()
    found = re.search(r'<script id="online-initial" type="application/json">(.*?)</script>',
                      page, re.S)
    return json.loads(found.group(1))


def _trf_round(story, name: str, number: int) -> str:
    """The player's result code of round ``number`` in the TRF download."""
    trf = story.arbiter.get(story.arbiter.url("arbiter_export_trf")).content.decode()
    line = next(line for line in trf.splitlines()
                if line.startswith("001") and name in line[14:48])
    return line[91 + 10 * (number - 1) + 7]  # columns 92-99 of round 1: opponent, colour, result


def test_players_who_never_come_lose_by_forfeit_claimed_or_recorded(story, clock_time):
    arbiter = story.arbiter
    arbiter.creates_event("No-Show Cup", format="round robin")
    arbiter.enters_players(*PLAYERS)
    first = arbiter.pairs_next_round()
    arbiter.plays_every_round_online(first)
    arbiter.publishes_round(first)
    arbiter.starts_online_clocks(first)

    played, waiting = _games(story, first)
    for seat in ("A", "B"):
        online.note_seen(played, seat)
    assert online.play(played, "B", {"move": "resign"}).error is None
    present, absent = waiting.board.first.name, waiting.board.second.name
    online.note_seen(waiting, "A")
    view = _seat_view(story, waiting, "A")
    assert view["appeared"] == {"A": True, "B": False} and view["claim_from_ms"]
    with pytest.raises(online.OnlineRefused, match="is not over: 5:00 to go"):
        online.claim_no_show(waiting, seat="A", link=waiting.token_a)
    page = arbiter.get(arbiter.url("online_round", first)).content.decode()
    assert f"Not appeared yet: {absent}." in page and "Record the no-show" not in page
    story.checked("a claim before the waiting time")
    assert not arbiter.board(first, waiting.board.number).result

    clock_time.advance(5 * MINUTE)
    online.claim_no_show(waiting, seat="A", link=waiting.token_a)
    story.checked(f"{present} claims the win")
    assert _seat_view(story, waiting, "B")["end_code"] == "end_no_show"
    page = arbiter.get(arbiter.url("online_round", first)).content.decode()
    assert "Over: a forfeit for not appearing is recorded." in page
    row = arbiter.board(first, waiting.board.number)
    assert row.result, row
    result = checks.results_of(story, present, first)[0]
    assert result.kind == "forfeit" and f"claimed by {present}" in result.reason
    assert checks.vp_of(result, present) == 1 and checks.vp_of(result, absent) == 0
    arbiter.closes_round(first)
    assert (_trf_round(story, present, first), _trf_round(story, absent, first)) == ("+", "-")

    second = arbiter.pairs_next_round()
    arbiter.publishes_round(second)  # online by itself: the event plays every round online
    arbiter.starts_online_clocks(second)
    nobody, played = _games(story, second)
    for seat in ("A", "B"):
        online.note_seen(played, seat)
    assert online.play(played, "A", {"move": "resign"}).error is None
    clock_time.advance(5 * MINUTE)
    url = arbiter.url("online_round", second)
    arbiter.submit(url, {"board": str(nobody.board.number)},
                   action=arbiter.url("online_round_action", second, "no_show"))
    story.checked("the arbiter records a double no-show")
    both = [nobody.board.first.name, nobody.board.second.name]
    for name in both:
        result = checks.results_of(story, name, second)[0]
        assert result.kind == "double_forfeit" and checks.vp_of(result, name) == 0
        assert "did not appear within 5 minutes" in result.reason
    arbiter.closes_round(second)
    assert [_trf_round(story, name, second) for name in both] == ["-", "-"]
    standings = {row["Name"]: row for row in checks.standings_csv(story)}
    assert standings[present]["VP"] != standings[absent]["VP"]
