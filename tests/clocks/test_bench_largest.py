"""``bench_clocks --largest``: the search for the largest hall, with the runs replaced by a
hall whose p99 grows with its size (what a size costs is measured, never asserted here)."""

import io

import pytest

from bench.management.commands.bench_clocks import Command


def search(start: int, step: int, ms_per_board: float) -> tuple[list[int], str]:
    tried: list[int] = []

    def run(options: dict) -> tuple[float, int]:
        assert options["spectators"] == options["boards"]
        tried.append(options["boards"])
        return options["boards"] * ms_per_board, 0

    out = io.StringIO()
    command = Command(stdout=out)
    command.run = run
    command.largest({"boards": start, "largest": step})
    return tried, out.getvalue().splitlines()[-1]


@pytest.mark.parametrize(("start", "step", "ms_per_board", "tried", "largest"), [
    # up by the step while held, then halving between 1,200 (held) and 1,400 (not)
    (1000, 200, 0.08, [1000, 1200, 1400, 1300, 1250], "1200 boards"),
    # the first size is not held: down by the step until one is, then between
    (1000, 200, 0.2, [1000, 800, 600, 400, 500, 450], "450 boards"),
    (200, 200, 1.0, [200], "none of the sizes tried"),
])
def test_the_largest_hall_is_found_to_a_quarter_of_the_step(start, step, ms_per_board, tried,
                                                            largest):
    runs, last = search(start, step, ms_per_board)
    assert runs == tried
    assert last.startswith("largest hall held (p99 under 100 ms, nothing lost): ")
    assert last.endswith(largest)


def test_a_hall_that_loses_a_delivery_is_not_held():
    out = io.StringIO()
    command = Command(stdout=out)
    command.run = lambda options: (10.0, 0 if options["boards"] < 300 else 1)
    command.largest({"boards": 100, "largest": 100})
    assert "200 boards: p99 10.0 ms, lost 0: held" in out.getvalue()
    assert "300 boards: p99 10.0 ms, lost 1: not held" in out.getvalue()
    assert out.getvalue().splitlines()[-1].endswith("275 boards")
