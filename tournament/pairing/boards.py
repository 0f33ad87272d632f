"""The pairing core's output: one round's boards in order, and the pairing-allocated bye.

The text form is the one FIDE engines (JaVaFo, bbpPairings, py4swiss) write and our
``trf_pair`` command prints: a count line, then ``first second`` per board, the bye as ``N 0``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.pairing.errors import TrfError


@dataclass(frozen=True, slots=True)
class Board:
    """Two pairing numbers; ``first`` moves first (White in chess terms)."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"{self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """Round ``round``'s boards in board order (board 1 first) and the bye, if any.

    Players absent or withdrawn for the round appear in neither. The class does not judge
    the pairing: hand-edited pairings go through :func:`tournament.pairing.validate_pairing`.
    """

    round: int
    boards: tuple[Board, ...]
    bye: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "boards", tuple(self.boards))

    @property
    def players(self) -> tuple[int, ...]:
        """Every pairing number in the round, board by board, the bye last."""
        numbers = [n for board in self.boards for n in (board.first, board.second)]
        return (*numbers, self.bye) if self.bye is not None else tuple(numbers)

    def to_text(self) -> str:
        """The engine output format: a count line, one pair per line, the bye as ``N 0``."""
        lines = [str(board) for board in self.boards]
        if self.bye is not None:
            lines.append(f"{self.bye} 0")
        return "\n".join([str(len(lines)), *lines]) + "\n"

    @classmethod
    def parse(cls, text: str, round: int) -> RoundPairing:
        """Read the engine output format back (inverse of :meth:`to_text`)."""
        pairs = parse_pairs(text)
        byes = [a for a, b in pairs if b == 0]
        if len(byes) > 1:
            raise TrfError(f"more than one bye in the pairing: {byes}")
        boards = tuple(Board(a, b) for a, b in pairs if b != 0)
        return cls(round, boards, byes[0] if byes else None)


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """Parse engine output into ``(first, second)`` pairs, ``(n, 0)`` for the bye.

    Strict on purpose: a count line that disagrees with the pairs means a truncated file.
    """
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise TrfError("the pairing output is empty")
    count_line, count_text = lines[0]
    if not count_text.isdigit():
        raise TrfError(f"first line {count_text!r} is not the number of pairs", count_line)
    if int(count_text) != len(lines) - 1:
        raise TrfError(
            f"first line says {count_text} pairs but {len(lines) - 1} follow", count_line
        )
    pairs = []
    for number, line in lines[1:]:
        parts = line.split()
        if len(parts) != 2 or not all(part.isdigit() for part in parts):
            raise TrfError(f"{line!r} is not two pairing numbers", number)
        first, second = int(parts[0]), int(parts[1])
        if first == 0 or first == second:
            raise TrfError(f"{line!r} does not pair a player with another or the bye", number)
        pairs.append((first, second))
    return pairs
