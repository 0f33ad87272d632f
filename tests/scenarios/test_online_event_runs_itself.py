"""Scenario (#39): a 20-player online Swiss of 7 rounds that runs itself, the arbiter typing
nothing.

The organiser sets the event up once on its "Runs itself" page. Nineteen players register on
the event's page (a login made on the way); one more registers late, after round 1, and joins
in round 2. At each round's time the server (``autopilot.runner.tick``, what the flag timer's
process runs every second) pairs the round, publishes it, deals the games and starts the
clocks. Players find their game on My games (its state, as the page polls it) and play it (a
resignation through the game's service, as the online stories do). One player never comes:
his games are forfeited after the waiting time, and after two he is withdrawn. Another misses
one game. The arbiter pauses the automation in round 4 (a click) and resumes it; the server is
killed between pairing round 6 and publishing it, and the restarted one goes on without
pairing or dealing anything twice. After every round the story's checks open every page,
download and PDF; at the end the final standings are published, and they agree with an
independent sum of the stored results.
"""

import random
from decimal import Decimal

import pytest
from django.urls import reverse

from autopilot import runner
from autopilot.models import Autopilot
from games.models import OnlineGame
from games.online import play as online
from tests.scenarios import checks
from tournament.models import HistoryEntry, Player, Result, Round

pytestmark = pytest.mark.long_story

MINUTE = 60_000
NEVER = "Ned Never"
ONCE = "Olga Once"
LATE = "Lea Late"


class Killed(BaseException):
    """The server process killed between two steps (no ``except Exception`` catches it)."""


def server_ticks(clock_time, ms: int = 0) -> None:
    """The flag timer's process, ``ms`` later (its once-a-second throttle forgotten)."""
    clock_time.advance(ms)
    runner._last_tick["ms"] = None
    runner.tick()


def registers(story, name: str) -> None:
    account = story.account(name)
    url = reverse("autopilot_register", args=[story.slug])
    username = name.lower().replace(" ", ".")
    account.submit(url, {"new-username": username, "new-password1": "a-long-pass-39",
                         "new-password2": "a-long-pass-39", "name": name}, having="name")
    assert account.landed == reverse("my_games")


def my_seat(story, name: str) -> tuple[OnlineGame, str] | None:
    """The game My games sends ``name`` to (its state, as the page polls it)."""
    state = story.account(name).get(reverse("my_games_state")).json()["events"][story.slug]
    if not state["seat"]:
        return None
    token = state["seat"].strip("/").split("/")[1]
    return online.seat_for_token(token)


def plays_round(story, number: int, rng: random.Random, absent: set[str]) -> None:
    """Every present player opens their game; in each game one of them resigns."""
    seats: dict[int, dict[str, str]] = {}
    for player in story.model().players.filter(withdrawn_after_round__isnull=True):
        if player.name in absent:
            continue
        found = my_seat(story, player.name)
        if found is None:
            continue  # a bye, or an absence asked for
        game, seat = found
        assert game.board.round.number == number
        online.note_seen(game, seat)
        seats.setdefault(game.pk, {})[seat] = player.name
    for game_id, present in seats.items():
        if len(present) == 2:
            game = OnlineGame.objects.get(pk=game_id)
            assert online.play(game, rng.choice("AB"), {"move": "resign"}).error is None


def steps(event) -> list[str]:
    return [e.details["step"] for e in event.history.filter(
        action=HistoryEntry.Action.AUTOMATIC).order_by("at", "pk")]


def test_an_online_event_runs_itself_from_registration_to_final_standings(story, clock_time):
    arbiter = story.arbiter
    arbiter.creates_event("Self-Running Open", format="Swiss", rounds_planned="7")
    event = story.model()
    start = runner.moment(clock_time.now + 30 * MINUTE).strftime("%Y-%m-%dT%H:%M")
    arbiter.submit(arbiter.url("autopilot_settings"), {
        "first_round_at": start, "registration_closes_at": start, "schedule": "after",
        "minutes": "5", "late_until_round": "3", "missed_games_limit": "2"},
        having="first_round_at")
    story.checked("the organiser sets the event to run itself")

    names = [NEVER, ONCE] + [f"Player {n:02d}" for n in range(1, 18)]
    for name in names:
        registers(story, name)
    assert event.players.count() == 19
    story.checked("nineteen players register")

    rng = random.Random(39)
    server_ticks(clock_time, 30 * MINUTE)
    assert event.rounds.get(number=1).status == Round.Status.PUBLISHED
    story.checked("round 1 starts by itself")
    registers(story, LATE)  # late registration, until round 3 is paired
    assert Player.objects.get(name=LATE).joined_round == 2

    for number in range(1, 8):
        if number > 1 and number != 3:  # round 3 started while his page was read
            server_ticks(clock_time, 5 * MINUTE)
            assert event.rounds.get(number=number).status == Round.Status.PUBLISHED, number
        round_ = event.rounds.get(number=number)
        dealt = OnlineGame.objects.filter(board__round=round_).count()
        assert dealt == round_.boards.filter(second__isnull=False).count()
        absent = {NEVER} | ({ONCE} if number == 3 else set())
        plays_round(story, number, rng, absent)
        if number == 4:
            arbiter.submit(arbiter.url("autopilot_settings"),
                           action=arbiter.url("autopilot_action", "pause"))
            story.checked("the arbiter pauses the automation")
        server_ticks(clock_time, 5 * MINUTE)  # the waiting time: no-shows forfeited
        if number == 4:
            assert event.rounds.get(number=4).status == Round.Status.PUBLISHED  # paused
            arbiter.submit(arbiter.url("autopilot_settings"),
                           action=arbiter.url("autopilot_action", "resume"))
            server_ticks(clock_time, 1000)
        assert event.rounds.get(number=number).status == Round.Status.CLOSED, number
        story.checked(f"round {number} ends by itself")
        if number == 2:
            # withdrawn after two missed games: his page says so, and shows no seat
            page = story.account(NEVER).get(reverse("my_games")).content.decode()
            assert "You were withdrawn after round 2 (2 missed games)" in page
            server_ticks(clock_time, 5 * MINUTE)  # round 3 starts without him
            state = story.account(NEVER).get(reverse("my_games_state")).json()
            assert state["events"][story.slug]["withdrawn"] is True
            assert state["events"][story.slug]["seat"] is None
        if number == 5:
            # the server dies after pairing round 6, before publishing it; restarted, it goes on
            real = runner.PERFORM[runner.core.Kind.PUBLISH]

            def dies(*args):
                raise Killed

            runner.PERFORM[runner.core.Kind.PUBLISH] = dies
            try:
                with pytest.raises(Killed):
                    server_ticks(clock_time, 5 * MINUTE)
            finally:
                runner.PERFORM[runner.core.Kind.PUBLISH] = real
            assert event.rounds.get(number=6).status == Round.Status.DRAFTED
            story.checked("the server is killed between pairing and publishing round 6")

    never = Player.objects.get(name=NEVER)
    assert never.withdrawn_after_round == 2 and "2 missed games" in never.withdrawal_reason
    assert not Round.objects.filter(event=event, number__gt=2, boards__first=never).exists()
    assert not Round.objects.filter(event=event, number__gt=2, boards__second=never).exists()
    assert Player.objects.get(name=ONCE).withdrawn_after_round is None
    forfeits = Result.objects.filter(board__round__event=event, status="accepted",
                                     kind__in=["forfeit", "double_forfeit"])
    assert {r.board.round.number for r in forfeits} == {1, 2, 3}
    assert all(r.entered_by_label == "automatic" for r in forfeits)
    assert event.rounds.filter(number=6).count() == 1
    assert OnlineGame.objects.filter(board__round__number=6, board__round__event=event).count() \
        == event.rounds.get(number=6).boards.filter(second__isnull=False).count()

    pilot = Autopilot.objects.get(event=event)
    assert pilot.finished_at is not None
    assert steps(event).count("paired") == 7 and steps(event).count("started") == 7
    assert steps(event)[-1] == "finished"
    page = arbiter.get(arbiter.url("autopilot_settings")).content.decode()
    assert "Withdrawn after 2 missed games: Ned Never." in page
    assert "Round 7 was the last: the final standings are published." in page

    # the final standings, against an independent sum of the stored results
    vp: dict[str, Decimal] = {name: Decimal(0) for name in [*names, LATE]}
    for result in Result.objects.filter(board__round__event=event, status="accepted") \
            .select_related("board__first", "board__second"):
        vp[result.board.first.name] += result.first_vp
        if result.board.second is not None:
            vp[result.board.second.name] += result.second_vp
    late = event.late_entry_vp
    vp[LATE] += late  # round 1, missed by registering late
    shown = {row["Name"]: Decimal(row["VP"]) for row in checks.standings_csv(story)}
    assert shown == vp
