"""Seeded random legal games, for tests, the demo event and benchmarks.

The generator holds the real tiles (a :class:`~.tiles.Bag` on the injected ``random.Random``)
and drives a :class:`~.game.Game` with them, so every record it writes is legal by
construction and comes with the scores the engine computed while playing it. Players are
mildly greedy (they usually pick the best of a few sampled placements, favouring their low
colours) so that games reach 18, bonus plays and swaps happen as in real play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import COLOURS
from .game import Game
from .record import DRAW, FLAG, PLACE, RESIGN, SWAP, Action, Record
from .result import VerifiedGame
from .tiles import RACK_SIZE, Bag, Placement, Tile

__all__ = ["RandomGame", "random_game"]

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True, slots=True)
class RandomGame:
    """A generated game: the ``record`` and what the engine computed while playing it."""

    record: Record
    game: VerifiedGame

    @property
    def scores(self) -> dict[str, dict[str, int]]:
        return self.game.scores

    @property
    def result(self) -> str | None:
        return self.game.result


def random_game(
    rng: random.Random,
    *,
    players: int = 2,
    profile: str = "mso",
    tile_set: str = "standard",
    partnership: bool = False,
    draws: bool = False,
    claims: bool = True,
    clocks: bool = False,
    swap_rate: float = 0.5,
    flag_rate: float = 0.0,
    resign_rate: float = 0.0,
    greed: float = 0.85,
    tags: dict[str, str] | None = None,
) -> RandomGame:
    """Play a random legal game to its end and return its record and verified scores.

    ``draws`` records every draw (initial racks, refills, new racks after swaps); ``claims``
    writes each placement's points; ``clocks`` adds ``@M:SS`` notes; ``swap_rate`` is the
    chance of swapping when allowed; ``flag_rate`` and ``resign_rate`` are chances per turn;
    ``greed`` is the chance of taking the best sampled placement rather than a random one.

    >>> game = random_game(random.Random(7))
    >>> game.game.finished, game.result == game.record.tag("Result")
    (True, True)
    """
    game = Game(players, profile, tile_set, partnership)
    bag = Bag(game.tile_set, rng)
    racks = [bag.draw(RACK_SIZE) for _ in range(players)]
    actions: list[Action] = []
    if draws:
        for seat, rack in zip(game.seats, racks, strict=True):
            actions.append(Action(seat, DRAW, tiles=tuple(rack)))
            game.draw(seat, rack)
    remaining = [600] * players

    def emit(action: Action) -> None:
        actions.append(action)

    while not game.is_over:
        seat = game.to_move
        assert seat is not None  # the game is not over
        s = game.seat_index(seat)
        if resign_rate and rng.random() < resign_rate:
            window = game.swap_window
            candidates = [t for t in game.seats if not game.has_stopped(t)]
            candidates = [t for t in candidates if t != window] or [seat]
            quitter = rng.choice(candidates)
            emit(Action(quitter, RESIGN))
            game.resign(quitter)
            continue
        if flag_rate and rng.random() < flag_rate / 2:
            emit(Action(seat, FLAG))
            game.flag(seat)
            continue
        placement, tile = _choose(game, rng, seat, racks[s], greed)
        gains = game.place(seat, placement)
        racks[s].remove(tile)
        clock = None
        if clocks:
            remaining[s] = max(0, remaining[s] - rng.randint(1, 20))
            clock = remaining[s]
        claim = tuple((c, gains[c]) for c in COLOURS if c in gains) if claims else None
        emit(Action(seat, PLACE, placement, claim=claim, clock=clock))
        if game.swap_window != seat:
            continue  # game over, or a bonus play follows
        if flag_rate and rng.random() < flag_rate / 2:
            emit(Action(seat, FLAG))
            game.flag(seat)  # never pressed the clock: no refill
            continue
        low = game.lowest_colours(seat)
        if (
            swap_rate
            and racks[s]
            and len(bag) >= RACK_SIZE
            and not any(t.first in low or t.second in low for t in racks[s])
            and rng.random() < swap_rate
        ):
            emit(Action(seat, SWAP, tiles=tuple(racks[s])))
            game.swap(seat, racks[s])
            racks[s] = new = bag.swap(racks[s])
        else:
            new = bag.draw(RACK_SIZE - len(racks[s]))
            racks[s].extend(new)
        if draws and new:
            emit(Action(seat, DRAW, tiles=tuple(new)))
            game.draw(seat, new)
    summary = game.summary()
    all_tags = {"Event": "Random game", "Players": str(players), "Rules": game.profile.name}
    all_tags["TileSet"] = game.tile_set.name
    if partnership:
        all_tags["Partnership"] = "yes"
    all_tags.update(tags or {})
    all_tags["Result"] = summary.result or "*"
    record = Record(tuple(all_tags.items()), tuple(actions))
    return RandomGame(record, summary)


def _choose(
    game: Game, rng: random.Random, seat: str, rack: list[Tile], greed: float
) -> tuple[Placement, Tile]:
    """Pick a placement: a random one, or the best of a few sampled cell pairs."""
    pos, board = game.position, game.board
    first = game.first_round
    pairs = _sample_pairs(game, rng, first, 4)
    names = board.names
    if rng.random() >= greed:
        a, b = pairs[int(rng.random() * len(pairs))]
        tile = rack[int(rng.random() * len(rack))]
        ca, cb = (tile.first, tile.second) if rng.random() < 0.5 else (tile.second, tile.first)
        return Placement(names[a], ca, names[b], cb), tile
    track = game.track(seat)
    room = [max(0, 18 - v) for v in track]  # points still useful below 18, per colour
    weight = [20 - v if v < 18 else 0 for v in track]  # low colours matter most
    options = []
    for tile in dict.fromkeys(rack):
        ka, kb = _COLOUR_INDEX[tile.first], _COLOUR_INDEX[tile.second]
        options.append((tile, ka, kb))
        if ka != kb:
            options.append((tile, kb, ka))
    colours = sorted({c for _, ka, kb in options for c in (ka, kb)})
    best, best_value = None, -1
    score, size, direction = pos.score, board.size, board.direction
    for a, b in pairs:
        d = direction[a * size + b]
        at_a, at_b = [0] * 6, [0] * 6
        for c in colours:  # both hexes in one colour per call
            at_a[c], at_b[c] = score(a, c, b, c, d)
        for option in options:
            _, ca, cb = option
            if ca == cb:
                gain = min(at_a[ca] + at_b[ca], room[ca])
                value = gain * weight[ca] + (60 if gain and gain == room[ca] else 0)
            else:
                gain = min(at_a[ca], room[ca])
                value = gain * weight[ca] + (60 if gain and gain == room[ca] else 0)
                gain = min(at_b[cb], room[cb])
                value += gain * weight[cb] + (60 if gain and gain == room[cb] else 0)
            if value > best_value:
                best_value, best = value, (a, b, option)
    assert best is not None
    a, b, (tile, ca, cb) = best
    return Placement(names[a], COLOURS[ca], names[b], COLOURS[cb]), tile


def _sample_pairs(game: Game, rng: random.Random, first: bool, want: int) -> list[tuple[int, int]]:
    """Up to ``want`` distinct allowed cell pairs, by rejection sampling (full scan if rare)."""
    pos, board = game.position, game.board
    cells, step, allowed = pos.cells, board.step, pos.allowed
    empties = [i for i, c in enumerate(cells) if c < 0]
    found: list[tuple[int, int]] = []
    random_ = rng.random
    count = len(empties)
    for _ in range(10 * want):
        a = empties[int(random_() * count)]
        b = step[a][int(random_() * 6)]
        if b >= 0 and allowed(a, b, first):
            pair = (a, b) if a < b else (b, a)
            if pair not in found:
                found.append(pair)
                if len(found) >= want:
                    break
    if found:
        return found
    pairs = pos.allowed_pairs(first)
    return rng.sample(pairs, min(want, len(pairs)))
