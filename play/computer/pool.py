"""The bounded pool of processes the computer thinks in, one per worker process.

A search is CPU-bound Python: on the worker's event loop it would stop every other job, on a
thread it would hold the GIL from the server's steps. So it runs in a ``ProcessPoolExecutor``
of ``conf.processes()`` processes, started with ``forkserver`` (a clean child, not a fork of a
process holding database connections and threads) and running ``think`` alone, which imports
no Django. A wave of computer games waits its turn in the pool's queue; human games' steps
never wait for it. The processes run under ``SCHED_IDLE`` (Linux; ``conf.idle()``): the
kernel gives a search only the CPU no other process wants, so a server's step never waits
behind one. Where that policy is missing or refused they run ``conf.niceness()`` lower than
the worker instead (``play.background_pool``, shared with the archive's process). A search
starved of CPU still keeps to the clock: its budget is counted in its own CPU seconds but its
real time is capped by the clock (``think``), and on a clock the worker's guard
(``mover.think_in_time``) plays a quick turn itself should the pool not answer in time.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Any

from play.background_pool import LazyPool, process_pool
from play.computer import conf
from play.computer.think import Position, think


def _make() -> Executor:
    n = conf.processes()
    if n == 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
    return process_pool(n, conf.idle(), conf.niceness())


_pool = LazyPool(_make)


def executor() -> Executor:
    pool = _pool.get()
    assert pool is not None  # _make always makes one
    return pool


async def think_async(variant: str, position: Position, level: int,
                      seconds: float | None = None, **clock: Any) -> dict[str, Any]:
    """``think`` in the pool, awaited without blocking the loop. ``position``: a snapshot of
    the engine or the stored events; ``clock``: its ``deadline``, ``increment`` and
    ``reserve`` in a timed game (R36)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), partial(think, variant, position, level,
                                                          seconds, **clock))


def shutdown() -> None:
    """Stop the pool (tests, a worker's exit)."""
    _pool.shutdown()
