"""The random legal game generator: seeded, complete, and covering every option."""

import random
from collections import Counter

import pytest

from games.engine import format_record, random_game, verify


def test_same_seed_same_game_different_seed_different_game() -> None:
    first = format_record(random_game(random.Random(5), draws=True, clocks=True).record)
    again = format_record(random_game(random.Random(5), draws=True, clocks=True).record)
    other = format_record(random_game(random.Random(6), draws=True, clocks=True).record)
    assert first == again != other


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("profile", ["mso", "kosmos"])
def test_every_mode_plays_to_the_end(players: int, profile: str) -> None:
    for seed in range(3):
        generated = random_game(random.Random(seed), players=players, profile=profile)
        assert generated.game.finished and generated.game.players == players
        assert generated.record.tag("Result") == generated.result
        assert generated.record.tag("Rules") == profile
        assert verify(generated.record).game == generated.game


def test_options_show_up_in_the_records() -> None:
    kinds: Counter[str] = Counter()
    bonus = 0
    for seed in range(25):
        generated = random_game(
            random.Random(seed), draws=True, flag_rate=0.05, resign_rate=0.005, swap_rate=0.8
        )
        kinds.update(action.kind for action in generated.record.actions)
        bonus += generated.game.bonus_plays
    assert min(kinds["place"], kinds["draw"], kinds["swap"], kinds["flag"], kinds["resign"]) > 0
    assert bonus > 0  # greedy players reach 18, so bonus plays happen


def test_partnership_and_claims_off() -> None:
    generated = random_game(random.Random(2), players=4, partnership=True, claims=False)
    assert generated.record.tag("Partnership") == "yes"
    assert all(a.claim is None for a in generated.record.actions)
    assert generated.scores["A"] == generated.scores["C"] != generated.scores["B"]
    assert max(max(s.values()) for s in generated.scores.values()) <= 36
