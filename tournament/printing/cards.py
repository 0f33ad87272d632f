"""Player cards: eight to an A4 page (cut along the dashed lines), one per player.

Each card has the player's name, the pairing number once round 1 has given it, the event's
name, the player's code in groups of four (for typing at the kiosk), and a QR code of the
personal page (``/card/<code>/``), absolute with the site's address
(``tournament.site.site_address``), as the scoresheets' QR codes are. The arbiter prints them;
a player's card is issued the first time it is printed (``tournament.services.checkin``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from tournament.boards import player_codes
from tournament.models import Event, Player
from tournament.printing.common import (
    BOLD,
    MARGIN,
    MONO,
    MUTED,
    RULE,
    SANS,
    fit,
    new_canvas,
    page_size,
    text_width,
)
from tournament.printing.drawing import draw_qr
from tournament.services import checkin

COLUMNS, ROWS = 2, 4
QR_SIZE = 96.0


@dataclass(frozen=True, slots=True)
class Card:
    """What one printed card says: plain data, so the drawing needs no database."""

    event: str
    name: str
    seed: int | None
    code: str
    url: str


def card_path(code: str) -> str:
    """The personal page a card's QR code opens."""
    return reverse("player_card", args=[code])


def _card(c: Canvas, card: Card, x: float, y: float, w: float, h: float) -> None:
    pad = 12.0
    c.saveState()
    c.setDash(4, 3)
    c.setStrokeColor(RULE)
    c.rect(x, y, w, h, stroke=1, fill=0)
    c.restoreState()
    qr_bottom = y + (h - QR_SIZE) / 2
    qr_top = qr_bottom + QR_SIZE

    def room(baseline: float, size: float) -> float:
        """The width a line may take: the card's, but beside the QR code where they meet (a
        name cut at the QR code's width while the card had room above it was a complaint)."""
        clear = baseline - 0.25 * size >= qr_top + 2 or baseline + size <= qr_bottom - 2
        return w - 2 * pad if clear else w - QR_SIZE - 3 * pad

    def line(text: str, font: str, sizes: Sequence[float], baseline: float) -> None:
        """``text`` in the largest of ``sizes`` it fits in, cut only at the smallest."""
        for size in sizes:
            if text_width(text, font, size) <= room(baseline, size):
                break
        c.setFont(font, size)
        c.drawString(x + pad, baseline, fit(text, font, size, room(baseline, size)))

    top = y + h - pad
    c.setFillColor(MUTED)
    line(card.event, SANS, (8,), top - 8)
    c.setFillColor(colors.black)
    line(card.name, BOLD, (14, 12.5, 11), top - 30)
    if card.seed is not None:
        line(_("Pairing number %(n)d") % {"n": card.seed}, SANS, (9,), top - 46)
    line(_("Your code (kiosk, or type it):"), SANS, (7.5,), y + pad + 26)
    line(player_codes.grouped(card.code), MONO, (10.5,), y + pad + 12)
    c.setFillColor(MUTED)
    line(_("Scan: check in, your board, your results."), SANS, (6.5,), y + pad)
    c.setFillColor(colors.black)
    draw_qr(c, card.url, x + w - pad - QR_SIZE, qr_bottom, QR_SIZE)


def build_cards(cards: Sequence[Card], paper: str = "a4", title: str = "") -> bytes:
    size = page_size(paper)
    buffer = BytesIO()
    c = new_canvas(buffer, size, title or _("Player cards"))
    w = (size[0] - 2 * MARGIN) / COLUMNS
    h = (size[1] - 2 * MARGIN) / ROWS
    per_page = COLUMNS * ROWS
    if not cards:
        c.setFont(SANS, 12)
        c.drawString(MARGIN, size[1] / 2, _("This event has no players yet."))
        c.showPage()
    for start in range(0, len(cards), per_page):
        for i, card in enumerate(cards[start:start + per_page]):
            row, column = divmod(i, COLUMNS)
            _card(c, card, MARGIN + column * w, size[1] - MARGIN - (row + 1) * h, w, h)
        c.showPage()
    c.save()
    return buffer.getvalue()


def render(event: Event, players: Sequence[Player], *, base_url: str,
           paper: str = "a4") -> bytes:
    """The cards of ``players`` in the event's print language (a revoked card not replaced
    is not printed)."""
    numbered = event.rounds.exists()
    cards = []
    for player, card in checkin.cards_for(list(players)):
        code = player_codes.code_for(card)
        cards.append(Card(event=event.name, name=player.name,
                          seed=player.seed if numbered else None, code=code,
                          url=base_url.rstrip("/") + card_path(code)))
    with translation.override(event.print_language):
        return build_cards(cards, paper, title=_("Player cards") + " · " + event.name)
