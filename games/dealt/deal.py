"""The server's deal: a bag shuffled from a seed, a commitment to it, and the re-check.

Everything here is re-derivable by anyone from the revealed seed (docs/online-protocol.md,
"Checking the deal"). The specification, version 1:

* **Stream.** Block ``i`` (``i = 0, 1, 2, ...``) is ``SHA-256(seed || i)`` with ``i`` as
  8 bytes big-endian; the stream is the blocks' bytes concatenated.
* **Uniform integer below n.** Read the next 8 bytes of the stream as a big-endian unsigned
  ``u``; accept it when ``u < 2**64 - (2**64 mod n)`` and return ``u mod n``, else read again
  (rejection sampling: no modulo bias).
* **Shuffle.** Fisher-Yates on the tile set in kind order (``RR RG RB ... PP``, each kind as
  often as the set holds it): for ``i`` from ``len - 1`` down to ``1``, swap items ``i`` and
  ``below(i + 1)``. The bag order is the result; tiles are drawn from its front.
* **Commitment.** ``SHA-256("ingenious-deal/1\\n" + seed as 64 lowercase hex digits + "\\n" +
  the bag order as tiles joined by single spaces)`` of that UTF-8 text, in lowercase hex.
* **Deal and draws.** Seat A's six tiles come first, then seat B's; every refill takes the
  next tiles from the front. A swap takes six new tiles from the front first, then the shown
  tiles go to the back of the bag and the whole bag is shuffled again (the same Fisher-Yates,
  continuing the same stream), so nobody knows where the shown tiles lie.

>>> deal = Deal(bytes(32))
>>> [str(t) for t in deal.draw(6)]
['BB', 'OY', 'RR', 'BY', 'RG', 'RG']
>>> deal.commitment == commitment(bytes(32), deal.order)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from games.engine.tiles import RACK_SIZE, Tile, TileSet, get_tile_set, swap_refused_by_bag

__all__ = ["SEED_BYTES", "Deal", "Stream", "commitment", "parse_seed", "shuffled"]

#: A seed is 32 bytes (shown as 64 hex digits).
SEED_BYTES = 32
_VERSION = "ingenious-deal/1"
_TWO_64 = 1 << 64


class Stream:
    """SHA-256 in counter mode over the seed: deterministic, portable, no library PRNG."""

    __slots__ = ("_buffer", "_counter", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n < 1:
            raise ValueError(f"below({n}): n must be at least 1")
        limit = _TWO_64 - _TWO_64 % n
        while True:
            u = int.from_bytes(self._bytes(8), "big")
            if u < limit:
                return u % n


def shuffled(items: Sequence[Tile], stream: Stream) -> list[Tile]:
    """Fisher-Yates with the stream (from the last position down, as specified above)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(seed: bytes, order: Sequence[Tile]) -> str:
    """The published commitment to a seed and the bag order it gives."""
    text = f"{_VERSION}\n{seed.hex()}\n{' '.join(str(t) for t in order)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_seed(text: str) -> bytes:
    """A revealed seed (64 hex digits) as bytes; anything else is a ``ValueError``."""
    if not isinstance(text, str) or len(text) != 2 * SEED_BYTES:
        raise ValueError(f"a seed is {2 * SEED_BYTES} hex digits")
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        seed = b""
    if len(seed) != SEED_BYTES:  # fromhex skips blanks: '00 11…' of 64 characters is short
        raise ValueError(f"a seed is {2 * SEED_BYTES} hex digits")
    return seed


class Deal:
    """The bag of one dealt game: its committed order, then draws and swaps from it."""

    __slots__ = ("_bag", "_stream", "commitment", "order", "seed")

    def __init__(self, seed: bytes, tile_set: str | TileSet = "standard") -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        tiles = (get_tile_set(tile_set) if isinstance(tile_set, str) else tile_set).tiles()
        self.seed = seed
        self._stream = Stream(seed)
        self.order: tuple[Tile, ...] = tuple(shuffled(tiles, self._stream))
        self.commitment = commitment(seed, self.order)
        self._bag = list(self.order)

    def __len__(self) -> int:
        return len(self._bag)

    def draw(self, count: int) -> list[Tile]:
        """Up to ``count`` tiles from the front of the bag (fewer when it runs out)."""
        drawn, self._bag = self._bag[:count], self._bag[count:]
        return drawn

    def swap(self, shown: Sequence[Tile]) -> list[Tile]:
        """Six new tiles first, then the shown ones back and the bag shuffled again."""
        refusal = swap_refused_by_bag(len(self._bag))
        if refusal is not None:
            raise refusal
        drawn = self.draw(RACK_SIZE)
        self._bag = shuffled([*self._bag, *shown], self._stream)
        return drawn
