"""``manage.py bench_autopilot --players N [--workers W] [--seconds S]``: a self-running event
of N registered players on W ASGI workers and a separate flag-timer process, which runs the
automation as in a scale-out deployment (several workers need ``REDIS_URL``; the figures of
``docs/benchmarks.md`` are PostgreSQL + Redis).

1. N players register through the registration service; registration closes 15 s later and
   round 1 starts ``--closes-before`` seconds after that (default 0; meanwhile round 1 is
   paired ahead), later rounds "0 minutes after the last game". Reported: how late round 1's
   clocks started.
2. Round 1 is played by bots over real websockets for ``--seconds`` at the stress pace
   (``bench_online``'s client: latency from a move to its view at the opponent and the
   spectators, deliveries lost), then every game still going ends by a resignation.
   Reported: **the transition**, from the last game's end to round 2's clocks running, with
   each automatic step's time from the event's history. ``--last-game-after S``: the last
   game ends S seconds after the others, as a round's longest game does; meanwhile the
   automation pairs round 2 ahead for each of its outcomes (``autopilot.pair_ahead``).
3. Round 2 is played the same way; then the flag-timer process is killed (SIGKILL) and the
   round's games end with it down: the round stays open; a new flag-timer process closes it
   and finishes the event. Reported: nothing paired, dealt or started twice, every game and move
   kept, and how long the new process took.

On PostgreSQL the command runs ``ANALYZE`` after the registrations and as each round starts, as
autovacuum would within a minute (this machine's server has it off). The event is deleted at
the end (``--keep`` keeps it): a running one left behind would load the next run's timer.
"""

from __future__ import annotations

import datetime
import sys
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from autopilot import services as autopilot
from autopilot.models import Autopilot
from bench.events import delete_event
from bench.management.commands import bench_online
from bench.servers import AsgiServer, bench_urls
from games.models import OnlineGame
from games.online import play as online
from tournament import services
from tournament.models import Event, HistoryEntry, Round

POLL_S = 0.2


class Command(BaseCommand):
    help = "Benchmark a self-running event: round start, transition, a restart of its process."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--seconds", type=float, default=30)
        parser.add_argument("--clients", type=int, default=2)
        parser.add_argument("--min-think", type=float, default=2.0)
        parser.add_argument("--max-think", type=float, default=6.0)
        parser.add_argument("--server", choices=["daphne", "uvicorn"], default="daphne")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark event")
        parser.add_argument(
            "--closes-before", type=float, default=0, metavar="S",
            help="registration closes S seconds before round 1 starts (round 1 is paired "
                 "ahead meanwhile)")
        parser.add_argument(
            "--last-game-after", type=float, default=0, metavar="S",
            help="round 1's last game ends S seconds after the others, as a round's longest "
                 "game does (0: all end together)")

    def handle(self, *args, **o):
        if not 4 <= o["players"] <= 2000 or o["players"] % 2:
            raise CommandError("--players must be even, between 4 and 2000")
        bench_urls("bench_autopilot", "", o["workers"])
        w = self.stdout.write
        event = self.setup(o["players"], o["closes_before"])
        workers = [AsgiServer(server=o["server"]) for _ in range(o["workers"])]
        timer = self.timer()
        try:
            urls = [s.wait_listening().url for s in workers]
            w(f"workers: {', '.join(urls)}; database "
              f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1]}; layer "
              f"{settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[1]}; "
              f"{o['players']} players")
            due = Autopilot.objects.get(event=event).first_round_at
            started = self.wait_step(event, "started", 1, timeout=400)
            w(f"round 1: clocks started {(started - due).total_seconds():.1f} s after its time "
              f"({self.steps_text(event, 1)})")
            self.play(event, 1, urls, workers, o, timer)
            ended = self.end_games(event, 1, last_after=o["last_game_after"])
            started = self.wait_step(event, "started", 2, timeout=400)
            w(f"transition: last game of round 1 ended "
              f"{o['last_game_after']:.0f} s after the others -> round 2's clocks running in "
              f"{(started - ended).total_seconds():.1f} s ({self.steps_text(event, 2)})")
            self.play(event, 2, urls, workers, o, timer)
            timer.process.kill()
            timer.process.wait()
            w("flag-timer process killed (SIGKILL) during round 2")
            ended = self.end_games(event, 2)
            time.sleep(3)
            still = event.rounds.get(number=2).status
            w(f"round 2's games ended with no automation: round 2 {still}")
            timer = self.timer()
            restarted = datetime.datetime.now(datetime.UTC)
            finished = self.wait_step(event, "finished", 2, timeout=120)
            w(f"new flag-timer process: round 2 closed and the event finished "
              f"{(finished - restarted).total_seconds():.1f} s after it started")
            self.verify(event, still)
        finally:
            for server in [*workers, timer]:
                server.stop()
            if not o["keep"]:  # a running event left behind would load the next run's timer
                first = event.rounds.first()
                if first is not None:
                    delete_event(first)
                else:
                    event.delete()

    def timer(self) -> AsgiServer:
        return AsgiServer(command=[sys.executable, "manage.py", "run_flag_timer"])

    def setup(self, players: int, closes_before: float) -> Event:
        slug = f"bench-autopilot-{int(time.time())}"
        arbiter = get_user_model().objects.create_user(f"{slug}-arbiter")
        event = services.create_event(name="Self-running benchmark", slug=slug,
                                      arbiter=arbiter, time_control="3600",
                                      pairing_system=Event.PairingSystem.SWISS,
                                      rounds_planned=2, no_show_minutes=60)
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
        autopilot.configure(event, {"first_round_at": later, "registration_closes_at": later,
                                    "minutes": 0}, user=arbiter)
        began = time.perf_counter()
        accounts = get_user_model().objects
        for n in range(1, players + 1):
            account = accounts.create_user(f"{slug}-{n}")
            autopilot.register(event, account, name=f"Player {n:04d}", rating=1000 + n)
        self.stdout.write(f"{players} players registered in {time.perf_counter() - began:.1f} s")
        self.analyze()
        closes = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=15)
        start = closes + datetime.timedelta(seconds=closes_before)
        autopilot.configure(event, {"first_round_at": start, "registration_closes_at": closes},
                            user=arbiter)
        return event

    def wait_step(self, event: Event, step: str, number: int, *, timeout: float):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            entry = event.history.filter(action=HistoryEntry.Action.AUTOMATIC,
                                         details__step=step, details__round=number).first()
            if entry is not None:
                return entry.at
            time.sleep(POLL_S)
        raise CommandError(f"no '{step}' of round {number} within {timeout:.0f} s")

    def steps_text(self, event: Event, number: int) -> str:
        entries = list(event.history.filter(action=HistoryEntry.Action.AUTOMATIC,
                                            details__round__in=[number - 1, number])
                       .order_by("at", "pk"))
        first = entries[0].at
        return ", ".join(f"{e.details['step']} {e.details['round']} "
                         f"+{(e.at - first).total_seconds():.2f} s" for e in entries
                         if e.details["step"] != "forfeited")

    def analyze(self) -> None:
        """What PostgreSQL's autovacuum does within a minute of a round's new rows (this
        machine's server runs with it off): without statistics every query of a round of
        500 boards is planned as if it had three rows."""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    def play(self, event: Event, number: int, urls, workers, o, timer: AsgiServer) -> None:
        self.analyze()
        timer_cpu, began = timer.cpu_seconds(), time.perf_counter()
        games = OnlineGame.objects.filter(board__round__event=event, board__round__number=number)
        tokens = [(g.board_id, g.token_a, g.token_b) for g in games]
        load = bench_online.Command(stdout=self.stdout)
        options = {"spectators": 1, "clients": o["clients"], "ramp": 25,
                   "min_think": o["min_think"], "max_think": o["max_think"],
                   "seconds": o["seconds"]}
        tallies, cpu, wall = load.measure(urls, workers, tokens, options)
        self.stdout.write(f"round {number}, {len(tokens)} games:")
        load.report(tallies, cpu, wall)
        share = (timer.cpu_seconds() - timer_cpu) / (time.perf_counter() - began) * 100
        self.stdout.write(f"flag-timer process (flags and automation): {share:.0f}% of one core")

    def end_games(self, event: Event, number: int, *, last_after: float = 0
                  ) -> datetime.datetime:
        """Every game still going ends with a resignation, the last one ``last_after``
        seconds after the others; when the last one ended."""
        games = list(OnlineGame.objects.filter(board__round__event=event,
                                               board__round__number=number)
                     .order_by("board__number"))
        for index, game in enumerate(games):
            if index == len(games) - 1 and last_after:
                time.sleep(last_after)
            view = online.view(game, "A")
            if not view["over"]:
                online.play(game, view["to_act"] or "A", {"move": "resign"})
        return datetime.datetime.now(datetime.UTC)

    def verify(self, event: Event, before_restart: str) -> None:
        rounds = list(event.rounds.order_by("number"))
        steps = [e.details["step"] for e in event.history.filter(
            action=HistoryEntry.Action.AUTOMATIC)]
        games = OnlineGame.objects.filter(board__round__event=event)
        boards = sum(r.boards.filter(second__isnull=False).count() for r in rounds)
        problems = []
        if [r.number for r in rounds] != [1, 2] or \
                any(r.status != Round.Status.CLOSED for r in rounds):
            problems.append(f"rounds {[(r.number, r.status) for r in rounds]}")
        if before_restart != Round.Status.PUBLISHED:
            problems.append(f"round 2 was {before_restart} with no automation running")
        for step, count in (("paired", 2), ("published", 2), ("started", 2), ("closed", 2),
                            ("finished", 1)):
            if steps.count(step) != count:
                problems.append(f"{steps.count(step)} '{step}' steps")
        if games.count() != boards or games.filter(record__isnull=True).exists():
            problems.append(f"{games.count()} games for {boards} boards, "
                            f"{games.filter(record__isnull=True).count()} without a record")
        self.stdout.write(f"after the restart: {', '.join(problems) or 'nothing lost, '}"
                          f"{'' if problems else 'nothing done twice'}")
        if problems:
            raise CommandError("; ".join(problems))
