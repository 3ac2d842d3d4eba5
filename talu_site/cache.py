"""Django's Redis cache with one client, and so one connection pool, per process and server.

Django makes a cache object per thread and per asyncio task (its cache handler is
context-local), and each ``RedisCache`` made a ``RedisCacheClient`` of its own, with its own
connection pool. Under daphne every websocket opened and every HTTP request runs in a task of
its own, so each one that read its session from the cache (``SESSION_ENGINE`` cached_db) or
counted an API throttle opened a new TCP connection to Redis, used it once and dropped it
(BENCHMARKS.md, issue 7). Here the objects Django makes share one client per server list and
options: redis-py's pools are thread-safe and start afresh in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    """``RedisCache`` whose client (and pool) is the process's for its servers and options."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
