"""How standings numbers are written on screen and paper.

One place for it so that the standings page, the crosstable and the PDFs agree: points with a
½ glyph (``3½``), signed numbers with a true minus sign (``+12``, ``−3``).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

__all__ = ["format_points", "format_signed", "format_vector"]

MINUS = "\u2212"
_GLYPHS = {(1, 2): "½", (1, 4): "¼", (3, 4): "¾"}


def format_points(value: Fraction | int) -> str:
    """``3½``, ``½``, ``0``, ``12¼``; any other fraction as ``7 1/3`` (never met in practice).

    >>> format_points(Fraction(7, 2)), format_points(Fraction(1, 2)), format_points(0)
    ('3½', '½', '0')
    """
    if isinstance(value, int):
        return f"{MINUS}{-value}" if value < 0 else str(value)
    # Integer arithmetic on numerator/denominator: Fraction operators are slow in hot loops.
    num, den = value.numerator, value.denominator
    sign = MINUS if num < 0 else ""
    whole, rest = divmod(abs(num), den)
    if rest == 0:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get((rest, den))
    if glyph is None:
        glyph = f" {rest}/{den}" if whole else f"{rest}/{den}"
    return f"{sign}{whole or ''}{glyph}"


def format_signed(value: int) -> str:
    """``+12``, ``0``, ``−3`` (with U+2212 MINUS SIGN, as typeset tables do).

    >>> format_signed(12), format_signed(0), format_signed(-3)
    ('+12', '0', '−3')
    """
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def format_vector(values: Iterable[int], signed: bool = False) -> str:
    """The full progressive vector for a tooltip: ``+12 +3 0 −1 +5 +7``."""
    return " ".join(format_signed(v) if signed else str(v) for v in values)
