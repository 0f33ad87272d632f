"""Where a self-running event meets the flag timer and the pairing engine: a long automatic
step never holds up the flags, and a round's pairing and its check ask the engine once."""

import threading
import time

import pytest

from clocks import flagtimer
from tournament.pairing import engines


@pytest.mark.django_db
def test_runs_itself_in_a_thread_of_its_own_beside_the_flags(monkeypatch):
    release, started, runs = threading.Event(), threading.Event(), []

    def long_step():  # pairing a thousand players: most of a minute
        runs.append(threading.current_thread().name)
        started.set()
        release.wait(10)

    monkeypatch.setattr(flagtimer, "_tick_listeners", {"slow": long_step})
    monkeypatch.setattr(flagtimer._ListenerThread, "_running", {})
    monkeypatch.setattr(flagtimer, "LISTENER_EVERY_S", 0)
    flagtimer.tick(background=True)  # returns at once: the flags are not held up
    assert started.wait(5)
    flagtimer.tick(background=True)  # while it runs: one more run afterwards, not one each
    flagtimer.tick(background=True)
    assert runs == ["tick-slow"]
    release.set()
    deadline = time.monotonic() + 5
    while len(runs) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    assert runs == ["tick-slow", "tick-slow"]  # the same thread, kept between ticks
    flagtimer.tick()  # the tests' and the simulation's own ticks run the listeners in line
    assert runs[-1] == threading.current_thread().name
    monkeypatch.setattr(flagtimer, "LISTENER_EVERY_S", 60)
    flagtimer.tick(background=True)  # ticks every few milliseconds near a flag: the thread
    flagtimer.tick(background=True)  # woken moments ago is not woken again
    time.sleep(0.2)
    assert runs.count("tick-slow") == 2


def test_runs_itself_pairing_and_its_check_ask_the_engine_once(monkeypatch):
    asked = []
    monkeypatch.setattr(engines, "_answers", engines.OrderedDict())
    monkeypatch.setattr(engines.ExternalEngine, "_run",
                        lambda self, trf: asked.append(trf) or [(1, 2)])
    engine = engines.ExternalEngine("bbp")
    assert engine.pair("TRF one") == [(1, 2)] and engine.pair("TRF one") == [(1, 2)]
    assert asked == ["TRF one"]
    engine.pair("TRF two")
    engines.ExternalEngine("another program").pair("TRF one")
    assert asked == ["TRF one", "TRF two", "TRF one"]
    for n in range(engines.ANSWERS_KEPT + 1):
        engine.pair(f"filler {n}")
    engine.pair("TRF one")  # long forgotten: asked again
    assert asked.count("TRF one") == 3


def test_runs_itself_a_pairing_asked_while_the_same_file_is_paired_waits_for_that_answer(
        monkeypatch):
    """The real pairing of a round whose pairing ahead of time is still running does not
    start the program a second time (two at once on two cores would slow both); if that run
    fails, it runs the program itself."""
    asked, release = [], threading.Event()
    monkeypatch.setattr(engines, "_answers", engines.OrderedDict())

    def slow(self, trf):
        asked.append(trf)
        release.wait(5)
        if trf == "fails":
            raise engines.EngineError("the program crashed")
        return [(1, 2)]

    monkeypatch.setattr(engines.ExternalEngine, "_run", slow)
    engine = engines.ExternalEngine("bbp")
    answers = []
    ahead = threading.Thread(target=lambda: answers.append(engine.pair("TRF")))
    ahead.start()
    while not asked:
        time.sleep(0.01)
    now = threading.Thread(target=lambda: answers.append(engine.pair("TRF")))
    now.start()
    time.sleep(0.1)
    release.set()
    ahead.join(5), now.join(5)
    assert asked == ["TRF"] and answers == [[(1, 2)], [(1, 2)]]

    release.clear()
    refusals = []

    def pair_failing():
        try:
            engine.pair("fails")
        except engines.EngineError as exc:
            refusals.append(str(exc))

    failed = threading.Thread(target=pair_failing)
    failed.start()
    while asked.count("fails") < 1:
        time.sleep(0.01)
    again = threading.Thread(target=pair_failing)
    again.start()
    time.sleep(0.1)
    release.set()
    failed.join(5), again.join(5)
    assert asked.count("fails") == 2  # the waiting asker ran it itself
    assert refusals == ["the program crashed"] * 2


def test_runs_itself_a_pairing_ahead_of_time_runs_at_a_lower_priority(tmp_path):
    program = tmp_path / "engine.sh"  # "pairs" player (its niceness + 1) with the bye
    program.write_text('#!/bin/sh\nprintf "1\\n%d 0\\n" $(( $(nice) + 1 )) > "$4"\n')
    program.chmod(0o755)
    engine = engines.ExternalEngine(str(program))
    assert engine._run("TRF") == [(1, 0)]
    with engines.in_background("test"):
        assert engine._run("TRF") == [(engines.BACKGROUND_NICENESS + 1, 0)]
    assert engine._run("TRF") == [(1, 0)]


def test_runs_itself_runs_ahead_no_longer_wanted_are_stopped(tmp_path):
    program = tmp_path / "engine.sh"
    program.write_text("#!/bin/sh\nsleep 30\n")
    program.chmod(0o755)
    engine, failed = engines.ExternalEngine(str(program)), []

    def ahead():
        with engines.in_background("event 7"):
            try:
                engine._run("TRF")
            except engines.EngineError as exc:
                failed.append(str(exc))

    thread = threading.Thread(target=ahead)
    began = time.monotonic()
    thread.start()
    while not engines._background_runs.get("event 7"):
        time.sleep(0.01)
    assert engines.stop_background("event 8") == 0
    assert engines.stop_background("event 7") == 1
    thread.join(5)
    assert time.monotonic() - began < 5 and "failed with status -9" in failed[0]
