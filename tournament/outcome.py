"""What a result means in victory points: pure rules of tournament-rules.md section 2.

No Django here: the service layer validates input through these functions before it writes,
so every refusal names the field that is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from games.engine.board import COLOURS
from tournament.standings.model import compare_levels

MAX_SCORE = 18
ONE, HALF, ZERO = Decimal("1"), Decimal("0.5"), Decimal("0")
VALID_VP = (ONE, HALF, ZERO)


class ResultError(ValueError):
    """A result that cannot be recorded; ``field`` names the input at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Outcome:
    """The derived part of a result: VP per seat and, for played games, the scores."""

    first_vp: Decimal
    second_vp: Decimal | None
    first_scores: dict[str, int] | None = None
    second_scores: dict[str, int] | None = None


def clean_scores(field: str, scores) -> dict[str, int]:
    """Six colour scores as ``{"R": 0, …}``; a list in R G B O Y P order is accepted too."""
    if isinstance(scores, (list, tuple)):
        if len(scores) != 6:
            raise ResultError(field, f"{field}: six colour scores are needed, got {len(scores)}")
        scores = dict(zip(COLOURS, scores, strict=True))
    if not isinstance(scores, dict):
        raise ResultError(field, f"{field}: six colour scores are needed")
    unknown = set(scores) - set(COLOURS)
    if unknown:
        raise ResultError(field, f"{field}: unknown colour {sorted(unknown)[0]!r}")
    cleaned = {}
    for colour in COLOURS:
        if colour not in scores or scores[colour] in (None, ""):
            raise ResultError(field, f"{field}: the {colour} score is missing")
        try:
            value = int(scores[colour])
        except (TypeError, ValueError):
            raise ResultError(field, f"{field}: {colour} must be a whole number") from None
        if not 0 <= value <= MAX_SCORE:
            raise ResultError(field, f"{field}: {colour} = {value} is outside 0–{MAX_SCORE}")
        cleaned[colour] = value
    return cleaned


def levels(scores: dict[str, int]) -> list[int]:
    """The ascending level vector: the lowest colour first."""
    return sorted(scores[c] for c in COLOURS)


def differences(own: dict[str, int], other: dict[str, int]) -> list[int]:
    """Own level vector minus the opponent's, element by element."""
    return [a - b for a, b in zip(levels(own), levels(other), strict=True)]


def compare_scores(first: dict[str, int], second: dict[str, int]) -> int:
    """+1 if the first player wins, -1 if the second does, 0 for the only draw (equal levels).

    The rule itself is the standings core's ``compare_levels``: one implementation.
    """
    return compare_levels([first[c] for c in COLOURS], [second[c] for c in COLOURS])


def _vp(value, field: str) -> Decimal:
    try:
        vp = Decimal(str(value))
    except Exception:
        raise ResultError(field, f"{field}: {value!r} is not 1, ½ or 0") from None
    if vp not in VALID_VP:
        raise ResultError(field, f"{field}: {value!r} is not 1, ½ or 0")
    return vp


def derive_outcome(
    kind: str,
    *,
    first_scores=None,
    second_scores=None,
    loser_seat: str = "",
    first_vp=None,
    second_vp=None,
    bye_vp=None,
) -> Outcome:
    """Check a result's inputs for its kind and derive the VP (never typed for played games)."""
    if kind == "bye":
        return Outcome(_vp(bye_vp, "bye_vp"), None)
    if kind == "played":
        a = clean_scores("first_scores", first_scores)
        b = clean_scores("second_scores", second_scores)
        sign = compare_scores(a, b)
        return Outcome(*((ONE, ZERO), (HALF, HALF), (ZERO, ONE))[1 - sign], a, b)
    if kind in ("resignation", "forfeit"):
        if loser_seat not in ("first", "second"):
            raise ResultError("loser_seat", "loser_seat: say who resigned or forfeited")
        vps = (ZERO, ONE) if loser_seat == "first" else (ONE, ZERO)
        if kind == "forfeit":
            return Outcome(*vps)
        a = clean_scores("first_scores", first_scores)
        b = clean_scores("second_scores", second_scores)
        return Outcome(*vps, a, b)
    if kind == "double_forfeit":
        return Outcome(ZERO, ZERO)
    if kind == "decision":
        a = clean_scores("first_scores", first_scores) if first_scores else None
        b = clean_scores("second_scores", second_scores) if second_scores else None
        if (a is None) != (b is None):
            raise ResultError("second_scores", "scores: give both players' scores or neither")
        return Outcome(_vp(first_vp, "first_vp"), _vp(second_vp, "second_vp"), a, b)
    raise ResultError("kind", f"kind: unknown result kind {kind!r}")
