"""The import graph as docs/architecture.md draws it, checked on every module's source.

Layers, bottom up: the pure cores (no Django, no app code); the event app (``tournament``); the
``games`` and ``clocks`` apps, which stand on the event app; ``backups``, which carries both
the event and its game records, and ``autopilot``; ``bench``, the benchmarks; the project
modules (settings, URLs, ASGI/WSGI) that put everything together. An import may point down or
sideways within its layer, never up. Imports inside functions count too: hiding one there does
not change the dependency. Foreign keys count as well: a string reference to another app's
model is a dependency that no import shows. And no module reaches itself through its imports (a
circle: two concepts with no home of their own), whatever the layers.
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
    "tournament.inputs.json_input",
    "clocks.core",
    "autopilot.core",
)
PROJECT = ("tournament.settings", "tournament.urls",
           "tournament.asgi", "tournament.wsgi")
PACKAGES = ("tournament", "games", "clocks", "backups", "autopilot", "bench")
#: Each app's layer, bottom up; an app may use the apps of lower layers and of its own. The
#: benchmarks stand on everything and nothing stands on them.
LAYER = {"tournament": 0, "games": 1, "clocks": 1, "backups": 2, "autopilot": 2, "bench": 3}


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
    for package in PACKAGES:
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
        or (_within(name, PACKAGES) and not _within(name, CORES))
    )
    assert not bad, f"{module} is a pure core but imports {bad}"


def _app(module: str) -> str | None:
    """The app a module belongs to for layering (None: a core or a project module)."""
    if _within(module, CORES) or _within(module, PROJECT):
        return None
    return module.split(".")[0]


def test_no_app_imports_an_app_above_it():
    upward = sorted(
        f"{module} imports {name}"
        for module, names in MODULES.items()
        if (app := _app(module)) is not None
        for name in names
        if (other := _app(name)) in LAYER and LAYER[other] > LAYER[app]
    )
    assert not upward, "imports point up:\n" + "\n".join(upward)


@pytest.mark.django_db
def test_no_foreign_key_points_up():
    from django.apps import apps  # here: the app registry is ready only once pytest-django ran

    upward = sorted(
        f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}"
        for model in apps.get_models()
        if model._meta.app_label in LAYER
        for field in model._meta.get_fields()
        if field.is_relation and field.concrete and field.related_model is not None
        and LAYER.get(field.related_model._meta.app_label, -1) > LAYER[model._meta.app_label]
    )
    assert not upward, "foreign keys point up: " + ", ".join(upward)


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
                      if _within(name, PACKAGES)]
    return found


def test_no_project_import_hides_inside_a_function():
    hidden = [
        line
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        # a benchmark script run on its own sets Django up before it can import the apps
        if "migrations" not in path.parts and not path.is_relative_to(ROOT / "bench" / "scripts")
        for line in _hidden_imports(path)
    ]
    assert not hidden, "imports inside functions (move them up, or move the code):\n" + "\n".join(
        hidden)


PATHS = {_module_name(path): path for package in PACKAGES
         for path in sorted((ROOT / package).rglob("*.py")) if "migrations" not in path.parts}


def _known(name: str) -> str | None:
    """The product module ``name`` is, or is in (a name imported from a module: its module)."""
    while name and name not in PATHS:
        name = name.rpartition(".")[0]
    return name or None


def _arrows(module: str) -> set[str]:
    """The product modules ``module`` imports, precisely: ``from clocks import groups`` points
    at ``clocks.groups``, not at the package; relative imports resolved; imports under
    ``TYPE_CHECKING`` and inside functions count (they are dependencies all the same)."""
    path = PATHS[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_known(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in PATHS else _known(base))
    return found - {None, module}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while not part or part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_reaches_itself_through_its_imports():
    graph = {module: _arrows(module) & PATHS.keys() for module in PATHS}
    circles = _circles(graph)
    assert not circles, "import circles (give the shared concept a module of its own):\n" + \
        "\n".join(" <-> ".join(circle) for circle in circles)


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _arrows("clocks.core.clock") >= {"clocks.core.reconcile", "clocks.core.hearing"}
