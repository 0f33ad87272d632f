"""Shared pytest configuration.

Browser tests (marker ``browser``) need Debian's chromium and Python Playwright. Without them
they are skipped with a reason that says how to get them; with ``REQUIRE_BROWSER=1`` (CI)
a missing browser is an error instead of a skip.
"""

import gc
import json
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
WEIGHTS = Path(__file__).with_name("weights.json")
"""Each long test's measured seconds, by id (``make test PYTEST_ARGS=--record-weights`` on
a quiet machine measures them again)."""


def browser_missing_reason() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return "Debian chromium is not installed: run `apt-get install chromium` to enable"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python Playwright is missing: `pip install -r requirements-dev.txt`"
    return None


def pytest_addoption(parser):
    parser.addoption("--record-weights", action="store_true",
                     help=f"write each test's measured time (over a second) to {WEIGHTS.name}, "
                          "the order the next runs start them in")


def pytest_configure(config):
    """CI's refusal to run without a browser, said once before anything starts (here rather
    than at collection, which pytest-xdist does in its workers, where an error is a crash)."""
    reason = browser_missing_reason()
    if reason is not None and os.environ.get("REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"browser tests are required (REQUIRE_BROWSER=1) but {reason}")
    if config.getoption("--record-weights") and not os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(_WeightRecorder(), "weight-recorder")


#: The folders of the pure cores' tests (the rules engine, pairing, standings, the dealt game,
#: the golden records): no database, no channel layer, no cache, so they take the same path on
#: any configuration, and CI's second pass (the suite again on PostgreSQL + Redis) leaves them
#: out by their marker, ``pure_core``. pytest-django refuses them the database; a test here
#: that asks for it is an error at collection, not a silent skip on PostgreSQL.
PURE_CORE = ("tests/engine/", "tests/pairing/", "tests/standings/", "tests/dealt/",
             "tests/golden/")
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "client",
                     "admin_client", "live_server", "django_db_serialized_rollback"}


@pytest.hookimpl(specname="pytest_collection_modifyitems", tryfirst=True)
def pytest_collection_modifyitems_pure_cores(items) -> None:
    """Marked before ``-m`` chooses (CI's second pass chooses by this marker; pytest takes
    only hooks whose names start with ``pytest_``, ``specname`` says which this is)."""
    _mark_pure_cores(items)


def _mark_pure_cores(items) -> None:
    for item in items:
        if not item.nodeid.startswith(PURE_CORE):
            continue
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(
                getattr(item, "fixturenames", ())):
            raise pytest.UsageError(f"{item.nodeid} uses the database: it belongs outside the "
                                    f"pure cores' folders ({', '.join(PURE_CORE)})")
        item.add_marker(pytest.mark.pure_core)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests are skipped without a browser; the longest tests run first.

    The stories (whole events through the pages, tens of seconds each) and the browser tests
    are a tenth of the tests and most of the time: started first, longest first by their
    measured time (``tests/weights.json``), they are spread over the workers while the many
    short tests fill the gaps at the end, instead of one worker finishing a long story alone
    (``make test`` on two cores: ``--dist worksteal``). A test not measured yet weighs what its
    kind usually takes. Dealt after ``-m`` and ``-k`` chose (this hook runs last): dealt
    before, the tests they leave out unbalanced the shares."""
    weights = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
    items[:] = _dealt(sorted(items, key=lambda item: -weights.get(item.nodeid,
                                                                  _usual_weight(item))),
                      int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    reason = browser_missing_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_collection_finish(session):
    """The suite's processes keep their collector out of the way, as the product's workers do
    (``tournament.site.worker_gc``): what collection loaded (Django, the apps, every test
    module) is frozen and never traced again, and a young collection waits for 10,000 new
    objects, not 700. The pages a story opens make objects by the hundred thousand, and
    Python's defaults spent about a tenth of a story's CPU tracing them (gc.callbacks)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def _dealt(items: list, workers: int) -> list:
    """``items`` (heaviest first) dealt like cards to ``workers`` hands, one after the other.

    pytest-xdist's work stealing gives each worker an equal count of the collection, in
    order, and an idle worker then takes the last half of a busy one's share: so each share
    must hold its part of the long tests at its start, not the first worker all of them. A
    snake deal (1, 2, 2, 1, 1, 2...) keeps the shares' weights even and their sizes within
    one, the smaller first, as the scheduler cuts them."""
    if workers <= 1:
        return items
    hands: list[list] = [[] for _ in range(workers)]
    for index, item in enumerate(items):
        turn, seat = divmod(index, workers)
        hands[seat if turn % 2 == 0 else workers - 1 - seat].append(item)
    return [item for hand in sorted(hands, key=len) for item in hand]


def _usual_weight(item) -> float:
    """Seconds a test not in ``weights.json`` is taken to last: a story 20, a browser test 10,
    the rest none (a stable sort keeps their order)."""
    if f"{os.sep}scenarios{os.sep}" in str(item.path):
        return 20.0
    return 10.0 if "browser" in item.keywords else 0.0


class _WeightRecorder:
    """``--record-weights``: each test's time, set-up and tear-down included, as the
    controlling process hears the workers report it, written to ``weights.json`` at the end."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    def pytest_runtest_logreport(self, report) -> None:
        self.times[report.nodeid] = self.times.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        """Merged into the file: a run of a few tests updates those only."""
        weights = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
        for nodeid, seconds in self.times.items():
            if seconds >= 1.0:
                weights[nodeid] = round(seconds, 1)
            else:
                weights.pop(nodeid, None)
        WEIGHTS.write_text(json.dumps(dict(sorted(weights.items())), indent=0,
                                      ensure_ascii=False) + "\n")


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
