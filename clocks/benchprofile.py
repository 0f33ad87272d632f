"""``bench_clocks --profile``: where a worker's CPU goes under the benchmark, per press.

py-spy samples each worker process from outside (no code in the worker changes, so the profile
measures the code as deployed) for the whole press phase, at ``RATE`` samples a second, idle
threads left out: a sample is a moment a thread was on the CPU. Native frames are included so
that the garbage collector (``gc_collect_main``, which runs inside whatever Python code
allocated) is seen at all. Each sample is put in the first category of ``CATEGORIES`` whose
pattern one of its frames matches, innermost frame first, so that JSON encoding called from the
channel layer counts as JSON, and a garbage collection anywhere counts as one. The samples of
a category divided by the rate and the presses accepted give its milliseconds per press.

The raw stacks stay in the folder given (``worker-N.txt``, py-spy's collapsed format, one
stack and its count per line): ``flamegraph.pl`` or speedscope draw them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

RATE = 250  # samples a second per thread; py-spy's default is 100

#: (category, frame pattern): the first match from the innermost frame outwards wins.
CATEGORIES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(pattern)) for name, pattern in [
        ("garbage collection", r"gc_collect|collect_with_callback|_PyGC_|gc_collect_main"),
        ("JSON encode/decode", r"\(json/|orjson|json_input\.py|read_json"),
        ("SQL and the database driver", r"\(psycopg|django/db/|clocks/rows\.py|sqlite3"),
        ("clock core", r"\(clocks/core/"),
        ("channel layer (Redis publish, receive)", r"channels_redis|\(redis/|msgpack"),
        ("token re-check, press guards", r"\(clocks/access\.py|games/.*guard"),
        ("hall batching", r"_flush_soon|HallConsumer"),
        ("thread hops (asgiref, executor)", r"\(asgiref/|concurrent/futures|threading\.py"
                                            r"|close_old_connections"),
        ("websocket frames (daphne, autobahn, twisted)", r"\(autobahn/|\(twisted/|\(daphne/"
                                                         r"|txaio"),
        ("clock services (lock, log, publish)", r"\(clocks/"),
        ("channels consumers and dispatch", r"\(channels/"),
        ("asyncio event loop", r"\(asyncio/|uvloop|selectors\.py|epoll"),
    ]
]
OTHER = "other"

#: Native frames of a thread that waits (for the network, a lock, the GIL): with native frames
#: py-spy cannot tell idle threads itself, so a sample with one of these among its innermost
#: frames is left out.
WAITING = re.compile(r"^(epoll_wait|poll|select|PyThread_acquire_lock_timed|pthread_cond_"
                     r"(timed)?wait|sem_(timed)?wait|take_gil|__futex|futex) ")


def _binary() -> str | None:
    """py-spy from this virtualenv (requirements-dev.txt), else from the PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


def available() -> bool:
    return _binary() is not None


def start(pid: int, seconds: float, out: Path) -> subprocess.Popen:
    """Sample process ``pid`` for ``seconds`` into ``out`` (collapsed stacks)."""
    return subprocess.Popen(
        [_binary() or "py-spy", "record", "--pid", str(pid),
         "--duration", str(max(1, round(seconds))), "--rate", str(RATE), "--format", "raw",
         "--nonblocking", "--gil", "--output", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def categorize(stacks: str) -> Counter[str]:
    """Samples per category of one collapsed-stack file's text."""
    counts: Counter[str] = Counter()
    for line in stacks.splitlines():
        stack, _space, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if not any(WAITING.match(frame) for frame in frames[-3:]):
            counts[_category(frames)] += int(count)
    return counts


def _category(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, pattern in CATEGORIES:
            if pattern.search(frame):
                return name
    return OTHER


def breakdown(files: list[Path], presses: int) -> list[tuple[str, float, float]]:
    """(category, ms per press, share) over every worker's samples, largest first."""
    counts: Counter[str] = Counter()
    for file in files:
        if file.exists():
            counts += categorize(file.read_text(errors="replace"))
    total = sum(counts.values()) or 1
    return [(name, samples / RATE * 1000 / max(1, presses), samples / total)
            for name, samples in counts.most_common()]
