"""The real services the tests run on (PostgreSQL, Redis): where they are, whether they can be
reached, and the child pytest that runs test modules again with them configured.

Settings are read once per process, so a suite on the real services is a second pytest process
over the same modules with ``DATABASE_URL`` (and ``REDIS_URL``) set. Under CI (``CI=true``) an
unreachable service FAILS the test that needs it; elsewhere it is skipped. Override the addresses
with ``TALU_TEST_DATABASE_URL`` / ``TALU_TEST_REDIS_URL``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATABASE_URL = os.environ.get("TALU_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TALU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unreachable(url: str, default_port: int) -> str | None:
    """Why ``url``'s server cannot be reached, or None when it can."""
    u = urlparse(url)
    host, port = u.hostname or "127.0.0.1", u.port or default_port
    try:
        with socket.create_connection((host, port), 3):
            return None
    except OSError as err:
        return f"{host}:{port} unreachable ({err})"


def require(what: str, problems: list[str]) -> None:
    """Fail under CI, skip elsewhere, when ``problems`` is not empty."""
    if problems:
        message = f"{what} needed: " + "; ".join(problems)
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def is_child(stack: str) -> bool:
    """Whether this process is the child run called ``stack``."""
    return os.environ.get("TALU_TEST_STACK") == stack


def run_child(stack: str, modules: list[str], *, caller: str, keyring: Path,
              redis: bool = False, timeout: int = 900) -> None:
    """Run ``modules`` in a child pytest on PostgreSQL (and Redis) and assert it all passed.

    ``caller`` (the node id of the test running this) is deselected in the child; the child
    collects the ``is_child`` checks of the calling module, which prove the services are used.
    """
    problems = [p for p in (unreachable(DATABASE_URL, 5432),
                            unreachable(REDIS_URL, 6379) if redis else None) if p]
    require("PostgreSQL" + (" and Redis" if redis else ""), problems)
    tag = f"{stack.replace('-', '_')}_{os.getpid()}"
    env = dict(os.environ)
    env.update({
        "TALU_TEST_STACK": stack,
        "DATABASE_URL": DATABASE_URL,
        "DB_CONN_MAX_AGE": "0",
        "TALU_TEST_DB_NAME": f"test_talu_{tag}",
        "TALU_KEYRING": str(keyring),
    })
    if redis:
        env.update({"REDIS_URL": REDIS_URL, "TALU_CHANNEL_PREFIX": f"talu-test-{tag}",
                    "TALU_CACHE_PREFIX": f"talu-test-cache-{tag}"})
    else:
        env.pop("REDIS_URL", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "--deselect", caller, *modules],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, tail


def relative(path: Path | str) -> str:
    return str(Path(path).resolve().relative_to(ROOT))
