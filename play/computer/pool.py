"""The bounded pool of processes the computer thinks in, one per worker process.

A search is CPU-bound Python: on the worker's event loop it would stop every other job, on a
thread it would hold the GIL from the server's steps. So it runs in a ``ProcessPoolExecutor``
of ``conf.processes()`` processes, started with ``forkserver`` (a clean child, not a fork of a
process holding database connections and threads) and running ``think`` alone, which imports
no Django. A wave of computer games waits its turn in the pool's queue; human games' steps
never wait for it. The processes run under ``SCHED_IDLE`` (Linux; ``conf.idle()``): the
kernel gives a search only the CPU no other process wants, so a server's step never waits
behind one. Where that policy is missing or refused they run ``conf.niceness()`` lower than the
worker instead. A search starved of CPU still keeps to the clock: its budget is counted in
its own CPU seconds but its real time is capped by the clock (``think``), and on a clock the
worker's guard (``mover.think_in_time``) plays a quick turn itself should the pool not answer
in time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any

from play.computer import conf
from play.computer.think import think

_pool: Executor | None = None
_lock = threading.Lock()


def executor() -> Executor:
    global _pool
    with _lock:
        if _pool is None:
            n = conf.processes()
            if n == 0:
                _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
            else:
                _pool = ProcessPoolExecutor(
                    max_workers=n, mp_context=multiprocessing.get_context("forkserver"),
                    initializer=lower_priority, initargs=(conf.idle(), conf.niceness()))
        return _pool


def lower_priority(idle: bool, niceness: int) -> str:
    """Make the calling process (a pool's child) a background one: ``SCHED_IDLE`` when
    ``idle`` and the system has it, else ``niceness`` lower (``os.nice``). Returns which."""
    if idle and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "idle"
        except OSError:
            pass
    if niceness:
        os.nice(niceness)
    return f"nice {niceness}"


async def think_async(variant: str, events: list[tuple[str, dict[str, Any]]], level: int,
                      seconds: float | None = None, **clock: Any) -> dict[str, Any]:
    """``think`` in the pool, awaited without blocking the loop; ``clock``: its ``deadline``,
    ``increment`` and ``reserve`` in a timed game (R36)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), partial(think, variant, events, level,
                                                          seconds, **clock))


def shutdown() -> None:
    """Stop the pool (tests, a worker's exit)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
