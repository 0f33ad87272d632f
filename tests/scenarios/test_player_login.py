"""Scenario 7: a player's login through the pages (issue #15).

The arbiter invites Ben, who sets up a login from the invitation and logs in; "My games" shows
his board. The round goes online: his page shows his seat's personal link, which opens his
seat. The round is paired again and then edited by hand: the page follows, each time with the
new link. The arbiter withdraws the login and the page says so. At the next event the same
login takes Ben's new invitation. Through all of it the account is refused every arbiter page.
"""

import json
import re

from django.urls import reverse

from tests.scenarios import checks
from tests.scenarios.story import Account, EventStory

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]
PASSWORD = "tiles-and-stars-77"


def seat_opened(visitor, link: str) -> tuple[str, str]:
    """The seat a personal link opens and the name the game gives that seat."""
    html = visitor.get(link).content.decode()
    view = json.loads(re.search(r'<script id="online-initial" type="application/json">(.*?)'
                                r"</script>", html, re.S).group(1))
    return view["seat"], view["players"][view["seat"]]


def where(story, number: int, name: str) -> str:
    """How the arbiter's round page places ``name``, in the words of "My games"."""
    board = story.arbiter.board_of(number, name)
    opponent, plays = ((board.second, "first") if board.first == name else
                       (board.first, "second"))
    return f"Round {number}: board {board.number}, against {opponent}, you play {plays}"


def refused_everything_an_arbiter_does(account: Account, story: EventStory) -> None:
    for name in ("arbiter_dashboard", "arbiter_players", "arbiter_settings", "arbiter_export"):
        assert account.get(story.arbiter.url(name)).status_code == 403, name
    assert account.get(story.arbiter.url("online_round", 1)).status_code == 403
    assert account.get(reverse("event_create")).status_code == 403
    assert account.client.post(story.arbiter.url("arbiter_round_pair")).status_code == 403


def test_a_players_login_follows_the_round_and_outlives_the_event(story, arbiter_user):
    arbiter = story.arbiter
    arbiter.creates_event("Spring Online", format="Swiss", rounds_planned=3)
    arbiter.enters_players(*PLAYERS)
    arbiter.publishes_round(arbiter.pairs_next_round())
    slug = story.slug

    link = arbiter.invites("Ben")
    ben = story.account("ben")
    ben.accepts_invitation(link, "ben.k", PASSWORD)
    ben.logs_out()
    assert ben.get(reverse("my_games")).status_code == 302  # to the login page
    ben.logs_in("ben.k", PASSWORD)
    seats, notices = ben.my_games()
    assert where(story, 1, "Ben") in seats[slug].text and notices == []
    assert seats[slug].personal_link is None  # not an online round
    assert seats[slug].board_page == reverse("board_page",
                                             args=[arbiter.scoresheet_token(1, "Ben")])
    assert ben.get(link).status_code == 410  # used up
    refused_everything_an_arbiter_does(ben, story)

    # The round goes online: Ben's page gives his own seat's link, and only his.
    arbiter.plays_round_online(1)
    personal = ben.my_games()[0][slug].personal_link
    assert seat_opened(ben, personal)[1] == "Ben"
    mine = ben.get(reverse("my_games")).content.decode()
    assert set(re.findall(r"/p/[^/]+/", mine)) == {personal}  # not the opponent's link

    # Paired again: the new board has no game until the arbiter deals it, then a new link.
    arbiter.repairs_round(1, "a name was misspelt on the draw", confirm=True)
    seats, _notices = ben.my_games()
    assert where(story, 1, "Ben") in seats[slug].text and seats[slug].personal_link is None
    assert ben.get(personal).status_code == 403  # the old game went with its board
    arbiter.plays_round_online(1)
    repaired = ben.my_games()[0][slug].personal_link
    assert repaired not in (None, personal) and seat_opened(ben, repaired)[1] == "Ben"

    # Moved to the other board by hand: the page follows.
    old = arbiter.board_of(1, "Ben")
    other = next(b for b in arbiter.boards(1) if not b.has("Ben"))
    partner = old.second if old.first == "Ben" else old.first
    arbiter.edits_pairing(1, other.number, other.first, "Ben", "club mates apart", confirm=True)
    arbiter.edits_pairing(1, old.number, partner, other.second, "club mates apart",
                          confirm=True)
    arbiter.plays_round_online(1)
    seats, _notices = ben.my_games()
    assert f"board {other.number}, against {other.first}, you play second" in seats[slug].text
    assert seat_opened(ben, seats[slug].personal_link) == ("B", "Ben")

    # The arbiter withdraws the login: the page says so, and shows the event no more.
    arbiter.withdraws_login("Ben")
    seats, notices = ben.my_games()
    assert slug not in seats
    assert notices == ["Your login for Spring Online (Ben) was withdrawn by the arbiter."]

    # The next event: Ben logs in on the new invitation with the login he has.
    summer = EventStory(arbiter_user, checks=checks.ALWAYS)
    summer.arbiter.creates_event("Summer Online", format="Swiss", rounds_planned=3)
    summer.arbiter.enters_players(*PLAYERS)
    ben.logs_out()
    ben_in_summer = Account(summer, ben.client)
    ben_in_summer.logs_in_to_accept(summer.arbiter.invites("Ben"), "ben.k", PASSWORD)
    seats, notices = ben_in_summer.my_games()
    assert list(seats) == [summer.slug] and "no round paired yet" in seats[summer.slug].text
    assert notices == ["Your login for Spring Online (Ben) was withdrawn by the arbiter."]
    summer.arbiter.publishes_round(summer.arbiter.pairs_next_round())
    assert where(summer, 1, "Ben") in ben_in_summer.my_games()[0][summer.slug].text
    refused_everything_an_arbiter_does(ben_in_summer, summer)
