"""How the benchmarks report: percentiles of latencies, each worker's CPU, and the machine's
speed at the moment (``reference_ms``), printed beside every figure."""

from __future__ import annotations

import json
import time


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def latency_text(values: list[float]) -> str:
    """``p50 …, p95 …, p99 …, max …`` of latencies in ms, as the benchmarks print them."""
    return (f"p50 {percentile(values, 50):.1f}, p95 {percentile(values, 95):.1f}, "
            f"p99 {percentile(values, 99):.1f}, max {max(values, default=float('nan')):.1f}")


def cpu_text(cpu: list[float], wall: float) -> str:
    """Each worker's CPU as a share of one core over ``wall`` seconds."""
    return ("server CPU: " + ", ".join(f"worker {i + 1} {c / wall * 100:.0f}%"
                                       for i, c in enumerate(cpu))
            + f" of one core over {wall:.0f} s")


REFERENCE_SNAPSHOT = {
    "version": 1, "server_time_ms": 1000, "status": "running_a", "running": "A", "turn": "A",
    "paused": False, "press_number": 0, "epoch": 1, "turn_elapsed_ms": 1000,
    "compensated_ms": 0, "remaining_ms": {"A": 599000, "B": 600000}, "delay_left_ms": 0,
    "deadline_ms": 600000, "flags": {"A": None, "B": None}, "finished": None,
    "time_control": "600",
}


def reference_ms() -> float:
    """The CPU time of one fixed piece of pure Python (additions and a clock snapshot encoded
    to JSON, the interpreter's everyday work), fastest of three tries: how fast this machine
    ran when the benchmark did. Machines of one kind, and one machine from one minute to the
    next, differ by up to three times (docs/benchmarks.md), and every CPU figure with them, so
    the benchmarks print it beside their figures. Its snapshot is written out as the clock
    wrote it in December 2026: a reference that followed the clock's code would move when the
    snapshot grew, and figures of two versions would no longer compare."""
    snapshot = REFERENCE_SNAPSHOT
    tries = []
    for _try in range(3):
        began, total = time.process_time(), 0
        for n in range(200_000):
            total += n
        for _n in range(5_000):
            json.dumps(snapshot)
        tries.append((time.process_time() - began) * 1000)
    return min(tries)
