"""The arbiter's guide (``docs/arbiter-guide.md``) as a page of the product.

The guide lives in the repository as Markdown, so it reads well where the code is published;
at the venue there may be no internet, so the server renders the same file and serves the
screenshots it shows from ``docs/images``. The guide's images are relative links
(``images/guide-….png``): under ``/guide/`` they resolve to ``/guide/images/…``, the view below,
so one file serves both readers without rewriting.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

DOCS = Path(settings.BASE_DIR) / "docs"
GUIDE = DOCS / "arbiter-guide.md"
IMAGES = DOCS / "images"
#: Image names the guide may use: plain lowercase names, so no path ever leaves docs/images.
IMAGE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,80}\.png")


@lru_cache(maxsize=2)
def _rendered(mtime_ns: int) -> tuple[str, str]:
    """(title, HTML) of the guide; keyed by the file's mtime, so an edit shows at once."""
    converter = markdown.Markdown(extensions=["tables", "fenced_code", "toc"])
    html = converter.convert(GUIDE.read_text(encoding="utf-8"))
    # a table scrolls inside its frame on a phone, as every table of the site does, never the page
    html = html.replace("<table>", '<div class="table-wrap"><table>')
    html = html.replace("</table>", "</table></div>")
    tokens = converter.toc_tokens
    return (tokens[0]["name"] if tokens else ""), html


def guide_html() -> tuple[str, str]:
    """The guide's title and body, rendered from the Markdown file of the repository."""
    return _rendered(GUIDE.stat().st_mtime_ns)


@require_GET
def guide(request):
    """Public like the docs it renders: it holds no event data, only how the pages work."""
    title, html = guide_html()
    return render(request, "tournament/guide.html", {"title": title, "html": mark_safe(html)})


@require_GET
def guide_image(request, name: str):
    if not IMAGE_NAME.fullmatch(name) or not (IMAGES / name).is_file():
        raise Http404(name)
    response = FileResponse((IMAGES / name).open("rb"), content_type="image/png")
    response["Cache-Control"] = "public, max-age=3600"
    return response
