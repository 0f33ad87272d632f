"""Make the Korean web fonts: the shipped NanumGothic (used for the PDFs) cut to Hangul.

A venue's Linux kiosk often has no Korean font, and a Korean page then shows empty boxes. The
site serves NanumGothic as a web font for Hangul only (``unicode-range`` in site.css: a page
without Hangul never downloads it). The whole font is 4.7 MB; these subsets keep the 2,350
syllables of KS X 1001 (the everyday set every Korean font has), the compatibility jamo, and
every Hangul character of the Korean catalogues, as WOFF2.

Run after the Korean catalogue gains characters outside that set (a test says so):
``python scripts/subset_korean_font.py``. Needs fonttools and brotli (dev requirements).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parents[1]
PDF_FONTS = ROOT / "tournament" / "printing" / "fonts"  # the whole fonts, for the PDFs only
FONTS = ROOT / "static" / "fonts"  # the web fonts the pages load
SOURCES = {"NanumGothic.ttf": "NanumGothic-hangul.woff2",
           "NanumGothicBold.ttf": "NanumGothicBold-hangul.woff2"}


def is_hangul(ch: str) -> bool:
    code = ord(ch)
    return 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F


def ks_x_1001_syllables() -> set[str]:
    """The 2,350 Hangul syllables of KS X 1001 (EUC-KR rows 0xB0–0xC8)."""
    return {bytes([hi, lo]).decode("euc-kr") for hi in range(0xB0, 0xC9)
            for lo in range(0xA1, 0xFF)}


def catalogue_hangul() -> set[str]:
    found: set[str] = set()
    for po in (ROOT / "locale" / "ko" / "LC_MESSAGES").glob("*.po"):
        found |= {ch for ch in po.read_text(encoding="utf-8") if is_hangul(ch)}
    return found


def wanted() -> set[str]:
    jamo = {chr(c) for c in range(0x3131, 0x318F)}
    return ks_x_1001_syllables() | jamo | catalogue_hangul() | {" "}


def main() -> int:
    text = "".join(sorted(wanted()))
    for source, target in SOURCES.items():
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        font = subset.load_font(str(PDF_FONTS / source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        subset.save_font(font, str(FONTS / target), options)
        print(f"{target}: {(FONTS / target).stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
