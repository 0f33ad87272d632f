"""Issue #21: docs/online-protocol.md is enough to re-check a deal, a swap included.

The re-checker below is written from the document's words ("Checking the deal", steps 1–6)
and nothing else: it imports nothing of the code base's deal (``games.dealt``), keeps its own
tile set, stream, shuffle and commitment, and re-checks the worked example the document gives
(its seed, commitment, bag and every draw line, the re-deal after the swap). The example is
the server's real game: tests/dealt/test_dealt_deal.py replays it with the core.
"""

from __future__ import annotations

import hashlib

import pytest

from tests.protocol_example import worked_example

COLOURS = "RGBOYP"  # "colours in the order R G B O Y P"


def tile_set() -> list[str]:
    """Step 4: each kind, the first colour never after the second, repeated as often as the
    standard set holds it (five of each double, six of each pair), one kind after the other."""
    kinds = [a + b for i, a in enumerate(COLOURS) for b in COLOURS[i:]]
    return [kind for kind in kinds for _ in range(5 if kind[0] == kind[1] else 6)]


class Stream:
    """Steps 1 and 2: SHA-256(seed ‖ i) blocks, 8 bytes at a time, never restarted."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.block, self.pending = seed, 0, b""

    def below(self, n: int) -> int:
        while True:
            while len(self.pending) < 8:
                self.pending += hashlib.sha256(
                    self.seed + self.block.to_bytes(8, "big")).digest()
                self.block += 1
            u, self.pending = int.from_bytes(self.pending[:8], "big"), self.pending[8:]
            if u < 2**64 - 2**64 % n:
                return u % n


def shuffle(items: list[str], stream: Stream) -> list[str]:
    """Step 3: from the last position down to 1, swap with below(i + 1)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(seed: bytes, order: list[str]) -> str:
    """Step 5."""
    text = "ingenious-deal/1\n" + seed.hex() + "\n" + " ".join(order)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def recheck(seed: bytes, committed: str, lines: list[str]) -> list[str]:
    """Step 6 over the record's lines; returns the bag order. Raises AssertionError with the
    first line whose draw is not the deal's."""
    stream = Stream(seed)
    order = shuffle(tile_set(), stream)
    assert commitment(seed, order) == committed, "the seed does not give the commitment"
    bag, shown = list(order), {}
    for number, line in enumerate(lines, 1):
        seat, action, *tiles = line.split()
        if action == "swap":
            shown[seat] = tiles
        elif action == "draw":
            if seat in shown:  # the swap's six new tiles, then the shown ones back, reshuffled
                expected, rest = bag[:6], bag[6:]
                bag = shuffle(rest + shown.pop(seat), stream)
            else:
                expected, bag = bag[:len(tiles)], bag[len(tiles):]
            assert tiles == expected, f"line {number}: {tiles} but the deal gives {expected}"
    return order


def test_the_documents_worked_example_re_checks_from_its_words_alone():
    example = worked_example()
    seed = bytes.fromhex(example.seed)
    assert hashlib.sha256(example.seed_text.encode("utf-8")).digest() == seed
    order = recheck(seed, example.commitment, example.lines)
    assert order[:24] == example.bag_start
    assert len(order) == 120
    kinds = [line.split()[1] for line in example.lines]
    assert "swap" in kinds and kinds[kinds.index("swap") + 1] == "draw"
    assert kinds.index("swap") < len(kinds) - 2  # a draw after the re-deal is checked too


def test_a_forged_draw_after_the_swap_is_caught():
    example = worked_example()
    lines = list(example.lines)
    last = lines[-1].split()
    lines[-1] = " ".join([*last[:2], "RR"])
    with pytest.raises(AssertionError, match=f"line {len(lines)}: "):
        recheck(bytes.fromhex(example.seed), example.commitment, lines)
