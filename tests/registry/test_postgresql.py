"""The ledger's PostgreSQL paths (COPY, compare-in-database, advisory lock, DISTINCT ON):
the registry tests again in a child pytest with ``DATABASE_URL`` set.

Settings are read once per process, hence the child run. Under CI (``CI=true``) PostgreSQL
must be reachable: an unreachable one FAILS this test; elsewhere it is skipped. Override the
address with ``TALU_TEST_DATABASE_URL``.
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
CHILD = os.environ.get("TALU_TEST_STACK") == "registry-pg"
MODULES = ("test_annul_cascade.py", "test_correct.py", "test_recompute.py",
           "test_submission.py", "test_submission_rejected.py", "test_promotion_threshold.py",
           "test_live_rating_matches_recompute.py", "test_commands.py", "test_profile_page.py",
           "test_leaderboard.py")

pytestmark = pytest.mark.services


def test_registry_suite_on_postgresql(tmp_path):
    u = urlparse(DATABASE_URL)
    try:
        socket.create_connection((u.hostname or "127.0.0.1", u.port or 5432), 3).close()
    except OSError as err:
        message = f"PostgreSQL needed: {u.hostname}:{u.port or 5432} unreachable ({err})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    env = dict(os.environ)
    env.update({
        "TALU_TEST_STACK": "registry-pg",
        "DATABASE_URL": DATABASE_URL,
        "DB_CONN_MAX_AGE": "0",
        "TALU_TEST_DB_NAME": f"test_talu_registry_{os.getpid()}",
        "TALU_KEYRING": str(tmp_path / "keyring"),
    })
    here = Path(__file__).parent.relative_to(ROOT)
    me = str(Path(__file__).relative_to(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "--deselect", f"{me}::test_registry_suite_on_postgresql",
         *(str(here / m) for m in MODULES), me],
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
