"""The events the browser sweeps visit: a demo-like Swiss in its fifth round, an online game.

Built before a browser starts (Playwright's event loop in the test's thread would keep the clock
services from publishing the started clocks), with the long names and clubs of real entry lists,
which are what push pages wide.
"""

from __future__ import annotations

import random

from clocks import services as clock_services
from games import simulation
from games.dealt import Table
from games.models import GameRecord, OnlineGame
from games.online import play as online
from tournament import services
from tournament.models import Board, Event

#: Long names and clubs, as real entry lists have them.
NAMES = [
    ("Maximiliane Hohenzollern-Sigmaringen", "Schachfreunde Rheinhausen-Oberhausen 1921"),
    ("Ada Lovelace", "London"), ("Blaise Pascal", "Paris"), ("Carl Gauss", "Göttingen"),
    ("Dorothy Vaughan", "Hampton"), ("Emmy Noether", "Erlangen"), ("Grace Hopper", "New York"),
    ("Henri Poincaré", "Nancy"), ("Ida Rhodes", "Kiev"), ("John Conway", "Liverpool"),
    ("Katherine Johnson", "Hampton"), ("Leonhard Euler", "Basel"),
    ("Mary Somerville", "Jedburgh"), ("Sofia Kovalevskaya", "Stockholm"),
]


def build_event(user) -> Event:
    """A demo-like event: four rounds played with game records, round five published and its
    clocks running, one long name and club in the field."""
    event = services.create_event(
        name="Layout Open of the Rhine-Ruhr Mind Sports Federation", slug="layout-open",
        arbiter=user, venue="Mind Sports Hall", rounds_planned=7,
        pairing_system=Event.PairingSystem.SWISS,
    )
    for index, (name, club) in enumerate(NAMES):
        services.add_player(event, name=name, club=club, rating=2100 - 37 * index)
    simulation.run(event, random.Random(14), rounds=4, user=user)
    current = services.publish_round(services.pair_next_round(event))
    clock_services.start_round(current, who=user.username, user=user)
    return event


def public_paths(event: Event) -> dict[str, str]:
    e = f"/e/{event.slug}"
    board = Board.objects.filter(round__event=event, round__number=5, second__isnull=False)
    board = board.order_by("number").first()
    record = GameRecord.objects.filter(board__round__event=event).order_by("pk").first()
    player = event.players.order_by("pk").first()
    return {
        "home": "/", "event home": f"{e}/", "find yourself": f"{e}/?q=Ada",
        "pairings": f"{e}/pairings/", "pairings by name": f"{e}/pairings/by-name/",
        "results": f"{e}/results/?round=2", "standings": f"{e}/standings/",
        "crosstable": f"{e}/crosstable/", "player": f"{e}/players/{player.pk}/",
        "projector": f"{e}/projector/", "game viewer": f"/games/{record.pk}/",
        "board page": f"/b/{board.token}/", "clock spectator": f"{e}/clocks/5/{board.number}/",
        "login": "/accounts/login/",
    }


def arbiter_paths(event: Event) -> dict[str, str]:
    a = f"/e/{event.slug}/arbiter"
    board = Board.objects.get(round__event=event, round__number=4, number=1)
    clocked = Board.objects.get(round__event=event, round__number=5, number=1)
    player = event.players.order_by("pk").first()
    return {
        "dashboard": f"{a}/", "settings": f"{a}/settings/", "players": f"{a}/players/",
        "player edit": f"{a}/players/{player.pk}/",
        "round": f"{a}/rounds/5/", "played round": f"{a}/rounds/4/",
        "result entry": f"{a}/rounds/5/results/", "board result": f"{a}/boards/{board.pk}/",
        "print menu": f"{a}/print/", "export": f"{a}/export/", "game records": f"{a}/records/",
        "clock hall": f"/e/{event.slug}/clocks/5/", "clock log": f"{a}/boards/{clocked.pk}/clock/",
        "clock spectator (arbiter)": f"/e/{event.slug}/clocks/5/1/",
        "new event": "/events/new/", "event import": "/events/import/",
    }


def online_game(arbiter, name: str, slug: str, *, seed: bytes | None = None,
                start: bool = True):
    """A two-player event whose one round is online and published, its clocks started unless
    ``start`` is false; the game dealt from ``seed`` when one is given (a test that knows the
    whole game in advance)."""
    cup = services.create_event(name=name, slug=slug, arbiter=arbiter,
                                pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                rounds_planned=1)
    for entrant in ("Ada First", "Ben Second"):
        services.add_player(cup, name=entrant)
    round_ = services.publish_round(services.pair_next_round(cup))
    game = online.mark_online(round_, user=arbiter)[0]
    if seed is not None:
        OnlineGame.objects.filter(pk=game.pk).update(seed=seed.hex(),
                                                     commitment=Table(seed).commitment)
    if start:
        online.start_round(round_, who=arbiter.username, user=arbiter)
    return cup, OnlineGame.objects.get(pk=game.pk)
