"""``bench_clocks --profile``: where a worker's CPU goes under the benchmark, per press.

py-spy samples each worker process from outside (no code in the worker changes, so the profile
measures the code as deployed) for the whole press phase, at ``RATE`` samples a second, without
stopping it (``--nonblocking``) and only while a thread holds the GIL (``--gil``): a sample is a
moment Python code ran, not a thread waiting for the database or the network. Each sample is
put in the category of the innermost frame that one of ``CATEGORIES`` names (the first pattern
in the list wins for that frame), so that JSON encoding called from the channel layer counts as
JSON. The samples of a category divided by the rate and the presses accepted give its
milliseconds per press. What the samples miss, the kernel's work for the sockets and the C code
that runs without the GIL, is the gap to the measured CPU per press that ``bench_clocks``
prints beside it. The garbage collector runs inside whatever Python code allocated, so it is
counted there; ``tournament/site/worker_gc.py`` says how it was measured.

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
        ("JSON encode/decode", r"\(json/|orjson|json_input\.py|read_json"),
        ("SQL and the database driver", r"\(psycopg|django/db/|clocks/rows\.py|sqlite3"),
        ("clock core", r"\(clocks/core/"),
        ("channel layer (Redis publish, receive)", r"channels_redis|\(redis/|msgpack"),
        ("token re-check, press guards", r"\(clocks/access\.py|games/.*guard"),
        ("hall batching", r"_flush_soon|HallConsumer|hall_feed"),
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
        counts[_category(stack.split(";"))] += int(count)
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
