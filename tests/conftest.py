"""Shared pytest configuration.

Browser tests (marker ``browser``) need Debian's chromium and Python Playwright. Without them
they are skipped with a reason that says how to get them; with ``REQUIRE_BROWSER=1`` (CI)
a missing browser is an error instead of a skip.
"""

import os
import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"


def browser_missing_reason() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return "Debian chromium is not installed: run `apt-get install chromium` to enable"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python Playwright is missing: `pip install -r requirements-dev.txt`"
    return None


def pytest_configure(config):
    """CI's refusal to run without a browser, said once before anything starts (here rather
    than at collection, which pytest-xdist does in its workers, where an error is a crash)."""
    reason = browser_missing_reason()
    if reason is not None and os.environ.get("REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"browser tests are required (REQUIRE_BROWSER=1) but {reason}")


def pytest_collection_modifyitems(config, items):
    """Browser tests are skipped without a browser; the longest tests run first.

    The stories (whole events through the pages, tens of seconds each) and the browser tests
    are a fifth of the tests and most of the time: started first, they are spread over the
    workers while the many short tests fill the gaps at the end, instead of one worker
    finishing a long story alone (``make test`` on two cores: ``--dist worksteal``)."""
    items.sort(key=_weight)
    reason = browser_missing_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _weight(item) -> int:
    """0 for a story, 1 for a browser test, 2 for the rest (a stable sort keeps their order)."""
    path = str(item.path)
    if f"{os.sep}scenarios{os.sep}" in path:
        return 0
    return 1 if "browser" in item.keywords else 2


class _OneWindow:
    """A clock standing still at the start of every throttle's window (a whole number of
    hours): the fixed windows count from wall-clock time, and a test that sends 61 requests
    across a minute's turn saw its count start again and no 429 (once in CI)."""

    @staticmethod
    def time() -> float:
        return 1_800_000_000.0


@pytest.fixture(autouse=True)
def _fresh_throttles(monkeypatch):
    """Each test starts with empty throttle counters, all in one window of each throttle.

    Throttles count per board id in the cache; the database reuses ids after a test's rollback,
    so without this a test could inherit an earlier test's count and be refused (429). A test
    of a window's end passes its own ``now``.
    """
    from django.core.cache import cache  # here: Django is configured only once pytest-django ran

    from games import throttle as game_throttle
    from tournament.site import throttle as site_throttle

    cache.clear()
    for module in (game_throttle, site_throttle):
        monkeypatch.setattr(module, "time", _OneWindow)


@pytest.fixture(autouse=True)
def _press_threads_closed():
    """A test that pressed a clock through a board socket on PostgreSQL leaves the press
    threads' connections (``clocks.press_threads``) closed: the next test's database, and the
    test database's removal, must not meet them."""
    from clocks import press_threads  # here: see _fresh_throttles

    yield
    press_threads.close_connections()


@pytest.fixture(autouse=True)
def _language_of_the_test():
    """Each test starts in the default language, whatever the previous test's last request
    asked for: the locale middleware activates a request's language in the thread and leaves
    it there, so a Russian request would make later direct service calls speak Russian."""
    from django.utils import translation  # here: see _fresh_throttles

    yield
    translation.deactivate()


@pytest.fixture
def clock_time(monkeypatch):
    """The server's time (``clocks.services.now_ms``) as a hand-moved ``FakeTime``."""
    from clocks import services
    from tests.fake_time import FakeTime

    fake = FakeTime()
    monkeypatch.setattr(services, "now_ms", fake)
    return fake
