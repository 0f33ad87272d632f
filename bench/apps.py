"""The benchmarks' room: load generators, profilers and simulations of the product, apart from
the product's own apps (a reader of ``clocks/`` sees the clock, not its stopwatch).

Its management commands keep their names (``bench_clocks``, ``bench_online``, ``bench_engine``,
``bench_standings``, ``bench_pairing``, ``bench_autopilot``, ``simulate_online``); they share
one way to start servers (:mod:`bench.servers`), the benchmark event (:mod:`bench.events`) and
one way to report (:mod:`bench.figures`). docs/benchmarks.md has their figures. Nothing in the
product imports this app; it stands on all of them.
"""

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "bench"
    verbose_name = "Benchmarks"
