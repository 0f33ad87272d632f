"""The engine's documented examples are executed (a documented example that is never run rots)."""

import doctest
import importlib

import pytest

MODULES = [
    "games.engine",
    "games.engine.game",
    "games.engine.messages",
    "games.engine.notation",
    "games.engine.randomgame",
    "games.engine.rules",
    "games.dealt.deal",
    "games.dealt.table",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0, f"{name} has no examples"
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed"


def test_public_surface_is_small_and_complete() -> None:
    engine = importlib.import_module("games.engine")
    assert 10 <= len(engine.__all__) <= 20
    for name in engine.__all__:
        assert hasattr(engine, name), name


def test_core_does_not_import_django() -> None:
    import pathlib

    root = pathlib.Path(importlib.import_module("games.engine").__file__).parent
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import django" not in text and "from django" not in text, path.name
