"""The API tests again on PostgreSQL (production's database), in a child pytest.

Settings are read once per process, so this is a second pytest process over the API test
modules with ``DATABASE_URL`` set (as ``tests/site/test_services_stack.py`` does for the
websocket tests). Under CI (``CI=true``) PostgreSQL must be reachable: if it is not, this test
FAILS; elsewhere it is skipped. Override the address with ``TALU_TEST_DATABASE_URL``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("TALU_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHILD = os.environ.get("TALU_TEST_STACK") == "api-postgresql"

pytestmark = pytest.mark.services


def _unreachable(url: str) -> str | None:
    u = urlparse(url)
    try:
        with socket.create_connection((u.hostname or "127.0.0.1", u.port or 5432), 3):
            return None
    except OSError as err:
        return f"PostgreSQL at {u.hostname}:{u.port or 5432} unreachable ({err})"


def test_api_suite_on_postgresql(tmp_path):
    problem = _unreachable(DATABASE_URL)
    if problem:
        if IN_CI:
            pytest.fail(problem)
        pytest.skip(problem)
    env = dict(os.environ)
    env.update({
        "TALU_TEST_STACK": "api-postgresql",
        "DATABASE_URL": DATABASE_URL,
        "DB_CONN_MAX_AGE": "0",
        "TALU_TEST_DB_NAME": f"test_talu_api_{os.getpid()}",
        "TALU_KEYRING": str(tmp_path / "keyring"),
    })
    me = str(Path(__file__).relative_to(ROOT))
    modules = sorted(str(p.relative_to(ROOT)) for p in Path(__file__).parent.glob("test_*.py")
                     if p.name not in ("test_schema.py",))  # the schema is database-free
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "--deselect", f"{me}::test_api_suite_on_postgresql", *modules],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, tail


if CHILD:  # collected in the child run only

    @pytest.mark.django_db
    def test_child_really_uses_postgresql():
        from django.db import connection

        assert connection.vendor == "postgresql"
