"""Fixtures shared by every test package (none of them imports Django: the cores' tests run
without it), the lane this run is on (``tests/stack.py``) and the session's test database
(``tests/testdb.py``)."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import pytest

from tests.stack import IN_CI, configure_lane

# Before any test package's conftest sets Django up: the lane's database and channel layer.
_LANE_PROBLEM = configure_lane()

CHROMIUM = os.environ.get("TALU_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright (a tool's own browser download does not work
    here); missing, it fails the test under CI and skips it elsewhere."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu",
                                    "--disable-background-networking"])
        yield b
        b.close()


@pytest.fixture
def no_error_logs(caplog):
    """Any ERROR log line (a traceback logged by a handler, as python-chess's tests treat
    one) fails the test."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture(scope="session")
def django_db_setup(django_test_environment, django_db_blocker, django_db_modify_db_settings):
    """The test database of this process: a copy of the migrated template
    (``tests/testdb.py``), not a migration per process; dropped at the end (on PostgreSQL
    with its sessions, which server threads of the websocket tests may still hold)."""
    from tests import testdb

    with django_db_blocker.unblock():
        teardown = testdb.setup_django_database()
    yield
    with django_db_blocker.unblock():
        teardown()


def nested_run(environ: dict[str, str], pid: int, xdist_worker: bool) -> str | None:
    """Why this pytest must not run (it was started by a test of another pytest run: each test
    is reported by name in the one run, never hidden in a child's summary), or None.
    ``TALU_TEST_RUN`` is the run's controller's pid (``tests/stack.py``), which children
    inherit; an xdist worker is a part of its controller's run, not a nested one."""
    outer = environ.get("TALU_TEST_RUN")
    if outer and outer != str(pid) and not xdist_worker:
        return (f"pytest was started inside a test of the run of process {outer}: run the tests "
                "in that run (a lane of tests/lanes.py), not in a child pytest")
    return None


def pytest_configure(config) -> None:
    why = nested_run(dict(os.environ), os.getpid(), hasattr(config, "workerinput"))
    if why:
        raise pytest.UsageError(why)
    if _LANE_PROBLEM:
        # The services lane without its services: a failure under CI, a skipped lane elsewhere.
        pytest.exit(_LANE_PROBLEM + ("" if IN_CI else " (lane skipped outside CI)"),
                    returncode=1 if IN_CI else 0)


def pytest_sessionfinish(session, exitstatus) -> None:
    """Stop the gpg-agent that signing started in a test session's throw-away keyring (the
    site, API and registry conftests make one per session, ``tests/stack.py`` one per child
    run, all under the temporary directory): each run left one running. A keyring elsewhere
    (a developer's own) is left alone."""
    keyring = os.environ.get("TALU_KEYRING", "")
    if keyring and Path(keyring).resolve().is_relative_to(Path(tempfile.gettempdir()).resolve()):
        from registry.records import keys

        keys.stop_agent(keyring)
