"""The automation of a self-running event through its services (``autopilot.runner``): each
step at its time, no-shows forfeited and withdrawn, a failed step pausing, nothing twice."""

import pytest

from autopilot import runner
from autopilot import services as autopilot
from autopilot.models import Autopilot
from backups import automatic
from clocks import services as clock_services
from games.models import OnlineGame
from tests.autopilot.helpers import MINUTE, make_event, resign_all, tick
from tournament import services
from tournament.models import HistoryEntry, Result, Round

pytestmark = pytest.mark.django_db


def automatic_steps(event) -> list[str]:
    return [e.details["step"] for e in
            event.history.filter(action=HistoryEntry.Action.AUTOMATIC).order_by("at", "pk")]


def test_runs_itself_from_round_one_to_the_final_standings(clock_time,
                                                            django_capture_on_commit_callbacks):
    event = make_event(clock_time, players=8, rounds=3)
    tick(clock_time)
    assert not event.rounds.exists()  # round 1 is 10 minutes away
    tick(clock_time, 10 * MINUTE)
    round_1 = event.rounds.get()
    assert round_1.status == Round.Status.PUBLISHED
    games = OnlineGame.objects.filter(board__round=round_1)
    assert games.count() == 4
    assert all(clock_services.snapshot(g.board)["started_at_ms"] == clock_time.now
               for g in games)
    assert automatic_steps(event) == ["enabled", "paired", "published", "started"]
    tick(clock_time, 1000)
    assert event.rounds.count() == 1 and len(automatic_steps(event)) == 4  # nothing twice
    for number in (1, 2, 3):
        assert resign_all(event, number) == 4
        with django_capture_on_commit_callbacks(execute=True):
            tick(clock_time, 1000)
        assert event.rounds.get(number=number).status == Round.Status.CLOSED
        assert f"round-{number}-closed" in automatic.stored(event)[0].name  # the backup
        if number < 3:
            tick(clock_time, 4 * MINUTE)
            assert event.rounds.count() == number  # five minutes after the last game
            tick(clock_time, MINUTE)
            assert event.rounds.get(number=number + 1).status == Round.Status.PUBLISHED
    pilot = Autopilot.objects.get(event=event)
    assert pilot.finished_at is not None
    assert automatic_steps(event)[-2:] == ["closed", "finished"]
    event.refresh_from_db()
    assert event.publish_standings


def test_runs_itself_forfeits_no_shows_and_withdraws_after_two_misses(clock_time):
    event = make_event(clock_time, players=6, rounds=4, missed_games_limit=2)
    tick(clock_time, 10 * MINUTE)
    absent = event.players.get(name="Player 06")

    def play_round(number):
        skip = {b.number for b in event.rounds.get(number=number).boards.all()
                if absent.pk in (b.first_id, b.second_id)}
        resign_all(event, number, skip=skip)
        game = OnlineGame.objects.get(board__round__number=number, board__number__in=skip,
                                      board__round__event=event)
        seat = "A" if game.board.second_id == absent.pk else "B"
        online_seen = runner.online.note_seen(game, seat)  # the opponent is there
        assert online_seen is not None
        tick(clock_time, 4 * MINUTE)
        assert not Result.objects.filter(board=game.board).exists()  # not yet: 5 minutes
        tick(clock_time, MINUTE)
        result = Result.objects.get(board=game.board, status=Result.Status.ACCEPTED)
        assert result.kind == Result.Kind.FORFEIT and result.entered_by_label == "automatic"
        assert "did not appear within 5 minutes" in result.reason

    play_round(1)
    assert event.rounds.get(number=1).status == Round.Status.CLOSED
    absent.refresh_from_db()
    assert absent.withdrawn_after_round is None  # one miss
    tick(clock_time, 5 * MINUTE)
    play_round(2)
    absent.refresh_from_db()
    assert absent.withdrawn_after_round == 2 and "2 missed games" in absent.withdrawal_reason
    tick(clock_time, 5 * MINUTE)
    assert not event.rounds.get(number=3).boards.filter(first=absent).exists()
    assert not event.rounds.get(number=3).boards.filter(second=absent).exists()
    closed = event.history.filter(action=HistoryEntry.Action.AUTOMATIC,
                                  details__step="closed").order_by("-pk").first()
    assert "Withdrawn after 2 missed games: Player 06." in closed.summary


def test_runs_itself_pauses_when_a_step_is_refused_and_resumes(clock_time, monkeypatch):
    event = make_event(clock_time, players=8, rounds=3)
    arbiter = event.arbiters.get()

    def refuse(*args, **kwargs):
        raise runner.ServiceError("no legal pairing")

    monkeypatch.setattr(runner.services, "pair_next_round", refuse)
    tick(clock_time, 10 * MINUTE)
    pilot = Autopilot.objects.get(event=event)
    assert not pilot.running and pilot.paused_reason == "Round 1: no legal pairing"
    assert not event.rounds.exists()
    monkeypatch.undo()
    tick(clock_time, MINUTE)
    assert not event.rounds.exists()  # paused: nothing happens
    autopilot.resume(event, user=arbiter)
    tick(clock_time, 1000)
    assert event.rounds.get().status == Round.Status.PUBLISHED
    autopilot.pause(event, reason="  a dispute on board 2 ", user=arbiter)
    entry = event.history.filter(details__step="paused").order_by("-pk").first()
    assert entry.summary == ("Automation paused by auto-open-arbiter: a dispute on board 2")
    with pytest.raises(autopilot.ServiceError, match="paused already"):
        autopilot.pause(event, reason="again", user=arbiter)


def test_runs_itself_waits_for_the_arbiter_on_a_dispute(clock_time):
    event = make_event(clock_time, players=4, rounds=2)
    tick(clock_time, 10 * MINUTE)
    resign_all(event, 1)
    board = event.rounds.get(number=1).boards.first()
    # an online game's result comes from the game alone; a conflict is left over from a
    # backup or a tool: the automation still never settles it
    accepted = Result.objects.get(board=board, status=Result.Status.ACCEPTED)
    Result.objects.create(board=board, version=accepted.version + 1, kind=Result.Kind.DECISION,
                          status=Result.Status.CONFLICT, source=Result.Source.PLAYERS,
                          first_vp=0, second_vp=1, reason="disputed")
    tick(clock_time, 1000)
    pilot = Autopilot.objects.get(event=event)
    assert pilot.running and "open dispute" in pilot.waiting_for
    assert event.rounds.get(number=1).status == Round.Status.PUBLISHED
    tick(clock_time, 1000)
    assert automatic_steps(event).count("waiting") == 1  # said once


def test_runs_itself_as_a_round_robin_to_the_end(clock_time):
    """A small field plays its Berger table: every round by itself, an absence asked for
    before its round is a forfeit, and registration closed once round 1 is paired."""
    event = make_event(clock_time, players=4, system="auto", slug="small-open",
                       late_until_round=3)
    tick(clock_time, 10 * MINUTE)
    event.refresh_from_db()
    assert event.pairing_system == "round_robin" and event.rounds.count() == 1
    assert not autopilot.door(event, Autopilot.objects.get(event=event)).open
    absent = event.players.get(name="Player 04")
    autopilot.ask_absence(absent, 2)
    for number in (1, 2, 3):
        resign_all(event, number)
        tick(clock_time, 1000)
        tick(clock_time, 5 * MINUTE)
    assert [r.status for r in event.rounds.order_by("number")] == ["closed"] * 3
    forfeit = Result.objects.get(board__round__number=2, board__round__event=event,
                                 status=Result.Status.ACCEPTED, kind=Result.Kind.FORFEIT)
    assert absent.pk in (forfeit.board.first_id, forfeit.board.second_id)
    assert Autopilot.objects.get(event=event).finished_at is not None


def test_runs_itself_leaves_a_round_paired_by_hand_for_the_arbiter_to_publish(clock_time):
    """The arbiter pairs round 2 early, by hand: the automation neither publishes that draft
    nor pairs again; it says it waits, and deals and starts the round once it is published."""
    event = make_event(clock_time, players=6, rounds=2)
    arbiter = event.arbiters.get()
    tick(clock_time, 10 * MINUTE)
    resign_all(event, 1)
    tick(clock_time, 1000)
    assert event.rounds.get(number=1).status == Round.Status.CLOSED
    round_2 = services.pair_next_round(event, user=arbiter)  # before the 5 minutes are over
    for wait in (1000, 10 * MINUTE):
        tick(clock_time, wait)
        round_2.refresh_from_db()
        assert round_2.status == Round.Status.DRAFTED and event.rounds.count() == 2
    pilot = Autopilot.objects.get(event=event)
    assert pilot.running and pilot.waiting_for.startswith("Round 2 was paired by hand")
    assert automatic_steps(event).count("waiting") == 1
    said = event.history.filter(details__step="waiting").get().summary
    assert said == "Round 2 was paired by hand: the automation waits for the arbiter to " \
                   "publish it."
    services.publish_round(round_2)
    tick(clock_time, 1000)
    assert all(clock_services.snapshot(g.board)["started_at_ms"] is not None
               for g in OnlineGame.objects.filter(board__round=round_2))
    pilot.refresh_from_db()
    assert pilot.waiting_for == "" and automatic_steps(event)[-1] == "started"
