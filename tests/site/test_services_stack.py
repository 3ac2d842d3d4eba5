"""The websocket tests again on PostgreSQL and Redis, in a child pytest with both set.

Settings are read once per process, so the real-services run is a second pytest process over
the same test modules with ``DATABASE_URL`` and ``REDIS_URL`` set. Under CI (``CI=true``) the
services must be reachable: an unreachable one FAILS this test; elsewhere it is skipped.
Override the addresses with ``TALU_TEST_DATABASE_URL`` / ``TALU_TEST_REDIS_URL``.
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
REDIS_URL = os.environ.get("TALU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHILD = os.environ.get("TALU_TEST_STACK") == "services"

pytestmark = pytest.mark.services


def reachable(url: str, default_port: int) -> str | None:
    u = urlparse(url)
    try:
        with socket.create_connection((u.hostname or "127.0.0.1", u.port or default_port), 3):
            return None
    except OSError as err:
        return f"{u.hostname}:{u.port or default_port} unreachable ({err})"


def test_websocket_suite_on_postgresql_and_redis(tmp_path):
    problems = [p for p in (reachable(DATABASE_URL, 5432), reachable(REDIS_URL, 6379)) if p]
    if problems:
        message = "PostgreSQL/Redis needed: " + "; ".join(problems)
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    tag = f"{os.getpid()}"
    env = dict(os.environ)
    env.update({
        "TALU_TEST_STACK": "services",
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "DB_CONN_MAX_AGE": "0",
        "TALU_TEST_DB_NAME": f"test_talu_site_{tag}",
        "TALU_CHANNEL_PREFIX": f"talu-test-{tag}",
        "TALU_KEYRING": str(tmp_path / "keyring"),
    })
    modules = sorted(str(p.relative_to(ROOT)) for p in Path(__file__).parent.glob("test_ws_*.py"))
    me = str(Path(__file__).relative_to(ROOT))
    modules.append(me)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "--deselect", f"{me}::test_websocket_suite_on_postgresql_and_redis",
         *modules, "tests/site/test_arbiter_and_resign.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, tail


if CHILD:  # collected in the child run only

    @pytest.mark.django_db
    def test_child_really_uses_postgresql_and_redis():
        from channels.layers import get_channel_layer
        from django.db import connection

        assert connection.vendor == "postgresql"
        assert type(get_channel_layer()).__name__ == "RedisChannelLayer"
