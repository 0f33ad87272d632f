"""Racks and bag as counts, with rack contents known only as far as ``draw`` lines reveal them.

Each seat holds ``size[s]`` tiles: ``known[s]`` by kind (None until its first ``draw``) plus
``unknown[s]`` slots. ``pending[s]`` is how many tiles its latest draw brought that no ``draw``
line has revealed yet. ``placed`` and ``known_total`` count tiles by kind on the board and in
known racks, so that no kind ever exceeds the tile set. This class is the only code that
touches these lists. The game's hot path calls :meth:`Racks.take` (and :meth:`Racks.untake`
when the board refuses the placement) and :meth:`Racks.refill`, a few list operations each,
and reads ``size`` and ``bag``; the rarer operations (reveal, swap, messages) live here too.

A swap draws six new tiles before the shown ones go back (game-rules.md section 3 step 5). The
shown tiles stay counted in ``known_total`` (as ``held``) until the game moves on, so that the
``draw`` line of the six new tiles is checked against the bag as it was before their return.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalActionError
from .messages import Message
from .tiles import RACK_SIZE, TILE_OF_KIND, Tile, TileSet

__all__ = ["RACK_SIZE", "Racks"]


class Racks:
    """The bag and every seat's rack, dealt at creation (six tiles each, seat by seat)."""

    __slots__ = (
        "bag",
        "held",
        "held_seat",
        "known",
        "known_total",
        "pending",
        "placed",
        "set_counts",
        "set_name",
        "size",
        "undo",
        "unknown",
    )

    def __init__(self, tile_set: TileSet, players: int) -> None:
        self.set_counts = tile_set.counts
        self.set_name = tile_set.name
        self.placed = [0] * 21
        self.known_total = [0] * 21
        self.known: list[list[int] | None] = [None] * players
        self.bag = tile_set.total
        self.size = [0] * players
        self.unknown = [0] * players
        self.pending = [0] * players
        self.held: list[int] | None = None  # the latest swap's shown tiles, not yet in the bag
        self.held_seat = -1
        self.undo = 0  # what untake needs: the pending count before the take, ~it if unknown
        for s in range(players):
            self.refill(s)

    # -- the hot path (every placement) -----------------------------------------------------
    def take(self, s: int, kind: int) -> bool:
        """A placement takes a tile of ``kind`` from seat ``s``'s rack (from its known tiles if
        it holds one, else from an unknown slot), and the seat's latest draw can no longer be
        revealed. False, with nothing changed, when the rack cannot hold such a tile
        (:meth:`take_error` says why); :meth:`untake` undoes the latest take."""
        known = self.known[s]
        pending = self.pending
        if known is not None and known[kind]:
            known[kind] -= 1
            self.known_total[kind] -= 1
            self.undo = pending[s]
        elif self.unknown[s] and self.placed[kind] + self.known_total[kind] < self.set_counts[kind]:
            self.unknown[s] -= 1
            self.undo = ~pending[s]  # negative: the tile came from an unknown slot
        else:
            return False
        self.placed[kind] += 1
        self.size[s] -= 1
        pending[s] = 0
        return True

    def untake(self, s: int, kind: int) -> None:
        """Put back the tile of the latest :meth:`take` (the board refused the placement)."""
        undo = self.undo
        if undo >= 0:
            self.known[s][kind] += 1  # type: ignore[index]
            self.known_total[kind] += 1
            self.pending[s] = undo
        else:
            self.unknown[s] += 1
            self.pending[s] = ~undo
        self.placed[kind] -= 1
        self.size[s] += 1

    def refill(self, s: int) -> int:
        """Fill seat ``s`` up to six from the bag (the deal, the end of a turn); return how many
        it drew. The new tiles are unknown until a ``draw`` line."""
        drawn = RACK_SIZE - self.size[s]
        if drawn > self.bag:
            drawn = self.bag
        self.bag -= drawn
        self.size[s] += drawn
        self.unknown[s] += drawn
        self.pending[s] = drawn
        return drawn

    # -- the rarer operations ---------------------------------------------------------------
    def stop(self, s: int, refilled: int) -> None:
        """Seat ``s`` stops playing (flag, resignation): the ``refilled`` tiles of a refill it
        never pressed its clock for go back to the bag, and no ``draw`` line can follow."""
        self.bag += refilled
        self.size[s] -= refilled
        self.unknown[s] -= refilled
        self.pending[s] = 0

    def take_error(self, s: int, kind: int, seat: str) -> IllegalActionError:
        """Why seat ``s`` cannot place a tile of ``kind`` (when :meth:`take` refused)."""
        if self.unknown[s] == 0:  # the whole rack is known: say what it holds
            known = self.known[s] or [0] * 21
            tiles = " ".join(str(TILE_OF_KIND[k]) for k in range(21) for _ in range(known[k]))
            tile = str(TILE_OF_KIND[kind])
            if not tiles:
                return IllegalActionError("tile_not_in_empty_rack", tile=tile, seat=seat)
            return IllegalActionError("tile_not_in_rack", tile=tile, seat=seat, tiles=tiles)
        return self.too_many(kind)

    def reveal(self, s: int, tiles: Sequence[Tile], seat: str) -> None:
        """A ``draw`` line: the tiles of the seat's latest draw become known."""
        pending = self.pending[s]
        if pending == 0:
            raise IllegalActionError("nothing_to_draw", seat=seat)
        if len(tiles) != pending:
            raise IllegalActionError("draw_count", count=len(tiles), seat=seat, drawn=pending)
        count = [0] * 21
        for tile in tiles:
            count[tile.kind] += 1
        for k in range(21):
            if count[k] and self.placed[k] + self.known_total[k] + count[k] > self.set_counts[k]:
                raise self.too_many_drawn(k, s, seat)
        known = self.known[s]
        if known is None:
            known = self.known[s] = [0] * 21
        for k in range(21):
            known[k] += count[k]
            self.known_total[k] += count[k]
        self.unknown[s] -= pending
        self.pending[s] = 0
        if self.held_seat == s:
            self.release()

    def swap(self, s: int, tiles: Sequence[Tile], refilled: int, seat: str) -> None:
        """Show the rack (as it was before this turn's refill), draw six, then return the shown.

        The caller has checked the timing, the bag (six tiles before the refill) and the lowest
        colours; this checks that the tiles shown are the rack: the right number, every known
        tile among them, no kind over the set.
        """
        holding = self.size[s] - refilled
        shown = " ".join(map(str, tiles)) or Message("nothing_shown")
        if len(tiles) != holding:
            raise IllegalActionError(
                "swap_count", count=len(tiles), shown=shown, seat=seat, holding=holding
            )
        count = [0] * 21
        for tile in tiles:
            count[tile.kind] += 1
        known = self.known[s] or [0] * 21
        for k in range(21):
            if count[k] < known[k]:
                raise IllegalActionError(
                    "swap_hides_tile", seat=seat, tile=str(TILE_OF_KIND[k]), shown=shown
                )
            extra = count[k] - known[k]
            if extra and self.placed[k] + self.known_total[k] + extra > self.set_counts[k]:
                raise self.too_many(k)
        # undo the refill, draw six, put the shown tiles back; until the game moves on they
        # still count as out of the bag (held), for the draw line of the six new tiles
        self.bag += refilled - RACK_SIZE + holding
        known_total = self.known_total
        for k in range(21):
            known_total[k] += count[k] - known[k]
        if self.known[s] is not None:
            self.known[s] = [0] * 21
        self.size[s] = self.unknown[s] = self.pending[s] = RACK_SIZE
        self.held, self.held_seat = count, s

    def release(self) -> None:
        """The shown tiles of the latest swap are back in the bag (the game has moved on)."""
        held = self.held
        if held is not None:
            known_total = self.known_total
            for k in range(21):
                known_total[k] -= held[k]
            self.held, self.held_seat = None, -1

    def too_many_drawn(self, kind: int, s: int, seat: str) -> IllegalActionError:
        held = self.held
        if self.held_seat == s and held is not None and held[kind]:
            return IllegalActionError(
                "too_many_drawn", tile=str(TILE_OF_KIND[kind]), seat=seat, count=held[kind]
            )
        return self.too_many(kind)

    def too_many(self, kind: int) -> IllegalActionError:
        return IllegalActionError(
            "too_many_in_set",
            tile=str(TILE_OF_KIND[kind]),
            tile_set=self.set_name,
            count=self.set_counts[kind],
        )
