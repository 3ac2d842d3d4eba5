"""A worker started while Redis is down (issue 41, finding 10) used to exit with a traceback
(``manage.py play_worker``: the channel layer's first subscription failed in ``Worker.run``).
It now says so in words, tries again with backoff, runs its jobs on their poll meanwhile, and
once Redis is there it is woken through it like any worker.

The worker is the real command in a process of its own, on a copy of the migrated SQLite
database, with ``REDIS_URL`` naming a free port where a private ``redis-server`` (the cluster
tests' ``RedisServer``, which keeps nothing on disk) is started only after a while.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry.records import keys
from tests import testdb
from tests.cluster.harness import REDIS_SERVER, RedisServer
from tests.site.livesite import free_port, site_env

ROOT = Path(__file__).resolve().parents[2]
NOT_REACHED = "cannot reach the channel layer (Redis)"
REACHED = "reached the channel layer; woken through it again"


def _wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _wake(redis_url: str) -> None:
    """``worker.wake`` to the workers' group, as a server process sends it."""
    from play.live.delivery import WORKER_GROUP
    from talu_site.pubsub_layer import PipelinedPubSubChannelLayer

    async def send() -> None:
        layer = PipelinedPubSubChannelLayer(hosts=[{"address": redis_url}], prefix="talu")
        try:
            await layer.group_send(WORKER_GROUP, {"type": "worker.wake"})
        finally:
            await layer.flush()

    asyncio.run(send())


def test_a_worker_started_before_redis_waits_for_it_then_is_woken_through_it(tmp_path):
    if not (shutil.which(REDIS_SERVER) or Path(REDIS_SERVER).exists()):
        pytest.skip(f"no redis-server at {REDIS_SERVER}")
    port = free_port()
    redis_url = f"redis://127.0.0.1:{port}/0"
    alive = tmp_path / "worker-alive"
    testdb.copy_sqlite(tmp_path / "site.sqlite3")
    env = {**site_env(tmp_path), "REDIS_URL": redis_url, "TALU_WORKER_ALIVE_FILE": str(alive),
           # Rounds only when woken (the first one at start), and connections given up fast.
           "TALU_WORKER_POLL": "300", "TALU_CHANNEL_CONNECT_TIMEOUT": "1",
           "TALU_ARCHIVE_PROCESS": "false"}
    log_path = tmp_path / "worker.log"
    redis = RedisServer(tmp_path, port)
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "manage.py", "play_worker"], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT)

    def text() -> str:
        return log_path.read_text()

    try:
        # Redis is not there: it says so, in words, again and again, and keeps running.
        _wait_for(lambda: text().count(NOT_REACHED) >= 3 or proc.poll() is not None, 60,
                  "the worker's words about Redis")
        assert proc.poll() is None, text()[-3000:]
        assert "trying again in" in text()
        _wait_for(alive.exists, 30, "the worker's first round (its jobs run without Redis)")
        redis.start()
        _wait_for(lambda: REACHED in text(), 60, "the worker to reach Redis")
        assert proc.poll() is None
        # Woken through Redis: a round runs now, not at the next poll five minutes away.
        before = alive.stat().st_mtime_ns
        time.sleep(0.05)

        def woken() -> bool:
            _wake(redis_url)
            return alive.stat().st_mtime_ns != before

        _wait_for(woken, 30, "a round after a wake through Redis")
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        redis.stop()
        keys.stop_agent(tmp_path / "keyring")
    out = text()
    assert proc.returncode == 0, out[-3000:]
    assert "stopped" in out.splitlines()[-1], out[-3000:]
    assert "Traceback" not in out, out[-3000:]
