"""Every message sent to a group is handled by every socket that joins it.

A board's group holds its board pages, its spectators and, for an online game, the seats and
the game's spectators: a message only one kind handled (``clock.holder``, sent when any device
holding the board's link took the clock over) closed every other socket of the game with 1011,
on every worker. The groups declare their messages (``clocks.groups``), each consumer the
groups it joins (``listens``); this test lists them all, so a new message type cannot be added
without a handler on every consumer that will receive it.
"""

import ast
import pathlib

import pytest
from channels.consumer import get_handler_name

import clocks.routing
import games.routing
from clocks import groups
from clocks.consumers import BoardConsumer, ClockSocket

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCT = ("autopilot", "backups", "clocks", "games", "tournament")
#: message types of the ASGI protocols themselves, not of the channel layer's groups
PROTOCOL = ("websocket.", "lifespan.", "http.")


def routed_consumers() -> list[type]:
    routes = clocks.routing.websocket_urlpatterns + games.routing.websocket_urlpatterns
    return [route.callback.consumer_class for route in routes]


def test_every_routed_consumer_handles_every_message_of_the_groups_it_joins():
    consumers = routed_consumers()
    assert len(consumers) == 6
    missing = []
    for consumer in consumers:
        assert issubclass(consumer, ClockSocket)
        assert consumer.listens, f"{consumer.__name__} declares no group"
        for group in consumer.listens:
            for kind in group.messages:
                if not callable(getattr(consumer, get_handler_name({"type": kind}), None)):
                    missing.append((consumer.__name__, group.prefix, kind))
    assert missing == []


def test_the_board_group_reaches_the_board_pages_spectators_and_online_games_alike():
    listeners = {c.__name__ for c in routed_consumers() if groups.BOARD in c.listens}
    assert listeners == {"BoardConsumer", "SpectateConsumer", "PlayConsumer", "WatchConsumer"}
    assert groups.DEVICE_SOCKET in BoardConsumer.listens


def _sent_types() -> set[tuple[str, str]]:
    """Every ``"type": "a.b"`` written in a dict of the product's code, with its file."""
    found = set()
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Dict):
                    continue
                for key, value in zip(node.keys, node.values, strict=True):
                    if (isinstance(key, ast.Constant) and key.value == "type"
                            and isinstance(value, ast.Constant) and isinstance(value.value, str)
                            and "." in value.value and not value.value.startswith(PROTOCOL)):
                        found.add((value.value, str(path.relative_to(ROOT))))
    return found


def test_no_message_type_is_sent_without_being_declared_for_its_group():
    declared = {kind for group in groups.DECLARED.values() for kind in group.messages}
    sent = _sent_types()
    assert {kind for kind, _path in sent} >= {"clock.snapshot", "clock.holder", "clock.hall",
                                              "clock.link", "clock.replaced", "link.withdrawn"}
    assert [(kind, path) for kind, path in sorted(sent) if kind not in declared] == []


def test_a_message_its_group_does_not_declare_is_refused_before_it_is_sent():
    with pytest.raises(groups.UndeclaredMessage, match=r"clock\.holder"):
        groups.broadcast([(groups.ROUND.name(1), {"type": "clock.holder", "holder": ""})])
    with pytest.raises(groups.UndeclaredMessage):
        groups.broadcast([("nobody.1", {"type": "clock.snapshot"})])
