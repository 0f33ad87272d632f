"""QR codes for pages rather than PDFs: the same modules as the printed ones, drawn as SVG.

The event app's slips (login invitations) and the games app's (personal links of an online
round) both print from the browser, so the SVG lives here, beside ``qr_modules``, where both
may use it.
"""

from __future__ import annotations

import itertools

from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournament.printing.drawing import QUIET_ZONE, qr_modules


def qr_svg(url: str, size_mm: int = 32) -> SafeString:
    """The QR code of ``url`` as an inline SVG (one path of dark runs, with its quiet zone)."""
    modules = qr_modules(url)
    side = len(modules) + 2 * QUIET_ZONE
    runs = []
    for row, cells in enumerate(modules):
        column = 0
        for dark, run in itertools.groupby(cells):
            length = len(list(run))
            if dark:
                runs.append(f"M{column + QUIET_ZONE} {row + QUIET_ZONE}h{length}v1h-{length}z")
            column += length
    return format_html(
        '<svg class="qr" viewBox="0 0 {s} {s}" width="{mm}mm" height="{mm}mm" role="img" '
        'aria-label="{label}"><rect width="{s}" height="{s}" fill="#fff"/>'
        '<path d="{d}" fill="#000"/></svg>',
        s=side, mm=size_mm, label=url, d="".join(runs))
