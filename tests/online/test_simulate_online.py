"""``simulate_online``: bots play whole games through a real server; every record re-checked."""

import io
import json

import pytest
from django.core.management import call_command

from games.dealt import check_deal
from games.engine import verify
from tests.clocks.servers import wait_for_other_sessions_to_end
from tournament.models import Result

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_bot_games_through_websockets_give_verified_records_of_the_committed_deal():
    out = io.StringIO()
    try:
        call_command("simulate_online", games=2, seed=7, json=True, stdout=out)
    finally:
        wait_for_other_sessions_to_end()
    games = json.loads(out.getvalue())["games"]
    assert [g["board"] for g in games] == [1, 2]
    for game in games:
        assert set(game) == {"board", "record", "result", "seed", "commitment"}
        verdict = verify(game["record"])
        assert verdict.ok, verdict.error
        assert verdict.game.result == game["result"] in ("1-0", "0-1", "½-½")
        record = check_deal(game["record"], game["seed"], game["commitment"])
        assert sum(a.kind == "draw" for a in record.actions) >= 2
        assert game["seed"] != games[1 - games.index(game)]["seed"]
    results = Result.objects.filter(status=Result.Status.ACCEPTED, board__round__event__name=
                                    "Online simulation (seed 7)")
    assert sorted(r.source for r in results) == ["record", "record"]
