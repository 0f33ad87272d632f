"""``simulate_online``: bots play whole games through a real server; every record re-checked."""

import asyncio
import io
import json
import random
import threading

import pytest
from django.core.management import CommandError, call_command

from bench.events import create_clock_event
from bench.servers import AsgiServer
from games.botclient import play_seat
from games.dealt import check_deal
from games.engine import verify
from games.models import OnlineGame
from games.online import play as online
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


def test_the_bot_plays_one_seat_from_its_personal_link_against_another_client():
    round_ = create_clock_event(1, slug="online-practice")
    game = online.mark_online(round_)[0]
    online.start_round(round_, who="arbiter")
    server = AsgiServer()
    out, errors = io.StringIO(), []

    def bot():
        try:
            call_command("online_bot", f"{server.url}/p/{game.token_b}/", seed=4, stdout=out)
        except Exception as error:  # shown below if the bot failed
            errors.append(error)

    try:
        server.wait_listening()
        thread = threading.Thread(target=bot)
        thread.start()
        seen = asyncio.run(play_seat(server.url, game.token_a, random.Random(5)))
        thread.join(60)
    finally:
        server.stop()
        wait_for_other_sessions_to_end()
    assert not errors, errors
    assert seen.last["over"] and out.getvalue().startswith(f"game over: {seen.last['result']}")
    stored = OnlineGame.objects.get(pk=game.pk)
    assert stored.record_id is not None and stored.seed in out.getvalue()
    with pytest.raises(CommandError, match="the link must look like"):
        call_command("online_bot", "not a link")


@pytest.mark.parametrize("server", ["daphne", "uvicorn"])
@pytest.mark.long_story  # the benchmark's harness; the bots run on PostgreSQL above
def test_bench_online_reports_latency_losses_and_finished_games(server):
    out = io.StringIO()
    try:
        call_command("bench_online", games=2, seconds=3, workers=1, min_think=0.02,
                     max_think=0.05, server=server, stdout=out)
    finally:
        wait_for_other_sessions_to_end()
    lines = dict(line.split(": ", 1) for line in out.getvalue().splitlines()
                 if line.split(":")[0] in ("p50_ms", "p99_ms", "lost", "finished"))
    assert set(lines) == {"p50_ms", "p99_ms", "lost", "finished"}
    assert 0 < float(lines["p50_ms"]) <= float(lines["p99_ms"])
    assert int(lines["lost"]) == 0 and 0 <= int(lines["finished"]) <= 2
    assert not OnlineGame.objects.exists()  # the benchmark's event is gone
