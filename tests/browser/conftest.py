"""The browser tests' fixtures: a live server, Debian's Chromium, an arbiter's account."""

from tests.browser.live import arbiter, browser, server  # noqa: F401  (fixtures)
