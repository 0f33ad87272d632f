"""Playing dealt games to the end in tests: mildly greedy players with full knowledge (the
engine's random-game chooser), so that bonus plays and swaps happen as in real play."""

from __future__ import annotations

import random

from games.dealt import Table
from games.engine.randomgame import _choose


def greedy_move(table: Table, rng: random.Random, *, swap_rate: float = 0.7,
                flag_rate: float = 0.0, resign_rate: float = 0.0) -> dict:
    seat = table.to_act
    number = len(table.moves)
    if resign_rate and rng.random() < resign_rate:
        return {"seat": rng.choice("AB"), "move": "resign", "number": number}
    if flag_rate and rng.random() < flag_rate:
        return {"seat": seat, "move": "flag", "number": number}
    if table.choice:
        move = "swap" if rng.random() < swap_rate else "refill"
        return {"seat": seat, "move": move, "number": number}
    placement, _tile = _choose(table.game, rng, seat, table.racks[seat], 0.85)
    return {"seat": seat, "move": "place", "placement": str(placement), "number": number}


def play_out(table: Table, rng: random.Random, **rates) -> Table:
    while not table.over:
        move = greedy_move(table, rng, **rates)
        if move["move"] == "resign" and table.game.has_stopped(move["seat"]):
            continue
        table.play(move)
    return table


def play_until(table: Table, rng: random.Random, condition, limit: int = 400) -> bool:
    """Play greedy moves until ``condition(table)`` holds (True) or the game ends (False)."""
    for _ in range(limit):
        if condition(table):
            return True
        if table.over:
            return False
        table.play(greedy_move(table, rng, swap_rate=0.0))
    return False


def game_where(rng: random.Random, condition, tries: int = 40) -> Table:
    """A game (new seeds from ``rng``) played greedily until ``condition`` holds."""
    for _ in range(tries):
        table = Table(rng.randbytes(32))
        if play_until(table, rng, condition):
            return table
    raise AssertionError(f"no game in {tries} reached the condition")
