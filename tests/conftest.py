"""Fixtures shared by every test package (none of them imports Django: the cores' tests run
without it)."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import pytest

from tests.stack import IN_CI

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


@pytest.fixture(scope="session", autouse=True)
def _release_the_postgresql_test_database(request):
    """In a child run on PostgreSQL (``tests/stack.py``), end the sessions that server threads
    (the websocket's database pool, heartbeats still winding down) hold on the test database,
    so pytest-django can drop it instead of leaving one database behind per run."""
    if not os.environ.get("TALU_TEST_STACK") or not os.environ.get("DATABASE_URL", "").startswith(
            ("postgres://", "postgresql://")):
        yield
        return
    request.getfixturevalue("django_db_setup")  # torn down after this fixture
    blocker = request.getfixturevalue("django_db_blocker")
    yield
    from django.db import connection

    with blocker.unblock(), connection.cursor() as cur:
        cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    connection.close()


def pytest_sessionfinish(session, exitstatus) -> None:
    """Stop the gpg-agent that signing started in a test session's throw-away keyring (the
    site, API and registry conftests make one per session, ``tests/stack.py`` one per child
    run, all under the temporary directory): each run left one running. A keyring elsewhere
    (a developer's own) is left alone."""
    keyring = os.environ.get("TALU_KEYRING", "")
    if keyring and Path(keyring).resolve().is_relative_to(Path(tempfile.gettempdir()).resolve()):
        from registry.records import keys

        keys.stop_agent(keyring)
