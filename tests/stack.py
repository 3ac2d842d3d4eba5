"""The real services the tests run on (PostgreSQL, Redis): where they are, whether they can be
reached, and the lane a test process runs in.

Settings are read once per process, so the tests that must also run on PostgreSQL and Redis
run in a second pytest run over the same modules, the *services lane* (``tests/lanes.py``,
``./dev test`` runs both lanes): ``TALU_TEST_LANE=services`` makes this module point
``DATABASE_URL`` and ``REDIS_URL`` at the test services before Django is set up
(``configure_lane``, called by ``tests/conftest.py``). Each test is an ordinary test of that
run, reported by name. Under CI (``CI=true``) an unreachable service FAILS the run; elsewhere
the lane is skipped with a message. Override the addresses with ``TALU_TEST_DATABASE_URL`` /
``TALU_TEST_REDIS_URL``.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATABASE_URL = os.environ.get("TALU_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TALU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

#: The lanes (``TALU_TEST_LANE``): ``embedded`` (the default: SQLite and the in-memory layer,
#: as ``./dev serve``) and ``services`` (PostgreSQL and Redis, as production).
LANES = ("embedded", "services")


def lane() -> str:
    """This test process's lane."""
    value = os.environ.get("TALU_TEST_LANE", "").strip() or "embedded"
    if value not in LANES:
        raise pytest.UsageError(f"TALU_TEST_LANE={value!r}: use one of {', '.join(LANES)}")
    return value


def on_services() -> bool:
    """Whether this process runs the services lane (PostgreSQL and Redis)."""
    return lane() == "services"


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


def configure_lane() -> str | None:
    """Point this process at the services lane's PostgreSQL and Redis when it runs that lane
    (before Django reads its settings). Returns why the lane cannot run (services
    unreachable), or None. Names are per run (the controller's pid, which xdist's workers
    inherit through the environment), so two runs on one machine never share a database, a
    channel prefix or cache keys; nor do two xdist workers of one run share a prefix."""
    run = os.environ.setdefault("TALU_TEST_RUN", str(os.getpid()))
    if not on_services():
        for name in ("DATABASE_URL", "REDIS_URL"):  # a developer's own never leaks in
            os.environ.pop(name, None)
        os.environ["TALU_TEST_DB_NAME"] = str(ROOT / "var" / f"test-{run}.sqlite3")
        return None
    problems = [p for p in (unreachable(DATABASE_URL, 5432), unreachable(REDIS_URL, 6379)) if p]
    if problems:
        return "PostgreSQL and Redis needed by the services lane: " + "; ".join(problems)
    # Per xdist worker too: each worker has a database of its own (pytest-django's suffix), so
    # its channel groups (the lobby's) and cache keys (rate-limit counters by user id, which
    # two databases share) must be its own, or one worker's tests hear the other's.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    tag = f"{run}-{worker}" if worker else run
    os.environ.update({
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "DB_CONN_MAX_AGE": "0",
        "TALU_TEST_DB_NAME": f"test_talu_{run}",
        "TALU_CHANNEL_PREFIX": f"talu-test-{tag}",
        "TALU_CACHE_PREFIX": f"talu-test-cache-{tag}",
    })
    _prefixes_in_place()
    return None


def _prefixes_in_place() -> None:
    """In an xdist worker pytest-django has read the settings already, before any conftest
    (the worker inherits ``DJANGO_SETTINGS_MODULE`` from its controller): the worker's own
    prefixes go into them in place, before any channel layer or cache is made. Django is not
    imported here when it was not (the pure cores' tests run without it)."""
    conf = sys.modules.get("django.conf")
    if conf is None or not conf.settings.configured:
        return  # read later, from the environment above
    for layer in conf.settings.CHANNEL_LAYERS.values():
        if "prefix" in layer.get("CONFIG", {}):
            layer["CONFIG"]["prefix"] = os.environ["TALU_CHANNEL_PREFIX"]
    for cache in conf.settings.CACHES.values():
        if "KEY_PREFIX" in cache:
            cache["KEY_PREFIX"] = os.environ["TALU_CACHE_PREFIX"]


def relative(path: Path | str) -> str:
    return str(Path(path).resolve().relative_to(ROOT))
