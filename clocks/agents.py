"""A device as the arbiter can recognise it across the hall: its browser and system, read from
the ``User-Agent`` its page's socket sent (``Chrome · Android``). Only for the hall's list of
devices asking to keep a board's clock (``clocks.holder``): a page may send anything there,
which is why the device's code (``holder.device_code``), shown on the asking page itself, is
what the arbiter matches.

>>> browser_of("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
...            "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")
'Chrome · Android'
>>> browser_of("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
...            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
'Safari · iPhone'
>>> browser_of("curl/8.5.0"), browser_of("")
('', '')
"""

from __future__ import annotations

import re

#: The first that matches names the browser: the order matters, since Edge and Samsung's
#: browser say "Chrome" too, and Chrome says "Safari".
_BROWSERS = (("Edge", r"Edg(e|A|iOS)?/"), ("Samsung Internet", r"SamsungBrowser/"),
             ("Opera", r"OPR/|Opera"), ("Firefox", r"Firefox/|FxiOS/"),
             ("Chrome", r"Chrome/|CriOS/|Chromium/"), ("Safari", r"Safari/"))
_SYSTEMS = (("Android", r"Android"), ("iPhone", r"iPhone"), ("iPad", r"iPad"),
            ("ChromeOS", r"CrOS"), ("Windows", r"Windows"), ("macOS", r"Macintosh|Mac OS X"),
            ("Linux", r"Linux"))


def _first(patterns: tuple[tuple[str, str], ...], agent: str) -> str:
    return next((name for name, pattern in patterns if re.search(pattern, agent)), "")


def browser_of(agent: str) -> str:
    """``browser · system`` as far as ``agent`` tells them ("" when it tells neither)."""
    agent = agent[:512]
    return " · ".join(part for part in (_first(_BROWSERS, agent), _first(_SYSTEMS, agent))
                      if part)
