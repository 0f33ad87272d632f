"""A bot's choice of move from what its seat may see (a view, as the protocol sends it).

It knows only the view: the board (rebuilt from the public placements), its own rack, whose
turn it is. It picks a random legal placement of a random tile of its rack, and when the turn
is open for a swap it swaps or refills at random. Pure: the caller passes the
``random.Random``.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Board, Placement, Tile, get_profile
from games.engine.board import COLOURS
from games.engine.position import Position

__all__ = ["choose_move"]

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def choose_move(view: dict[str, Any], rng: random.Random, *, profile: str = "mso",
                swap_rate: float = 0.5) -> dict[str, Any] | None:
    """The move the seat of ``view`` makes now, or None when it is not to act."""
    seat = view["seat"]
    if view["over"] or view["to_act"] != seat:
        return None
    move: dict[str, Any] = {"seat": seat, "number": view["number"]}
    if view["awaiting"] == "choice":
        move["move"] = "swap" if rng.random() < swap_rate else "refill"
        return move
    board = Board.for_players(2)
    position = Position(board, get_profile(profile))
    placed = {s: 0 for s in view["scores"]}
    for action in view["actions"]:
        if action["action"] == "place":
            p = Placement.parse(action["placement"])
            position.play(board.cell(p.first), _COLOUR_INDEX[p.first_colour],
                          board.cell(p.second), _COLOUR_INDEX[p.second_colour],
                          placed[action["seat"]] == 0)
            placed[action["seat"]] += 1
    pairs = position.allowed_pairs(placed[seat] == 0)
    tile = Tile.parse(rng.choice(view["rack"]))
    a, b = rng.choice(pairs)
    first, second = (tile.first, tile.second) if rng.random() < 0.5 else (tile.second,
                                                                          tile.first)
    move["move"] = "place"
    move["placement"] = str(Placement(board.names[a], first, board.names[b], second))
    return move
