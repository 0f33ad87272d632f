"""The arbiter's guide (docs/arbiter-guide.md): served by the product, every picture it shows
exists, and what it names (headings, addresses, button labels) exists in the product, so the
guide cannot silently drift from the pages it describes.

Button and field names are written in bold in the guide; each must be a string the pages show:
a message of the catalogues (the English msgid, placeholders allowed) or a literal of a template.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import Resolver404, resolve, reverse

from tournament.views.guide import GUIDE, IMAGE_NAME, IMAGES, guide_html

TEXT = GUIDE.read_text(encoding="utf-8")
IMAGE_LINKS = re.findall(r"!\[[^\]]*\]\(images/([^)\s]+)\)", TEXT)
PNG = b"\x89PNG\r\n\x1a\n"
#: What a placeholder of a message or a template stands for in the guide's text.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\{ *\w+ *\}\}")


def _shown_strings() -> tuple[list[re.Pattern], str]:
    """The catalogue's English messages as patterns, and the text of every template."""
    language = next(code for code, _name in settings.LANGUAGES if code != "en")
    patterns = []
    for domain in ("django", "djangojs"):
        po = polib.pofile(str(Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES"
                              / f"{domain}.po"))
        for entry in po:
            for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
                parts = PLACEHOLDER.split(msgid)
                patterns.append(re.compile(".+?".join(map(re.escape, parts)), re.I))
    templates = "\n".join(p.read_text(encoding="utf-8")
                          for p in (Path(settings.BASE_DIR) / "templates").rglob("*.html"))
    return patterns, templates


def test_the_guide_page_renders_with_its_screenshots(client):
    response = client.get(reverse("arbiter_guide"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 id="arbiters-guide">Arbiter\'s guide</h1>' in html
    assert "<title>Arbiter&#x27;s guide · " in html
    assert '<img alt="The new event form" src="images/guide-new-event.png"' in html
    # its tables scroll in their frame on a phone, like every table of the site
    assert html.count("<table>") == html.count('<div class="table-wrap"><table>') > 0
    # The relative image link resolves under /guide/ to the view that serves docs/images.
    image = client.get(reverse("arbiter_guide") + "images/guide-new-event.png")
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"
    assert b"".join(image.streaming_content).startswith(PNG)


def test_the_arbiter_menu_and_the_home_page_link_to_the_guide(arbiter_client, event):
    link = f'href="{reverse("arbiter_guide")}"'
    for page in (reverse("arbiter_dashboard", args=[event.slug]),
                 reverse("arbiter_players", args=[event.slug]), reverse("home")):
        assert link in arbiter_client.get(page).content.decode(), page


def test_every_image_the_guide_shows_exists_and_can_be_served():
    assert len(IMAGE_LINKS) >= 10
    for name in IMAGE_LINKS:
        assert IMAGE_NAME.fullmatch(name), f"{name}: the guide page cannot serve this name"
        assert (IMAGES / name).is_file(), f"docs/images/{name} is missing: run the scripts"


def test_every_guide_screenshot_is_shown_by_the_guide():
    """The script writes docs/images/guide-*.png for the guide: none may be left unused."""
    written = {path.name for path in IMAGES.glob("guide-*.png")}
    assert written and written <= set(IMAGE_LINKS), written - set(IMAGE_LINKS)


@pytest.mark.parametrize("name", ["../arbiter-guide.md", "missing.png", "Page.png",
                                  "guide-new-event.svg", "..%2Farbiter-guide.md"])
def test_the_image_view_serves_nothing_else(client, name):
    assert client.get(reverse("arbiter_guide") + "images/" + name).status_code == 404


def test_every_link_inside_the_guide_leads_to_one_of_its_headings():
    _title, html = guide_html()
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', html))
    anchors = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert len(anchors) >= 15
    assert set(anchors) <= ids, set(anchors) - ids


def test_every_address_the_guide_names_is_a_page_of_the_product():
    paths = re.findall(r"`(/[^`\s]*)`", TEXT)
    assert len(paths) >= 5
    for path in paths:
        concrete = re.sub(r"<[^>]+>", "AbCdEfGhIjKlMnOp", path)
        try:
            resolve(concrete)
        except Resolver404:
            pytest.fail(f"the guide names {path}, which no URL pattern serves")


def test_every_label_in_bold_is_a_string_the_pages_show():
    labels = {" ".join(label.split()) for label in re.findall(r"\*\*(.+?)\*\*", TEXT, re.S)}
    assert len(labels) >= 60
    patterns, templates = _shown_strings()
    unknown = [label for label in sorted(labels)
               if label not in templates
               and not any(p.fullmatch(label) for p in patterns)]
    assert not unknown, f"the guide names buttons or fields the pages do not show: {unknown}"
