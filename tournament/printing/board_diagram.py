"""The two-player board drawn for a scoresheet: 91 named cells and the six start symbols.

Geometry comes from the game engine (``games.engine.board``), so the names printed here are
exactly those the notation and the verifier use. Cells are pointy-top hexes; ``q`` grows to
the east and ``r`` towards the bottom, so row ``a`` (``r = 5``) is drawn at the bottom.
"""

from __future__ import annotations

import math

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from games.engine.board import COLOURS, Board
from tournament.printing.common import BOLD, MUTED, SANS, draw_symbol

SQRT3 = math.sqrt(3)
RADIUS = 5


def side_for(width: float, height: float, radius: int = RADIUS) -> float:
    """The largest hex side that fits the board into ``width`` × ``height``."""
    return min(width / ((2 * radius + 1) * SQRT3 + 3), height / (3 * radius + 2))


def cell_centre(q: int, r: int, side: float) -> tuple[float, float]:
    """Offset of a cell's centre from the board's centre (PDF y grows upwards, r downwards)."""
    return side * SQRT3 * (q + r / 2), -side * 1.5 * r


def _hexagon(c: Canvas, x: float, y: float, side: float, fill) -> None:
    path = c.beginPath()
    for i in range(6):
        angle = math.radians(30 + 60 * i)
        px, py = x + side * math.cos(angle), y + side * math.sin(angle)
        if i == 0:
            path.moveTo(px, py)
        else:
            path.lineTo(px, py)
    path.close()
    c.setFillColor(fill)
    c.drawPath(path, fill=1, stroke=1)


def draw_board(c: Canvas, cx: float, cy: float, side: float) -> None:
    """Draw the radius-5 board centred on (cx, cy): every cell with its name (a1…k11)."""
    board = Board.of_radius(RADIUS)
    font_size = max(4.5, side * 0.34)
    c.saveState()
    c.setStrokeColor(colors.HexColor("#6b7280"))
    c.setLineWidth(0.5)
    for index, (q, r) in enumerate(board.coords):
        dx, dy = cell_centre(q, r, side)
        x, y = cx + dx, cy + dy
        colour = board.start_colour[index]
        _hexagon(c, x, y, side, colors.HexColor("#f3f4f6") if colour >= 0 else colors.white)
        name = board.names[index]
        if colour >= 0:
            draw_symbol(c, COLOURS[colour], x, y + side * 0.14, side * 0.52)
            c.setFont(BOLD, font_size * 0.8)
            c.setFillColor(colors.black)
            c.drawCentredString(x, y - side * 0.72, name)
        else:
            c.setFont(SANS, font_size)
            c.setFillColor(MUTED)
            c.drawCentredString(x, y - font_size * 0.35, name)
    # Row letters outside both ends of every row, for finding a cell at a glance.
    c.setFont(BOLD, font_size)
    c.setFillColor(colors.black)
    for r in range(-RADIUS, RADIUS + 1):
        q_min, q_max = max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r)
        letter = chr(ord("a") + RADIUS - r)
        for q, step in ((q_min, -1), (q_max, 1)):
            dx, dy = cell_centre(q, r, side)
            c.drawCentredString(cx + dx + step * side * 1.25, cy + dy - font_size * 0.35, letter)
    c.restoreState()
