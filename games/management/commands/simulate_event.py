"""``python manage.py simulate_event --players N --rounds R --seed S [--json]``."""

import json as jsonlib
import random

from django.core.management.base import BaseCommand, CommandError

from games import simulation
from tournament.bridges import standings_bridge


class Command(BaseCommand):
    help = ("Create an event, pair every round with the real pairing code, play each game with "
            "the engine's random legal games, record the verified results, print the standings.")

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int,
                            help="planned Swiss rounds (default 7); as in a real event, 10 "
                                 "players or fewer play a round robin whatever this says")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--name", help="event name (default: 'Simulated N')")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, players, rounds=None, seed=1, name=None, json=False, **options):
        if players < 2:
            raise CommandError("an event needs at least 2 players")
        if rounds is not None and not 1 <= rounds <= 15:
            raise CommandError("--rounds must be between 1 and 15")
        rng = random.Random(seed)
        event = simulation.create_event(name or f"Simulated {players} (seed {seed})", players,
                                        rng, rounds=rounds)
        report = None if json else self.stderr.write
        simulation.run(event, rng, progress=report)
        table = standings_bridge.standings(event, event.rounds.count())
        if json:
            self._print_json(event, table)
            return
        labels = [tb.label for tb in table.tiebreaks]
        self.stdout.write(f"{event.name} ({event.slug}): {len(table)} players, "
                          f"{table.rounds} rounds")
        self.stdout.write(f"{'rank':>5}  {'player':<28} {'VP':>4}  " + "  ".join(labels))
        for row in table:
            values = "  ".join(v.display for v in row.tiebreaks)
            self.stdout.write(f"{row.place:>5}  {row.name:<28} {row.vp_display:>4}  {values}")

    def _print_json(self, event, table):
        games, byes = simulation.games_json(event)
        standings = [
            {"rank": row.rank, "player": row.name, "vp": float(row.vp),
             "tiebreaks": [_plain(v.sort_key) for v in row.tiebreaks]}
            for row in table
        ]
        payload = {"event": event.slug, "standings": standings, "games": games, "byes": byes}
        self.stdout.write(jsonlib.dumps(payload, ensure_ascii=False))


def _plain(sort_key):
    """A tiebreak's value as JSON: a number, or a list for progressive (vector) values."""
    values = [float(v) if not isinstance(v, int) else v for v in sort_key]
    return values[0] if len(values) == 1 else values
