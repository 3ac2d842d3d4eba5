"""No two modules of the project import each other, directly or round a loop, and the layers
import only downwards (docs/architecture.md).

Every import statement counts, those inside functions too: a deferred import is how a cycle
hides, and it still ties the two modules together. The graph is read from the source (``ast``),
so nothing is imported to check it.

- No cycle among the modules of ``play``, ``registry``, ``talu_site`` and ``talu_cli``.
- ``play`` imports nothing of ``registry``: the registry depends on live play (it archives
  its finished games, ``play.lifecycle``), never the other way round (``play.ports``).
- The pure cores import nothing of the rest of the project but each other (and no Django:
  ``tests/test_purity.py``).
- Migrations import no project code but the pure cores: a migration is frozen history, and
  live code moves. (A field's callable default must be importable by its path, so a migration
  may name a pure core's function, e.g. R26's ``registry.scoring.strata.new_player_id``.)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("play", "registry", "talu_site", "talu_cli")
PURE = ("play.games", "registry.scoring", "registry.records")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            out[_module_name(path)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (anywhere in the file)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = name.split(".")
                if not is_package:
                    parent = parent[:-1]
                parent = parent[:len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for target in targets:
            # The longest known module the target names (a name imported from a module is
            # the module itself).
            parts = target.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts:
                found.add(".".join(parts))
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()
            if ".migrations." not in name + "."}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_no_module_imports_itself_round_a_loop():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_play_imports_nothing_of_the_registry():
    bad = sorted((name, target) for name, targets in _graph().items() if _within(name, "play")
                 for target in targets if _within(target, "registry"))
    assert bad == []


def test_the_pure_cores_import_only_pure_cores():
    bad = sorted((name, target) for name, targets in _graph().items()
                 if any(_within(name, p) for p in PURE)
                 for target in targets if not any(_within(target, p) for p in PURE))
    assert bad == []


def test_migrations_import_no_project_code_but_the_pure_cores():
    modules = _modules()
    known = set(modules)
    bad = sorted((name, target) for name, path in modules.items()
                 if ".migrations." in name + "."
                 for target in _imports(name, path, known)
                 if not any(_within(target, p) for p in PURE))
    assert bad == []
