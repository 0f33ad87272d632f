"""Pairing ahead of time (``autopilot.pair_ahead``): while one game of the round is left, the
next round is paired for each of its outcomes, so that the real pairing, made from the stored
results once the game ends, is answered from the engine's memory; a change meanwhile (an
absence asked) only means the real pairing runs the engine itself."""

import pytest

from autopilot import pair_ahead, runner
from autopilot import services as autopilot
from autopilot.models import Autopilot
from games.models import OnlineGame
from games.online import play as online
from tests.autopilot.helpers import MINUTE, make_event, resign_all, tick
from tournament import services
from tournament.models import Event, Round
from tournament.pairing import engines

pytestmark = [pytest.mark.django_db, pytest.mark.skipif(
    not engines.bbpairings_program().is_file(),
    reason="bbpPairings is not built (make setup builds it)")]


@pytest.fixture
def engine_runs(monkeypatch, settings):
    """The files bbpPairings was started on, the memory of its answers emptied."""
    settings.AUTOPILOT_PAIR_AHEAD = True
    monkeypatch.setattr(engines, "_answers", engines.OrderedDict())
    monkeypatch.setattr(pair_ahead, "_asked", set())
    monkeypatch.setattr(pair_ahead, "_submit", lambda function, *args: function(*args))
    started = []
    run = engines.ExternalEngine._run

    def counted(self, trf):
        started.append(trf)
        return run(self, trf)

    monkeypatch.setattr(engines.ExternalEngine, "_run", counted)
    return started


def _to_the_last_game(clock_time, event, engine_runs, *, absent=None) -> OnlineGame:
    """Round 1 played but board 1 (``absent``'s board forfeited after the waiting time); the
    engine's runs counted from there."""
    tick(clock_time, 10 * MINUTE)
    engine_runs.clear()  # round 1's pairing
    boards = event.rounds.get(number=1).boards
    skip = {1} | {b.number for b in boards.all() if absent is not None
                  and absent.pk in (b.first_id, b.second_id)}
    resign_all(event, 1, skip=skip)
    last = OnlineGame.objects.get(board__round__event=event, board__round__number=1,
                                  board__number=1)
    for seat in ("A", "B"):
        online.note_seen(last, seat)
    if absent is not None:
        missing = OnlineGame.objects.get(board__round__event=event, board__round__number=1,
                                         board__number=max(skip))
        online.note_seen(missing, "A" if missing.board.second_id == absent.pk else "B")
        tick(clock_time, 5 * MINUTE)  # its forfeit, recorded automatically
    return last


def test_runs_itself_pairs_the_next_round_ahead_for_each_outcome_of_the_last_game(
        clock_time, engine_runs):
    event = make_event(clock_time, players=10, rounds=3, missed_games_limit=1)
    absent = event.players.get(name="Player 10")
    last = _to_the_last_game(clock_time, event, engine_runs, absent=absent)
    pilot = Autopilot.objects.get(event=event)
    runner.advance(pilot.pk)  # (the tick that recorded the forfeit asked already)
    assert len(engine_runs) == 3  # win, loss, draw: three files
    runner.advance(pilot.pk)
    assert len(engine_runs) == 3  # asked once per game
    assert online.play(last, "B", {"move": "resign"}).error is None
    tick(clock_time, 1000)  # round 1 closes
    tick(clock_time, 5 * MINUTE)  # round 2 is due
    round_2 = event.rounds.get(number=2)
    assert round_2.status == Round.Status.PUBLISHED
    assert len(engine_runs) == 3  # the pairing and its check: both from the engine's memory
    absent.refresh_from_db()
    assert absent.withdrawn_after_round == 1
    assert not round_2.boards.filter(first=absent).exists()
    assert not round_2.boards.filter(second=absent).exists()


def test_runs_itself_pairs_anew_what_changed_after_the_pairing_ahead(clock_time, engine_runs):
    """An absence asked after the last game's three runs makes them stale: the closed round's
    break asks again from the stored results, and the real pairing five minutes later is
    answered from that run."""
    event = make_event(clock_time, players=8, rounds=3)
    last = _to_the_last_game(clock_time, event, engine_runs)
    pilot = Autopilot.objects.get(event=event)
    runner.advance(pilot.pk)
    assert len(engine_runs) == 3
    player = event.players.get(name="Player 03")
    autopilot.ask_absence(player, 2)
    assert online.play(last, "A", {"move": "resign"}).error is None
    tick(clock_time, 1000)  # round 1 closes; round 2 is due in five minutes
    assert event.rounds.get(number=1).status == Round.Status.CLOSED
    assert len(engine_runs) == 4  # the break: round 2 asked as the results stand
    tick(clock_time, 5 * MINUTE)
    round_2 = event.rounds.get(number=2)
    assert len(engine_runs) == 4  # the pairing and its check from that run
    assert not round_2.boards.filter(first=player).exists()
    assert not round_2.boards.filter(second=player).exists()
    assert pair_ahead.pair_assuming(event.pk, 2, last.board_id, pair_ahead.OUTCOMES[0],
                                    frozenset()) is False  # paired: nothing asked


def test_runs_itself_pairs_round_one_ahead_once_registration_has_closed(clock_time,
                                                                        engine_runs):
    """Registration closes a minute before round 1: its pairing is asked then, with the
    pairing numbers round 1 will settle (by rating, not as the players registered), and round
    1 is paired and checked at its time from that run."""
    event = make_event(clock_time, players=9, rounds=3)
    services.add_player(event, name="Late Strong", rating=2400)  # registered last, seeded 1st
    tick(clock_time, 8 * MINUTE)
    assert engine_runs == []  # registration is still open
    tick(clock_time, MINUTE)  # registration closed; round 1 is a minute away
    assert len(engine_runs) == 1 and not event.rounds.exists()
    tick(clock_time, MINUTE)
    assert event.rounds.get(number=1).status == Round.Status.PUBLISHED
    assert len(engine_runs) == 1  # the pairing and its check from that run
    assert event.players.get(name="Late Strong").seed == 1


def test_runs_itself_does_not_pair_round_one_ahead_when_its_numbers_are_drawn_by_lot(
        clock_time, engine_runs):
    event = make_event(clock_time, players=8, rounds=3)
    Event.objects.filter(pk=event.pk).update(pairing_order=Event.PairingOrder.LOT)
    assert pair_ahead.pair_assuming(event.pk, 1, None, None, frozenset()) is False
    assert engine_runs == []  # the lot is drawn as round 1 is paired: nothing to ask before
