"""Comparison: our Swiss pairing against bbpPairings' own, round by round.

Run: ``.venv/bin/python bench/scripts/compare_pairing.py [--tournaments 300] [--seed 1]``.

bbpPairings' random tournament generator (``--dutch -g CONFIG -o FILE -s SEED``: 9-150 players,
5-11 rounds, forfeits, byes, absences, withdrawals) plays whole tournaments, pairing every round
itself by the FIDE (Dutch) System as amended in 2025. Each file is read by our TRF reader; for
every round the event as it stood before it (the rounds played, who was absent) is paired again
by our pipeline, and the pairs and first moves are compared with what bbpPairings paired: by the
2025 edition (our TRF writer, then the engine of that edition) and by the 2017 edition
(py4swiss), which shows how often the amendment changes a round. The reference never passes
through our writer: it is the generator's own record of its pairings. Prints the counts, every
differing round's seed and number, and the pairing time per round.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournament.pairing import (
    Event,
    NoLegalPairing,
    Result,
    Status,
    engine_for,
    import_trf,
    pair_swiss,
)
from tournament.pairing.engines import bbpairings_program

_ABSENT = {Result.HALF_BYE: Status.HALF_BYE, Result.FULL_BYE: Status.FULL_BYE,
           Result.ZERO_BYE: Status.ABSENT}


def generate(seed: int, program: Path | None = None) -> str | None:
    """A whole tournament played and paired by bbpPairings' generator: 9-150 players and 5-11
    rounds drawn from ``seed`` (its own default draws 5 rounds every time here), forfeits,
    withdrawals, half-point byes and draws at its own random rates; None when it cannot pair
    such a tournament to its end (a field too small for its rounds)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="generated-") as folder:
        target, config = Path(folder, "generated.trf"), Path(folder, "generator.cfg")
        config.write_text(f"PlayersNumber={rng.randint(9, 150)}\n"
                          f"RoundsNumber={rng.randint(5, 11)}\n", encoding="utf-8")
        done = subprocess.run([str(program or bbpairings_program()), "--dutch", "-g",
                               str(config), "-o", str(target), "-s", str(seed)],
                              capture_output=True, text=True)
        if done.returncode:  # a field too small for its rounds: no tournament to compare
            return None
        return target.read_text(encoding="utf-8")


def before_round(event: Event, number: int) -> Event:
    """``event`` as it stood before round ``number``: the rounds before it, and every player
    whose round-``number`` cell is an absence (not a pairing) left out of it."""
    players = []
    for player in event.players:
        cell = player.history[number - 1]
        unpaired = cell.opponent == 0 and cell.result is not Result.PAIRING_BYE
        status = _ABSENT.get(cell.result, Status.ABSENT) if unpaired else Status.PLAYING
        players.append(replace(player, history=player.history[:number - 1], status=status,
                               joined_round=min(player.joined_round, number)))
    return replace(event, players=tuple(players))


def played_pairing(event: Event, number: int) -> tuple[frozenset, int | None]:
    """Round ``number`` as the file records it: (first, second) pairs and the bye."""
    pairs, bye = set(), None
    for player in event.players:
        cell = player.history[number - 1]
        if cell.result is Result.PAIRING_BYE:
            bye = player.number
        elif cell.opponent and cell.first:
            pairs.add((player.number, cell.opponent))
    return frozenset(pairs), bye


def compare(seed: int, editions: tuple[str, ...] = ("2025", "2017"),
            timings: dict[str, list[float]] | None = None) -> dict[str, list[int]]:
    """Pair every round of generated tournament ``seed`` again; the rounds that differ from
    bbpPairings' record, by edition (the count of rounds compared under ``"rounds"``)."""
    generated = generate(seed)
    if generated is None:
        return {"rounds": []}
    text = generated.replace("\r", "\n")
    # the generator writes no XXR: its tournaments end with their last round
    played = len(import_trf(text + "XXR 99\n").players[0].history)
    event = import_trf(text + f"XXR {played}\n")
    # nor an XXC: the first move of round 1 is the top paired player's, as the file shows it
    top = next(p for p in event.players if p.history[0].opponent)
    if not top.history[0].first:
        event = replace(event, settings=replace(event.settings, first_move="second"))
    found: dict[str, list[int]] = {"rounds": list(range(1, played + 1))}
    for edition in editions:
        engine, found[edition] = engine_for(edition), []
        for number in range(1, played + 1):
            before = before_round(event, number)
            before = replace(before, settings=replace(before.settings, edition=edition))
            start = time.perf_counter()
            try:
                ours = pair_swiss(before, engine)
            except NoLegalPairing:
                found[edition].append(number)
                continue
            if timings is not None:
                timings.setdefault(edition, []).append(time.perf_counter() - start)
            if ({(b.first, b.second) for b in ours.boards}, ours.bye) != played_pairing(
                    event, number):
                found[edition].append(number)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="the first generator seed")
    parser.add_argument("--editions", nargs="+", default=["2025", "2017"],
                        choices=["2025", "2017"])
    options = parser.parse_args()
    rounds, differing, timings = 0, {edition: [] for edition in options.editions}, {}
    skipped = []
    for seed in range(options.seed, options.seed + options.tournaments):
        found = compare(seed, tuple(options.editions), timings=timings)
        if not found["rounds"]:
            skipped.append(seed)
            continue
        rounds += len(found["rounds"])
        for edition in differing:
            differing[edition] += [(seed, n) for n in found[edition]]
    print(f"tournaments: {options.tournaments} (seeds {options.seed}-"
          f"{options.seed + options.tournaments - 1}), rounds: {rounds}; the generator could "
          f"not finish {len(skipped)} (seeds {skipped or 'none'})")
    for edition, rows in differing.items():
        same = rounds - len(rows)
        mean = sum(timings[edition]) / max(1, len(timings[edition]))
        print(f"edition {edition}: identical to bbpPairings {same} of {rounds} "
              f"({100 * same / rounds:.1f} %); mean pairing time {mean * 1000:.0f} ms")
        if rows:
            print("  differing (seed, round):", rows)


if __name__ == "__main__":
    main()
