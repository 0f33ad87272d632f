"""Scenario 5: an arbiter who overrides the defaults, and what the product keeps for them.

Eight players, but the arbiter forces a Swiss over three rounds, with pairing numbers drawn
by lot: the dashboard warns before round 1, the lot's seed is shown and the numbers can be
drawn again from it. Play starts on board 1 (live scoresheet entries) before the arbiter
notices a mistake and pairs the round again: the product asks first, and the history keeps
what the re-pairing removed. Later the arbiter adds a round, which needs a reason.
"""

import random

import pytest

from games.engine import random_game
from tests.scenarios.story import Refused
from tournament.models import HistoryEntry
from tournament.pairing import Entrant, pairing_order

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo"]

pytestmark = pytest.mark.long_story


def a_first_move(seed: int) -> dict:
    """The first placement of some legal game, as the board page sends it."""
    placement = random_game(random.Random(seed)).record.actions[0].placement
    text = (f"{placement.first}{placement.first_colour}-"
            f"{placement.second}{placement.second_colour}")
    return {"seat": "A", "action": "place", "placement": text}


def test_a_forced_small_swiss_by_lot_warns_asks_before_removing_play_and_keeps_a_history(
        story):
    arbiter = story.arbiter
    arbiter.creates_event("Club Night", format="Swiss", rounds_planned=3, pairing_order="lot")
    arbiter.enters_players(*NAMES)
    dashboard = arbiter.get(arbiter.url("arbiter_dashboard")).content.decode()
    assert "may run out of legal pairings" in dashboard
    entered = list(story.model().players.order_by("seed"))

    r1 = arbiter.pairs_next_round()
    event = story.model()
    assert (event.pairing_system, event.rounds_planned) == ("swiss", 3)
    players_page = arbiter.get(arbiter.url("arbiter_players")).content.decode()
    assert f"by lot (seed {event.lot_seed})" in players_page
    drawn = pairing_order([Entrant(p.pk, p.name, p.rating) for p in entered], "lot",
                          event.lot_seed)
    assert list(event.players.order_by("seed").values_list("pk", flat=True)) == drawn

    arbiter.publishes_round(r1)
    board_one = arbiter.board(r1, 1)
    story.player(board_one.first).enters_live(board_one.token, a_first_move(3))

    with pytest.raises(Refused):
        arbiter.repairs_round(r1, reason="Finn's name was misspelt at the draw")
    assert arbiter.board(r1, 1).token == board_one.token
    arbiter.repairs_round(r1, reason="Finn's name was misspelt at the draw", confirm=True)
    removed = story.model().history.get(action=HistoryEntry.Action.ROUND_REPAIRED)
    assert removed.reason == "Finn's name was misspelt at the draw"
    kept = removed.details["removed_attachments"]
    assert [(a["board"], a["kind"]) for a in kept] == [(1, "live")]
    assert kept[0]["snapshot"]["actions"][0]["placement"] == a_first_move(3)["placement"]

    arbiter.enters_round_results(r1, random.Random(5))
    with pytest.raises(Refused, match="needs a reason"):
        arbiter.changes_settings(rounds_planned=4)
    arbiter.changes_settings(rounds_planned=4, change_reason="the hall is ours until ten")
    settings_page = arbiter.get(arbiter.url("arbiter_settings")).content.decode()
    assert "the hall is ours until ten" in settings_page

    played = story.plays_to_the_end(random.Random(7))
    assert played == [2, 3, 4]
    history = [h.action for h in story.model().history.order_by("at", "pk")]
    assert history == ["format_settled", "round_repaired", "rounds_changed"]
