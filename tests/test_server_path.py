"""No module of the server path names a game (issue 36): it asks the catalogue.

The server path (the command path, the store, the sockets, the worker, the lifecycle, the
computer, the lobby, the views and template tags, the seats) plays every game through the
contract and the catalogue (``play.games.protocol``, ``play.games.match``,
``play.games.registry``: a game's rules, variants and optional parts by its key) and the shared
helpers beside them (``play.games.clock``, ``play.games.text``, and ``play.games`` itself, the
protocol's dispatch). It never imports a game's package (``play.games.talu``, and tomorrow
``play.games.tafl``): a game is added to the catalogue, not to the server.

The scan reads the source (``ast``: nothing is imported), every import statement counted,
those inside functions too, relative ones resolved, and ``importlib.import_module`` or
``__import__`` of a literal name as well. Every module of ``play`` must be placed: on the
server path, or outside it with the reason, so a new module cannot slip past the scan.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The server path: every module under these (packages) or these modules themselves.
SERVER_PATH = (
    "play.commands", "play.store", "play.live", "play.worker", "play.lifecycle",
    "play.gameview", "play.computer", "play.lobby", "play.views", "play.views_games",
    "play.views_tables",
    "play.views_learn", "play.templatetags", "play.seats", "play.models", "play.management",
    "play.forms", "play.urls", "play.routing", "play.ports", "play.background_pool",
    "play.conf", "play.admin", "play.apps", "play.chat", "play.demo_hooks", "play",
    "talu_site",
)
#: Modules of ``play`` outside the server path, and why they may name a game.
OUTSIDE = {
    "play.games": "the games themselves, their contract and the catalogue (pure cores)",
    "play.migrations": "frozen history: a migration names what its day's games were",
}
#: What the server path may import of ``play.games``: the contract, the match, the catalogue
#: and the helpers every game shares.
ALLOWED = ("protocol", "match", "registry", "clock", "text")
GAMES = "play.games"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _games_names() -> set[str]:
    """The names ``play/games/__init__.py`` itself defines or imports (``decide``, ``run``,
    ``ARBITER_COMMANDS``...): ``from play.games import run`` names no game."""
    tree = ast.parse((ROOT / "play" / "games" / "__init__.py").read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _names_a_game(target: str) -> bool:
    """Whether the dotted name ``target`` is in a game's package: ``play.games.<x>...`` with
    ``x`` none of the contract, the match, the catalogue or the shared helpers."""
    if not _within(target, GAMES) or target == GAMES:
        return False
    return target[len(GAMES) + 1:].split(".")[0] not in ALLOWED


def game_imports(source: str, module: str, is_package: bool = False,
                 games_names: set[str] | None = None) -> list[str]:
    """The games' modules that the source of ``module`` imports, as dotted names, sorted."""
    own = _games_names() if games_names is None else games_names
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if _names_a_game(a.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                if not is_package:
                    parent = parent[:-1]
                parent = parent[:len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            if _names_a_game(base):
                found.add(base)
            elif base == GAMES:  # ``from play.games import talu``: a name, or a package?
                found.update(f"{GAMES}.{a.name}" for a in node.names
                             if a.name not in ALLOWED and a.name not in own)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            arg = node.args[0]
            if name in ("import_module", "__import__") and isinstance(arg, ast.Constant) \
                    and isinstance(arg.value, str) and _names_a_game(arg.value):
                found.add(arg.value)
    return sorted(found)


def _play_modules() -> dict[str, Path]:
    out = {}
    for package in ("play", "talu_site"):
        for path in (ROOT / package).rglob("*.py"):
            out[_module_name(path)] = path
    return out


def _on_server_path(name: str) -> bool:
    if any(_within(name, outside) for outside in OUTSIDE):
        return False
    return name in SERVER_PATH or any(_within(name, p) for p in SERVER_PATH if p != "play")


def test_no_module_of_the_server_path_imports_a_game():
    bad = {}
    for name, path in sorted(_play_modules().items()):
        if _on_server_path(name):
            found = game_imports(path.read_text(), name, path.name == "__init__.py")
            if found:
                bad[name] = found
    assert bad == {}, ("the server path asks the catalogue (play.games.registry: parts_of, "
                       f"computer_for, result_words...), it does not import a game: {bad}")


def test_every_module_of_play_is_placed():
    """A new module of ``play`` is on the server path or outside it for a stated reason."""
    unplaced = [name for name in _play_modules()
                if not _on_server_path(name) and not any(_within(name, o) for o in OUTSIDE)]
    assert unplaced == []
    scanned = [name for name in _play_modules() if _on_server_path(name)]
    assert "play.computer.think" in scanned and "play.views_learn" in scanned
    assert "play.games.registry" not in scanned  # the catalogue may name its games


SNIPPET_FORMS = [
    ("from play.games.talu import TaluGame", ["play.games.talu"]),
    ("import play.games.talu.search", ["play.games.talu.search"]),
    ("from play.games import talu", ["play.games.talu"]),
    ("from play.games import decide, talu as t, clock", ["play.games.talu"]),
    ("from play.games.talu.search.levels import CLOCK_RESERVE", ["play.games.talu.search.levels"]),
    ("import play.games.tafl as tafl", ["play.games.tafl"]),  # a game not written yet
    ("def f():\n    from play.games.talu.review import review\n", ["play.games.talu.review"]),
    ("from ..games.talu import lessons", ["play.games.talu"]),  # relative, from play.computer
    ("from ..games import talu", ["play.games.talu"]),
    ("import importlib\nimportlib.import_module('play.games.talu.search')",
     ["play.games.talu.search"]),
]


def test_the_scan_catches_every_form_of_importing_a_game():
    for source, expected in SNIPPET_FORMS:
        assert game_imports(source, "play.computer.mover") == expected, source


def test_the_scan_lets_the_contract_the_catalogue_and_the_helpers_through():
    allowed = "\n".join([
        "from play.games import ARBITER_COMMANDS, clock, run",
        "import play.games",
        "from play.games.protocol import PlayStep",
        "from play.games.protocol.parts import ComputerPlayer",
        "from play.games.match.match import Match",
        "from play.games.registry import parts_of",
        "import play.games.clock",
        "from play.games.text import one_line",
        "from ..games.registry import computer_for",
        "import talu_cli  # the command, not a game package",
    ])
    assert game_imports(allowed, "play.computer.mover") == []


def test_the_games_own_names_are_read_from_its_init():
    names = _games_names()
    assert {"decide", "run", "ARBITER_COMMANDS", "rules_for"} <= names
    assert "talu" not in names
