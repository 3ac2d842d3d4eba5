"""The Redis cache (sessions, API throttles): the cache objects Django makes per thread and per
task share one client, so reading a session from a new websocket's task opens no connection
(``talu_site.cache``). On the real Redis."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import uuid

import pytest
import redis

from talu_site.cache import SharedRedisCache
from tests import stack

# The system Redis is shared by every test process of a run: the tests that count its clients
# run one after another on one xdist worker (tests/lanes.py).
pytestmark = [pytest.mark.services, pytest.mark.xdist_group("system-redis")]


@pytest.fixture
def make_cache():
    stack.require("Redis", [p for p in (stack.unreachable(stack.REDIS_URL, 6379),) if p])
    prefix = f"talu-test-shared-cache-{uuid.uuid4().hex[:8]}"

    def make() -> SharedRedisCache:
        return SharedRedisCache(stack.REDIS_URL, {"KEY_PREFIX": prefix})

    yield make
    # Only this test's keys: the cache's clear() would flush the database others share.
    client = redis.Redis.from_url(stack.REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


def connections_now() -> int:
    return int(redis.Redis.from_url(stack.REDIS_URL).info("clients")["connected_clients"])


def test_cache_objects_of_other_threads_and_tasks_share_one_client(make_cache):
    first = make_cache()
    first.set("k", {"v": 1})
    made: list[SharedRedisCache] = []

    def in_a_thread() -> None:
        made.append(make_cache())

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()

    async def in_a_task() -> None:
        made.append(make_cache())

    contextvars.copy_context().run(asyncio.run, in_a_task())
    assert all(other._cache is first._cache for other in made)
    assert [other.get("k") for other in made] == [{"v": 1}, {"v": 1}]


def test_a_hundred_readers_open_no_connection_each(make_cache):
    make_cache().set("session", "data")
    before = connections_now()
    readers = [make_cache() for _ in range(100)]  # as 100 websockets' tasks would
    assert all(r.get("session") == "data" for r in readers)
    assert connections_now() - before <= 1
