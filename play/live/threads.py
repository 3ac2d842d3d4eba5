"""The bounded pool of threads a server process runs its websockets' database work on.

Channels' default runs every database call of a process on one thread, one after the other, so
one process applied one step at a time whatever the number of games (measured: BENCHMARKS.md).
The pool (``TALU_WS_DB_THREADS``, ``play.conf``) lets the slow road of the command path, syncs
and heartbeats of different games run concurrently, each on its own database connection,
bounded so database work cannot starve the event loop that reads the channel layer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from channels.db import database_sync_to_async

from play import conf


@cache
def _db_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=conf.db_threads(), thread_name_prefix="talu-db")


def in_db_pool(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``func`` run on the pool (closing stale connections first, as Channels does)."""
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_pool())
