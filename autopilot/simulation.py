"""A whole self-running event played by bots, on simulated time, through the real services.

Bots register themselves (``autopilot.services.register``, as the event page does), some of
them late; the server's steps are the flag timer's ticks (``clocks.flagtimer.tick``: flags,
then the automation), called as simulated time passes. In each game the bots play the dealt
game's moves (``games.dealt.bot``) through ``games.online.play``, as their sockets would. Some
bots never come (the waiting time forfeits them, and after the set number of missed games they
are withdrawn), some stop in mid-game (their clock runs out), and one disputes a result: the
arbiter pauses the automation, decides the board with a reason, and resumes it.

The final standings are then checked against an independent computation: each online game's
stored record is verified again by the rules engine (the result it gives must be the board's),
and every player's VP is summed from the stored results, absences and late entries, without
the standings code.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model

from autopilot import runner
from autopilot import services as autopilot
from autopilot.models import Autopilot
from clocks import flagtimer
from clocks import services as clock_services
from games import services as game_services
from games.dealt.bot import choose_move
from games.models import OnlineGame
from games.online import play as online
from games.simulation import player_names
from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Absence, Event, Player, Result

MINUTE = 60_000
#: Simulated seconds between two moves of a game, at most.
THINK_MS = 9_000


@dataclass
class Report:
    event: Event
    rounds: int = 0
    games: int = 0
    forfeits: int = 0
    flags: int = 0
    withdrawn: list[str] = field(default_factory=list)
    late: list[str] = field(default_factory=list)
    disputed: str = ""
    problems: list[str] = field(default_factory=list)


class SimulatedTime:
    """The server's clock (``clocks.services.now_ms``) moved by hand while the event runs."""

    def __init__(self, start: int) -> None:
        self.now = start
        self.automation_at = start

    def __call__(self) -> int:
        return self.now


@contextlib.contextmanager
def simulated_time(start: int) -> Iterator[SimulatedTime]:
    real = clock_services.now_ms
    fake = SimulatedTime(start)
    clock_services.now_ms = fake
    try:
        yield fake
    finally:
        clock_services.now_ms = real


#: During play the automation's tick runs at most this often (simulated ms): it has nothing to
#: do until a waiting time ends or the last game does, and a tick reads the whole round.
AUTOMATION_EVERY_MS = 20_000


def _server(time: SimulatedTime, ms: int, *, every: int = 0) -> None:
    """``ms`` pass; the flag timer's process ticks (flags, then the automation, unless it ran
    less than ``every`` ms ago)."""
    time.now += ms
    if time.now - time.automation_at >= every:
        runner._last_tick["ms"] = None
        time.automation_at = time.now
    flagtimer.tick()


def _register(event: Event, name: str, rng: random.Random) -> Player:
    account = get_user_model().objects.create_user(
        f"{event.slug}-{name.lower().replace(' ', '-')}"[:150])
    registration = autopilot.register(event, account, name=name, rating=rng.randint(1200, 2200))
    return registration.player


def _play_round(event: Event, number: int, time: SimulatedTime, rng: random.Random,
                never: set[int], quitters: set[int], report: Report) -> None:
    games = list(OnlineGame.objects.filter(board__round__event=event, board__round__number=number)
                 .select_related("board__first", "board__second", "board__round__event"))
    players = {g.pk: {"A": g.board.first_id, "B": g.board.second_id} for g in games}
    stops = {}  # game id, seat -> the move number after which a quitter stops
    for game in games:
        for seat, player in players[game.pk].items():
            if player in never:
                continue
            online.note_seen(game, seat)
            if player in quitters:
                stops[game.pk, seat] = rng.randint(2, 12)
    live = {g.pk for g in games}
    while live:
        _server(time, rng.randint(1000, THINK_MS), every=AUTOMATION_EVERY_MS)
        for game_id in sorted(live):
            game = OnlineGame.objects.get(pk=game_id)
            view = online.view(game, "A")
            if view["over"] or game.no_show or game.record_id is not None:
                live.discard(game_id)
                continue
            seat = view["to_act"]
            if seat is None or players[game_id][seat] in never:
                continue
            if (game_id, seat) in stops and view["number"] >= stops[game_id, seat]:
                continue  # gone: the clock decides
            move = choose_move(view if seat == "A" else online.view(game, seat), rng)
            online.play(game, seat, {k: v for k, v in move.items() if k != "seat"})


def _dispute(event: Event, number: int, arbiter, report: Report) -> None:
    """A player disputes board 1's result: the arbiter pauses the automation, decides the
    board (a half point each, say), and resumes."""
    board = event.rounds.get(number=number).boards.get(number=1)
    report.disputed = f"round {number}, board 1"
    autopilot.pause(event, reason=f"dispute on board 1 of round {number}", user=arbiter)
    services.record_result(board, Result.Kind.DECISION, first_vp="0.5", second_vp="0.5",
                           source=Result.Source.ARBITER, user=arbiter, correction=True,
                           reason="disputed: the arbiter's decision")
    autopilot.resume(event, user=arbiter)


def run(*, players: int, rounds: int, seed: int, slug: str) -> Report:
    """Set up the event, register the bots, and run it to its final standings."""
    rng = random.Random(seed)
    arbiter = get_user_model().objects.create_user(f"{slug}-arbiter")
    event = services.create_event(name=f"Self-running simulation (seed {seed})", slug=slug,
                                  arbiter=arbiter, pairing_system=Event.PairingSystem.SWISS,
                                  rounds_planned=rounds)
    report = Report(event)
    names = player_names(players, rng)
    late_count = max(1, players // 10)
    start = clock_services.now_ms()
    with simulated_time(start) as time:
        autopilot.configure(event, {
            "first_round_at": runner.moment(start + 30 * MINUTE),
            "registration_closes_at": runner.moment(start + 30 * MINUTE),
            "schedule": "after", "minutes": 2, "late_until_round": max(2, (rounds + 1) // 2),
            "missed_games_limit": 2}, user=arbiter)
        entered = [_register(event, name, rng) for name in names[:-late_count]]
        never = {entered[0].pk}
        quitters = {p.pk for p in entered[1:1 + max(1, players // 10)]}
        _server(time, 30 * MINUTE)
        for name in names[-late_count:]:
            _register(event, name, rng)
            report.late.append(name)
        pilot = Autopilot.objects.get(event=event)
        for number in range(1, rounds + 1):
            while not event.rounds.filter(number=number).exists():
                _server(time, MINUTE)
            _play_round(event, number, time, rng, never, quitters, report)
            for _minute in range(event.no_show_minutes + 1):
                if event.rounds.get(number=number).status == "closed":
                    break
                _server(time, MINUTE)
            if number == max(1, rounds - 1):
                _dispute(event, number, arbiter, report)
            _server(time, 1000)
            pilot.refresh_from_db()
            if not pilot.running:
                report.problems.append(f"paused after round {number}: {pilot.paused_reason}")
                break
        _server(time, 1000)
    report.rounds = event.rounds.count()
    report.games = OnlineGame.objects.filter(board__round__event=event).count()
    report.forfeits = OnlineGame.objects.filter(board__round__event=event).exclude(
        no_show="").count()
    report.withdrawn = list(event.players.filter(withdrawn_after_round__isnull=False)
                            .values_list("name", flat=True))
    report.problems += recheck(event)
    return report


def recheck(event: Event) -> list[str]:
    """Differences between the standings and an independent computation from the stored
    records and results (empty: none)."""
    problems = []
    accepted = {r.board_id: r for r in Result.objects.filter(
        board__round__event=event, status=Result.Status.ACCEPTED)}
    for game in OnlineGame.objects.filter(board__round__event=event, record__isnull=False) \
            .select_related("record", "board"):
        _record, verified = game_services.verified_record(game.record.text)
        result = accepted.get(game.board_id)
        if result is None:
            problems.append(f"board {game.board} has a record and no result")
        elif result.kind != Result.Kind.DECISION and \
                (result.first_vp, result.second_vp) != _vp(verified.winners):
            problems.append(f"board {game.board}: the record's winners are "
                            f"{verified.winners}, the result {result.first_vp}-"
                            f"{result.second_vp}")
    vp: dict[int, Decimal] = {p.pk: Decimal(0) for p in event.players.all()}
    for result in accepted.values():
        vp[result.board.first_id] += result.first_vp
        if result.board.second_id is not None:
            vp[result.board.second_id] += result.second_vp
    for absence in Absence.objects.filter(player__event=event):
        vp[absence.player_id] += absence.vp
    for player in event.players.filter(joined_round__gt=1):
        vp[player.pk] += event.late_entry_vp * (player.joined_round - 1)
    table = standings_bridge.standings(event)
    for row in table.rows:
        if Decimal(row.vp.numerator) / Decimal(row.vp.denominator) != vp[row.player_id]:
            problems.append(f"player {row.player_id}: standings {row.vp}, sum {vp[row.player_id]}")
    return problems


def _vp(winners: tuple[str, ...]) -> tuple[Decimal, Decimal]:
    """The VP a verified game gives (seat A plays first: the board's first player)."""
    if winners == ("A",):
        return Decimal(1), Decimal(0)
    if winners == ("B",):
        return Decimal(0), Decimal(1)
    return Decimal("0.5"), Decimal("0.5")
