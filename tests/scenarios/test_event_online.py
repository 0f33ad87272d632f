"""Scenario 8 (#15): a whole event played online, through the pages.

The arbiter turns the event online from round 1's online page before publishing it: round 1
is dealt at once. Once published, the public pairings page shows every player's personal link
to the arbiter, beside the name, and to nobody else. A slip typed for an online board is
refused (issue #21: only the game decides); the arbiter starts the clocks and each game ends
by a resignation through the online game's service (its sockets and pages are tested in
tests/online), its record becoming the result. Round 2, paired and published, goes online by
itself, its online page listing its links. Every step is checked on every page and PDF.
"""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import OnlineGame
from games.online import play as online
from tests.scenarios.story import Refused

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"]


def personal_links(page: str) -> list[str]:
    return re.findall(r'class="seat-link" href="(?:https?://[^/"]+)?(/p/[^/"]+/)"', page)


def test_an_event_played_online_round_after_round(story):
    arbiter = story.arbiter
    arbiter.creates_event("Online Open", format="Swiss", rounds_planned=3)
    arbiter.enters_players(*PLAYERS)
    first = arbiter.pairs_next_round()
    arbiter.plays_every_round_online(first)
    online_page = arbiter.get(arbiter.url("online_round", first)).content.decode()
    assert "Play later rounds over the board" in online_page
    assert len(personal_links(online_page)) == len(PLAYERS)  # dealt before publication
    arbiter.publishes_round(first)

    pairings = reverse("event_pairings", args=[story.slug])
    shown = arbiter.get(pairings, round=str(first)).content.decode()
    assert sorted(personal_links(shown)) == sorted(personal_links(online_page))
    public = Client().get(pairings, {"round": str(first)}).content.decode()
    assert personal_links(public) == [] and "/p/" not in public
    assert "/p/" not in arbiter.get(pairings, round=str(first), _export="csv").content.decode()

    with pytest.raises(Refused, match="Board 1 is played online"):
        arbiter.enters_round_results(first, random.Random(8))
    arbiter.starts_online_clocks(first)
    for game in OnlineGame.objects.filter(board__round__event__slug=story.slug,
                                          board__round__number=first):
        assert online.play(game, "B", {"move": "resign"}).error is None
    assert all(row.result for row in arbiter.boards(first) if not row.is_bye)
    arbiter.closes_round(first)
    second = arbiter.pairs_next_round()
    arbiter.publishes_round(second)  # goes online as it is published
    online_page = arbiter.get(arbiter.url("online_round", second)).content.decode()
    assert len(personal_links(online_page)) == len(PLAYERS)
    shown = arbiter.get(pairings, round=str(second)).content.decode()
    assert sorted(personal_links(shown)) == sorted(personal_links(online_page))
