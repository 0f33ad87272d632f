"""Online seats' lag compensation (issue #22): the client reports its own move time, the server
credits the difference up to 1 s per move from the game's budget, logged with the press."""

import random

import pytest

from clocks.models import ClockLogEntry
from games.dealt.bot import choose_move
from games.online import play as online
from tests.online.test_online_services import arbiter, game, round_  # noqa: F401  (fixtures)


def play_turn(game, seat, rng, think_ms):  # noqa: F811
    played = online.play(game, seat, {**choose_move(online.view(game, seat), rng),
                                      "think_ms": think_ms})
    assert played.error is None
    if played.view["awaiting"] == "choice":  # a swap is allowed: the turn is still open
        played = online.play(game, seat, {"move": "refill", "number": played.view["number"],
                                          "think_ms": think_ms})
    return played.view["clock"]


def test_the_network_delay_is_credited_up_to_a_second_per_move(game, clock_time):  # noqa: F811
    rng = random.Random(4)
    clock_time.now += 7_000
    clock = play_turn(game, "A", rng, 6_600)  # 0.4 s of the 7 s were the network's
    assert clock["running"] == "B" and clock["remaining_ms"]["A"] == 600_000 - 6_600
    assert clock["remaining_ms"]["B"] == 600_000 - 400
    clock_time.now += 9_000
    clock = play_turn(game, "B", rng, 5_000)  # claims 4 s less: 1 s is the most it gets
    assert clock["remaining_ms"]["B"] == 600_000 - 400 - 8_000
    detail = ClockLogEntry.objects.filter(action="press").order_by("id").last().detail
    assert detail["reconciled"]["late_ms"] == 1_000


@pytest.mark.parametrize("bad", [-1, 1.5, "7000", 86_400_001, True])
def test_a_bad_move_time_is_refused_precisely(game, clock_time, bad):  # noqa: F811
    move = choose_move(online.view(game, "A"), random.Random(1))
    with pytest.raises(online.OnlineRefused, match="'think_ms' must be a whole number"):
        online.play(game, "A", {**move, "think_ms": bad})
    assert online.view(game, "A")["number"] == 0
