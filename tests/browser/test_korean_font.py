"""Korean pages on a machine without a Korean font (#23 item 18).

This container, like a venue's Linux kiosk, has no Korean font: before the web font the
standings page in Korean showed empty boxes. Chromium now renders its Hangul with the shipped
NanumGothic cut to Hangul, in both weights. Only Hangul uses it (every page has some: the
language switch's 한국어, and Korean names); it comes first in the font list, because
Chromium on Linux let system-ui claim bold Hangul it drew as empty boxes.
"""

import subprocess

import pytest
from fontTools.ttLib import TTFont

from scripts.subset_korean_font import FONTS, SOURCES, catalogue_hangul, ks_x_1001_syllables
from tests.browser.live import TIMEOUT_MS
from tournament import services


def test_the_subsets_hold_every_hangul_character_of_the_korean_catalogue():
    needed = catalogue_hangul() | ks_x_1001_syllables()
    for target in SOURCES.values():
        cmap = TTFont(FONTS / target).getBestCmap()
        missing = sorted(ch for ch in needed if ord(ch) not in cmap)
        assert not missing, (f"{target} lacks {''.join(missing[:20])}: run "
                             "python scripts/subset_korean_font.py")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_korean_pages_use_the_web_font(server, browser, arbiter):
    fonts = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True).stdout
    if fonts.strip():
        pytest.skip("this machine has a Korean font; the test needs one without")
    event = services.create_event(name="Seoul Open", arbiter=arbiter, rounds_planned=7)
    services.add_player(event, name="Min-jun Kim")
    page = browser.new_page()
    page.goto(f"{server.url}/e/{event.slug}/standings/", timeout=TIMEOUT_MS)
    page.evaluate("document.cookie = 'django_language=ko; path=/'")  # the footer's switch
    page.goto(f"{server.url}/e/{event.slug}/standings/", wait_until="networkidle",
              timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "ko"
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate("""() => [...document.fonts].filter(f => f.status === 'loaded')
                               .map(f => f.family + ' ' + f.weight)""")
    assert any("Nanum Gothic Web" in face for face in loaded), loaded
    assert page.evaluate("document.fonts.check('16px \"Nanum Gothic Web\"', '순위')")
    assert any(face == "Nanum Gothic Web 700" for face in loaded), loaded  # headings, buttons
    assert page.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily"
                         ).startswith('"Nanum Gothic Web"')
