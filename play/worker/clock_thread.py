"""The worker's clock job on a thread of its own: flags at their deadline (R37) and the
resumptions an arbiter set (R38), whatever else the worker and the machine are doing.

Why a thread of its own. Measured beside the load benchmark (``benchmarks/bench_deadlines.py
--trace`` beside ``bench_load.py --servers 2``, BENCHMARKS.md), a flag was late not for its
own work (a few milliseconds) but for the waits between the hand-overs of its way: the
worker's event loop woke for the deadline, passed the round to a thread of the shared pool,
that thread's queries each waited for the CPU again (a connection health check, the due
games, the resumptions, the rows again, the players, the append), and the loop took the
outcomes back to publish them; every hand-over queued behind the busy machine. Here one
thread does all of it:

- it sleeps until the next deadline or a wake (``wake``: a command moved a deadline sooner,
  ``play.live.delivery.wake_worker``), then runs ``clocks.run_round``: the due games read
  whole in one query, their flags decided and stored in one statement, **published at once**,
  and only then the next deadline and the resumptions;
- it keeps its database connection between rounds (no health check per round: a connection
  the database dropped is closed and the round run once more on a fresh one);
- it runs ``TALU_CLOCK_PRIORITY`` nice levels above its process where allowed (Linux: nice is
  per thread; raising it needs ``CAP_SYS_NICE`` or ``RLIMIT_NICE``), so on a busy machine the
  flags go first; the process's other threads (archiving, the pools, the computer) keep the
  process's priority.

Publishing. With a channel layer that serves any event loop (Redis: channels-redis keeps its
connections per loop) the thread publishes on an event loop of its own that runs only while
it publishes: Django refuses database work on a thread whose loop is running, so the queries
and the publishing take turns on the same thread. With the in-memory layer (the embedded
server, ``talu_site.serve``: its sockets' queues belong to the server's loop) the thread hands
the announcements to the worker's loop instead.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from datetime import datetime
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import InterfaceError, OperationalError, connection, connections
from django.utils import timezone

from play import conf
from play.live.delivery import announce, needs_worker, soon, wake_worker
from play.worker import clocks

log = logging.getLogger(__name__)

#: Seconds the worker waits for its clock thread to finish a round when it stops, and a
#: publication handed to the worker's loop may take.
STOP_TIMEOUT = 10.0


def raise_priority(levels: int) -> bool:
    """Run the calling thread ``levels`` nice levels above its process (Linux: nice is per
    thread). False, and a line in the log, where the system does not allow it."""
    if levels <= 0 or not hasattr(os, "setpriority") or not hasattr(os, "getpriority"):
        return False
    try:
        base = os.getpriority(os.PRIO_PROCESS, os.getpid())
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), max(-20, base - levels))
    except OSError as err:
        log.info("the worker's clock thread runs at its process's priority (%s): raising it "
                 "needs CAP_SYS_NICE or RLIMIT_NICE", err)
        return False
    return True


def serves_any_loop(layer: Any) -> bool:
    """Whether ``layer`` may be used from an event loop of the clock's thread (Redis), not
    only from the loop its sockets live on (the in-memory layer)."""
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


class ClockThread:
    """The clock's rounds on a thread of their own (``start``, ``wake``, ``stop``)."""

    def __init__(self, name: str, loop: asyncio.AbstractEventLoop) -> None:
        self.name = name
        self.worker_loop = loop  # the worker's loop: where announcements go on the in-memory
        self.own_loop = serves_any_loop(get_channel_layer())  # layer; else a loop of its own
        self.next_deadline: datetime | None = None  # the earliest moment due next
        self.rounds = 0
        self._wake = threading.Event()
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._main, name=f"talu clock {name}",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Run a round now (thread-safe): a deadline may have moved sooner."""
        self._wake.set()

    async def stop(self) -> None:
        """End the thread after its round, without holding up the worker's loop (which may
        be publishing for it)."""
        self._stopping = True
        self._wake.set()
        await asyncio.get_running_loop().run_in_executor(None, self._thread.join, STOP_TIMEOUT)

    def _sleep(self) -> float:
        """Seconds until the next round: the poll interval, or less when a clock runs out
        sooner (R37: a flag at the exact deadline)."""
        poll = conf.worker_poll()
        if self.next_deadline is None:
            return poll
        return max(0.0, min(poll, (self.next_deadline - timezone.now()).total_seconds()))

    def _main(self) -> None:
        raise_priority(conf.clock_priority())
        if self.own_loop:
            self._loop = asyncio.new_event_loop()
        try:
            while not self._stopping and not self._orphaned():
                self._wake.clear()
                self._round()
                if not self._stopping:
                    self._wake.wait(self._sleep())
        finally:
            if self._loop is not None:
                _close(self._loop)
            connections.close_all()  # this thread's

    def _orphaned(self) -> bool:
        """The worker's loop closed without stopping this thread (a test's loop, a server
        torn down hard): nothing could hear the flags any more."""
        return self._loop is None and self.worker_loop.is_closed()

    def _round(self) -> None:
        """One round, its errors logged (the database or Redis away: the next round tries
        again), then the workers woken once for the games it ended."""
        self.rounds += 1
        try:
            try:
                done, self.next_deadline = clocks.run_round(publish=self._publish)
            except (OperationalError, InterfaceError):
                connection.close()  # dropped while the thread slept: once more, reconnected
                done, self.next_deadline = clocks.run_round(publish=self._publish)
            if any(needs_worker(outcome) for _, outcome in done):
                # for the archives of the games it ended; the clock loops only when a clock
                # now runs out before their next poll (this one knows its next deadline)
                self._run(wake_worker(clock=any(soon(o.deadline) for _, o in done)))
        except Exception:
            log.warning("worker clock round failed", exc_info=True)
            connection.close()
            self.next_deadline = None  # the poll's time, then again

    def _publish(self, done: list[tuple[Any, Any]]) -> None:
        """Announce what a round stored to each game's sockets, on every process."""
        self._run(_announce_all(done))

    def _run(self, coro: Coroutine[Any, Any, Any]) -> None:
        if self._loop is not None:
            self._loop.run_until_complete(coro)
        else:
            asyncio.run_coroutine_threadsafe(coro, self.worker_loop).result(STOP_TIMEOUT)


async def _announce_all(done: list[tuple[Any, Any]]) -> None:
    await asyncio.gather(*(announce(game_uuid, outcome, wake=False)
                           for game_uuid, outcome in done))


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """Close the thread's loop: its pending tasks (a publisher waiting for more) cancelled,
    the channel layer's connections for it closed (channels-redis wraps ``close``)."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
