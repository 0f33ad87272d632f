"""Benchmark: the instructions one clock press costs this process.

Run: ``DATABASE_URL=postgres://… .venv/bin/python bench/scripts/bench_press_instructions.py
[--presses N]`` (Debian's valgrind). A press from the board's device as the board page sends it
(what the device measured, on the link the server heard), as a press thread runs it: the token,
the guards and the device keeping the clock (``access.PressVet``), the lock, the core's
reconciliation, the update and its log entry, on ``DATABASE_URL``'s database (migrated; an
event is made and deleted). Publishing is left out, as is the server around it
(``bench_clocks`` measures those end to end).

Why instructions: on a machine whose speed moves by half from one minute to the next (the
2-core machines of this project, docs/benchmarks.md), CPU times of two versions of the code
differ by more than the change between them. ``valgrind --tool=callgrind`` counts the
instructions the process executes, which do not depend on the machine's speed or on what else
runs: the same code gives the same count within a few hundredths of a percent. The count is
switched on only around the presses (``callgrind_control``), after Django has started and the
statements have been prepared, so it is N presses and nothing else. The database server's own
work is not counted.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARDS = 10


def child(presses: int, signals: Path) -> None:
    """Under valgrind: set up, say so, wait for the count to start, press, say so."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from bench.events import create_clock_event, delete_event
    from clocks import access, holder, services
    from clocks.models import Clock

    services.publish = lambda *args, **kwargs: None  # this process runs no server to send to
    round_ = create_clock_event(BOARDS, slug=f"bench-ir-{int(time.time())}")
    services.start_round(round_, who="bench")
    boards = list(round_.boards.select_related("round__event").filter(second__isnull=False))
    tablet = holder.device_key("benchtablet000000001")
    Clock.objects.filter(board__in=boards).update(holder=tablet)  # as its first page took it

    began = dict.fromkeys(boards, services.now_ms())  # each board's turn, on the device's clock

    def press(number: int) -> None:
        for board in boards:
            now = services.now_ms()
            elapsed, began[board] = max(0, now - began[board] - 20), now  # 20 ms on the way
            # a ping half a second before: a live link, no silence; epoch 1: started
            measured = services.Measured(elapsed, 1)
            outcome = services.press(board, "AB"[number % 2], number, who="player",
                                     measured=measured,
                                     vet=access.PressVet(board.token, device=tablet))
            assert outcome.press is not None, outcome.ignored

    try:
        press(0)  # statements prepared, caches filled: not counted
        (signals / "ready").touch()
        while not (signals / "go").exists():
            time.sleep(0.1)
        for number in range(1, presses // BOARDS + 1):
            press(number)
        (signals / "done").touch()
        while (signals / "go").exists():
            time.sleep(0.1)
    finally:
        delete_event(round_)


def _wait_for(path: Path, process: subprocess.Popen) -> None:
    while not path.exists():
        if process.poll() is not None:
            sys.exit(f"the measured process ended early:\n{process.stdout.read()}")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=200,
                        help=f"presses counted (a multiple of {BOARDS})")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.presses, args.child)
    with tempfile.TemporaryDirectory(prefix="bench-ir-") as folder:
        signals, out = Path(folder), Path(folder) / "callgrind.out"
        process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}", sys.executable, __file__,
             "--presses", str(args.presses), "--child", str(signals)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        _wait_for(signals / "ready", process)
        subprocess.run(["callgrind_control", "--instr=on", str(process.pid)], check=True,
                       capture_output=True)
        (signals / "go").touch()
        _wait_for(signals / "done", process)
        subprocess.run(["callgrind_control", "--instr=off", str(process.pid)], check=True,
                       capture_output=True)
        (signals / "go").unlink()
        log = process.communicate()[0]
        if process.returncode:
            sys.exit(f"the measured process failed:\n{log}")
        totals = re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)
    if totals is None:
        sys.exit("callgrind wrote no summary")
    counted = args.presses // BOARDS * BOARDS
    print(f"database: {os.environ.get('DATABASE_URL', 'the embedded SQLite')}")
    print(f"presses counted: {counted}")
    print(f"instructions per press: {int(totals.group(1)) / counted / 1e6:.3f} million")


if __name__ == "__main__":
    main()
