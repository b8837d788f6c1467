"""The layout holds: apps import downwards only, no module imports itself back through
others, and no module outgrows one topic."""

import ast
from pathlib import Path

from django.conf import settings

ROOT = settings.BASE_DIR
# corpus ← retrieval ← answering ← chat; the project package (settings, urls) sits on top.
LAYERS = ("corpus", "retrieval", "answering", "chat", "duocthu")
# The name tables' validator (corpus/name_rules.py) asks the resolver whether a name already
# names another drug, and the phrase tables what a word already means; the one upward
# import, kept inside its functions.
ALLOWED_UPWARD = {
    ("corpus.name_rules", "retrieval.catalog"),
    ("corpus.name_rules", "retrieval.phrases"),
    ("corpus.name_rules", "retrieval.section_phrases"),
    ("corpus.name_rules", "retrieval.situations"),
}
MAX_LINES = 360  # "~350": one topic per module


def _modules() -> dict[str, Path]:
    found = {}
    for app in LAYERS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "tests" in parts or "migrations" in parts:
                continue
            name = ".".join(p for p in parts if p != "__init__")
            found[name] = path
    return found


def _imports(path: Path, known: set[str]) -> set[str]:
    """Project modules this file imports, at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {n for n in names if n in known}
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, set(modules)) - {name} for name, path in modules.items()}


def test_apps_import_only_the_apps_below_them() -> None:
    upward = {
        (module, imported)
        for module, imports in _graph().items()
        for imported in imports
        if LAYERS.index(imported.split(".")[0]) > LAYERS.index(module.split(".")[0])
    }
    assert upward == ALLOWED_UPWARD


def test_no_module_imports_itself_back_through_others() -> None:
    graph = _graph()
    for module, _ in ALLOWED_UPWARD:
        graph[module] -= {imported for m, imported in ALLOWED_UPWARD if m == module}
    cycles = []
    for start in graph:
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(" → ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert not cycles, cycles[:5]


def test_no_module_outgrows_one_topic() -> None:
    long = {
        name: n
        for name, path in _modules().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long
