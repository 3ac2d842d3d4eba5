"""The suite's setup is made once (issue 35): no test module starts a server of its own, migrates
a database of its own or runs pytest in a child process.

A live site for the browser tests is started once per test process (``tests/site/livesite.py``),
the cluster's stack once per session (``tests/cluster/conftest.py``), every database is a copy
of one migrated template (``tests/testdb.py``), and the PostgreSQL and Redis runs are a lane of
their own (``tests/lanes.py``), each test reported by name. The scan below reads every test
file's syntax tree for the calls that would do otherwise; the few places allowed to are named
with their reason. The scan is itself tested on a snippet of each fault, so it can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import nested_run

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

#: file -> (what it may do, why)
ALLOWED = {
    "tests/site/livesite.py": ({"server"}, "the one live site of a test process"),
    "tests/site/conftest.py": ({"server"}, "the live_site fixture: starts that one site"),
    "tests/cluster/harness.py": ({"server", "migrate"},
                                 "the cluster's stack (migrates only another tree's database)"),
    "tests/cluster/conftest.py": ({"server"}, "the session's one cluster"),
    "tests/testdb.py": ({"migrate"}, "the template every test database is copied from"),
    "tests/registry/test_migration.py": ({"migrate"}, "tests the migrations themselves"),
    "tests/site/test_settings_at_start.py": (
        {"server"}, "a bad setting stops the server before it serves: nothing is started"),
    "tests/lanes.py": ({"pytest"}, "the lanes: ./dev test's runs of pytest, not a test"),
    "tests/test_suite_setup.py": ({"server", "migrate", "pytest"},
                                  "this scan: its snippets of each fault are strings"),
}


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)]


def _command_words(call: ast.Call) -> list[str]:
    """The words of a command line given to ``call``: its string arguments and the strings
    of list or tuple literals among them (``[sys.executable, "-m", "pytest"]``)."""
    words = []
    for arg in [*call.args, *(k.value for k in call.keywords if k.arg in (None, "args"))]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            words.append(arg.value)
        elif isinstance(arg, (ast.List, ast.Tuple)):
            words += _strings(arg)
    return words


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return f"{_name(func.value)}.{func.attr}"
    return ""


def faults(source: str) -> set[str]:
    """What the code in ``source`` does of: ``server`` (starts daphne or a live site),
    ``migrate`` (migrates a database), ``pytest`` (runs pytest)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        words = _command_words(node)
        if name.endswith(("running_site", "Cluster")) or name == "Cluster" \
                or {"talu_site.serve", "daphne"} & set(words):
            found.add("server")
        if "migrate" in words or name.endswith(("MigrationExecutor", ".migrate")):
            found.add("migrate")
        if name == "pytest.main" or "pytest" in words:
            found.add("pytest")
    return found


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "vendor" not in p.parts)


@pytest.mark.parametrize("path", _test_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_starts_a_server_migrates_or_runs_pytest_of_its_own(path: Path):
    name = str(path.relative_to(ROOT))
    allowed, _why = ALLOWED.get(name, (set(), ""))
    unexpected = faults(path.read_text()) - allowed
    assert not unexpected, (
        f"{name} {', '.join(sorted(unexpected))}: use the session's (a live site: "
        "tests/site/livesite.py; the cluster: the `cluster` fixture; a database: the test "
        "database pytest-django gives, copied from tests/testdb.py's template; PostgreSQL and "
        "Redis: the services lane of tests/lanes.py)")


@pytest.mark.parametrize(("snippet", "fault"), [
    ("subprocess.Popen([sys.executable, '-m', 'talu_site.serve', '-p', '0'])", "server"),
    ("subprocess.Popen(['daphne', 'talu_site.asgi:application'])", "server"),
    ("with running_site(tmp) as base: pass", "server"),
    ("with Cluster(servers=2) as cl: pass", "server"),
    ("subprocess.run([sys.executable, 'manage.py', 'migrate', '--noinput'])", "migrate"),
    ("call_command('migrate', verbosity=0)", "migrate"),
    ("subprocess.run([sys.executable, '-m', 'pytest', 'tests/api'])", "pytest"),
    ("pytest.main(['tests/site'])", "pytest"),
])
def test_the_scan_finds_each_fault(snippet: str, fault: str):
    assert fault in faults(snippet)


def test_the_scan_lets_ordinary_code_be():
    assert faults("client.get('/games/'); call_command('demo_data'); pytest.fail('x'); "
                  "WebSocketFactory(object, server='daphne')") == set()


def test_a_pytest_started_inside_a_test_refuses_to_run():
    """The run-time half: ``TALU_TEST_RUN`` (the run's controller's pid) is inherited by
    anything a test starts; a pytest that finds another run's id stops with a message."""
    assert nested_run({}, 100, xdist_worker=False) is None
    assert nested_run({"TALU_TEST_RUN": "100"}, 100, xdist_worker=False) is None
    assert nested_run({"TALU_TEST_RUN": "100"}, 200, xdist_worker=True) is None  # xdist's own
    why = nested_run({"TALU_TEST_RUN": "100"}, 200, xdist_worker=False)
    assert why is not None and "process 100" in why
