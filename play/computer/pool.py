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

Which waiting search starts when a process is free is decided by ``fair.FairScheduler``, not
by the order they came (issue 41): by the account the computer plays against, the fewest
running first, then the cheap levels, then round robin; and one process more than
``conf.processes()`` (``QUICK_PROCESSES``) thinks only the cheap levels (``QUICK_COST``), so a
level-1 reply neither waits behind other accounts' queued level-8 searches nor for one to end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from play.background_pool import LazyPool, process_pool
from play.computer import conf
from play.computer.fair import FairExecutor, FairScheduler
from play.computer.think import Position, player_for, think

QUICK_PROCESSES = 1  # processes beside conf.processes() that think only cheap searches
QUICK_COST = 1.0  # a cheap search's CPU seconds at most (``ComputerPlayer.seconds``; talu: 1-3)


def _make() -> FairExecutor:
    n = conf.processes()
    if n == 0:  # one thread, tests and tiny installations: no quick lane
        return FairExecutor(ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer"),
                            FairScheduler(1, 0, QUICK_COST))
    return FairExecutor(process_pool(n + QUICK_PROCESSES, conf.idle(), conf.niceness()),
                        FairScheduler(n, QUICK_PROCESSES, QUICK_COST))


_pool = LazyPool(_make)


def executor() -> FairExecutor:
    pool = _pool.get()
    assert isinstance(pool, FairExecutor)  # _make always makes one
    return pool


async def think_async(variant: str, position: Position, level: int,
                      seconds: float | None = None, account: Hashable = None,
                      **clock: Any) -> dict[str, Any]:
    """``think`` in the pool, awaited without blocking the loop. ``position``: a snapshot of
    the engine or the stored events; ``account``: the person the computer plays, whose
    searches share the pool fairly with everyone else's (``fair``); ``clock``: its
    ``deadline``, ``increment`` and ``reserve`` in a timed game (R36). Cancelled, a search
    not yet started is dropped."""
    cost = player_for(variant).seconds(level) if seconds is None else seconds
    job = partial(think, variant, position, level, seconds, **clock)
    pool = executor()
    try:
        return await asyncio.wrap_future(pool.submit_for(account, cost, job))
    except BrokenProcessPool:
        # A process of the pool died (killed, out of memory): the pool is broken for good and
        # every later search would fail with it until the worker restarted. It is dropped, as
        # the archive's is (``play.worker.archiver``), and the search runs once more in a new
        # one; a second failure is the caller's (the clock's guard plays a quick turn).
        _pool.drop(pool)
        return await asyncio.wrap_future(executor().submit_for(account, cost, job))


def shutdown() -> None:
    """Stop the pool (tests, a worker's exit)."""
    _pool.shutdown()
