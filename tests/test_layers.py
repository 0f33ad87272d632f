"""The import graph as docs/architecture.md draws it, checked on every module's source.

Layers, bottom up: the pure cores (no Django, no app code); the event app (``tournament``);
the ``games`` and ``clocks`` apps, which stand on the event app; the project modules
(settings, URLs, ASGI/WSGI) that put everything together. An import may point down or
sideways within its layer, never up. Imports inside functions count too: hiding one there does
not change the dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CORES = (
    "games.engine",
    "games.dealt",
    "tournament.pairing",
    "tournament.standings",
    "tournament.outcome",
    "clocks.clock",
    "clocks.clock_types",
    "clocks.timecontrol",
)
PROJECT = ("tournament.settings", "tournament.urls",
           "tournament.asgi", "tournament.wsgi")
APPS_ABOVE_EVENTS = ("games", "clocks")

#: Upward imports that remain from before the layering (issue #13), each to be removed by
#: moving the code to the app it belongs to. The test fails when a new one appears, and when
#: one listed here is gone (so that the list only shrinks).
KNOWN_UPWARD = {
    ("tournament.backup", "games"),
    ("tournament.backup_reader", "games"),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _modules():
    for package in ("tournament", "games", "clocks"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield _module_name(path), _imports(path)


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


MODULES = dict(_modules())


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _within(m, CORES)))
def test_a_core_imports_neither_django_nor_app_code(module):
    bad = sorted(
        name for name in MODULES[module]
        if name.split(".")[0] in ("django", "channels", "daphne")
        or (_within(name, ("tournament", "games", "clocks")) and not _within(name, CORES))
    )
    assert not bad, f"{module} is a pure core but imports {bad}"


def test_the_event_app_never_imports_the_apps_that_stand_on_it():
    upward = {
        (module, name.split(".")[0])
        for module, names in MODULES.items()
        if _within(module, ("tournament",)) and not _within(module, PROJECT)
        and not _within(module, CORES)
        for name in names
        if _within(name, APPS_ABOVE_EVENTS) and not _within(name, CORES)
    }
    new = upward - KNOWN_UPWARD
    assert not new, f"the event app imports upward: {sorted(new)}"
    gone = KNOWN_UPWARD - upward
    assert not gone, f"remove these from KNOWN_UPWARD, they are fixed: {sorted(gone)}"


def _hidden_imports(path: Path) -> list[str]:
    """Project imports inside functions, except in ``AppConfig.ready`` (Django's own idiom:
    the app registry must be ready before an app's models are imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) or func.name == "ready":
            continue
        for node in ast.walk(func):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                      if _within(name, ("tournament", "games", "clocks"))]
    return found


def test_no_project_import_hides_inside_a_function():
    hidden = [
        line
        for package in ("tournament", "games", "clocks")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for line in _hidden_imports(path)
    ]
    assert not hidden, "imports inside functions (move them up, or move the code):\n" + "\n".join(
        hidden)
