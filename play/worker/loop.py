"""The worker's loop: run due jobs, then sleep until woken or the poll interval passes.

Woken through the channel layer: every worker joins the group ``talu.worker``
(``play.live.delivery.WORKER_GROUP``) with a channel of its own, and the command path sends
``worker.wake`` there when a command ends a game, so archiving starts within milliseconds on
any process (Redis) or in the server's own process (the embedded in-memory layer). A lost wake
costs at most ``TALU_WORKER_POLL`` seconds: the loop also polls. A worker started while the
layer (Redis) cannot be reached says so and tries again with backoff until it can (``_join``),
running its jobs on their poll meanwhile, as a running worker does while Redis is away: it never
exits with a traceback for that (issue 41, finding 10).

The database work runs on threads (``sync_to_async``; the jobs as they run there are
``play.worker.rounds``) or in the archive's process (``play.worker.archiver``), never on the
loop; after a job the
loop announces its result to the game's sockets (the archived game's records and rating
changes, ``delivery.announce_archived``).

Five jobs run side by side, each woken by ``worker.wake``: the outbox's (archiving), the
clock's (flags at their deadline, R37, on a thread of its own: ``play.worker.clock_thread``),
the pools' waves (R47), the other apps' registered jobs (``play.worker.jobs``: an event's round
paired or started), so that neither a flag nor a pairing waits behind an archive's signatures,
and the computer's turns (``play.computer.mover``), which a wake that names only them (``jobs:
["computer"]``, ``delivery.wake_computer``) wakes alone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from play import conf
from play.computer.mover import Mover
from play.live import lobby as lobby_live
from play.live.delivery import (
    LAYER_TIMEOUT,
    WORKER_GROUP,
    announce_archived,
    announce_pairing,
)
from play.worker import archiver, rounds
from play.worker.clock_thread import ClockThread

log = logging.getLogger(__name__)


def worker_id() -> str:
    return f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


NOTICE_EVERY = 30.0  # seconds between two rounds of correspondence notices (a day's scale)
JOIN_RETRY = (0.5, 30.0)  # seconds before the first try again to reach the layer, and at most


def run_due(worker: str | None = None) -> int:
    """Run every due job once, here and now, on the caller's connection (the demo data,
    tests); how many finished."""
    return len(archiver.archive_due(worker or worker_id(), conf.worker_lease()))


class Worker:
    """One worker loop on the running event loop (``run`` until cancelled)."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or worker_id()
        self.wake = asyncio.Event()
        self.rounds = 0
        self.noticed_at = 0.0  # loop time of the last round of notices
        self.computer = Mover(self.name)  # the computer opponent's turns (play.computer)
        self.clock: ClockThread | None = None  # the clock's job, on its own thread
        self.pool_wake = asyncio.Event()
        self.computer_wake = asyncio.Event()
        self.apps_wake = asyncio.Event()

    async def run(self) -> None:
        layer = get_channel_layer()
        listener = None
        if layer is not None:
            listener = asyncio.ensure_future(self._listen(layer))
        log.info("worker %s running (poll %.1f s)", self.name, conf.worker_poll())
        # The clock's job runs beside the outbox's: a flag never waits behind an archive (its
        # signatures take far longer than a flag may be late, R37).
        try:
            await sync_to_async(rounds.warm_up, thread_sensitive=False)()
        except Exception:  # pragma: no cover - the same code runs for every command
            log.warning("worker warm-up failed", exc_info=True)
        self.clock = ClockThread(self.name, asyncio.get_running_loop())
        self.clock.start()
        archiver.warm()  # the archive's process sets itself up before the first game ends
        # The pools' waves beside both: a pairing never waits behind an archive either (R47).
        pools = asyncio.ensure_future(self._job(self.pool_wake, self.pool_round,
                                                conf.worker_poll))
        # The computer's turns as a job of their own, woken alone when a person passes the
        # turn to it (``delivery.wake_computer``): its wake-ups run no other job's round.
        computer = asyncio.ensure_future(self._job(self.computer_wake, self.computer_round,
                                                   conf.worker_poll))
        # The apps' jobs (an event's round to pair or start) beside the outbox: an arbiter's
        # round never waits behind the archive of another game (a CI run saw a 4-player round
        # wait more than 20 s behind the browser tests' archives).
        apps = asyncio.ensure_future(self._job(self.apps_wake, self.apps_round,
                                               conf.worker_poll))
        try:
            await self._job(self.wake, self.round, conf.worker_poll)
        finally:
            pools.cancel()
            apps.cancel()
            computer.cancel()
            if listener is not None:
                listener.cancel()
            await self.clock.stop()
            archiver.shutdown()

    @staticmethod
    async def _job(wake: asyncio.Event, run: Callable[[], Awaitable[Any]],
                   sleep: Callable[[], float]) -> None:
        """Run one job, then sleep until ``wake`` is set (``worker.wake``: a game ended, a
        join found a partner) or ``sleep()`` seconds pass (the poll; for the clock, its next
        deadline); again, until cancelled."""
        while True:
            wake.clear()
            await run()
            try:
                async with asyncio.timeout(sleep()):
                    await wake.wait()
            except TimeoutError:
                pass

    async def notices_round(self) -> None:
        """Every ``NOTICE_EVERY`` seconds, the correspondence notices: on the outbox's side of
        the worker, never in the clock's way."""
        loop_now = asyncio.get_running_loop().time()
        if loop_now - self.noticed_at < NOTICE_EVERY:
            return
        self.noticed_at = loop_now
        try:
            await sync_to_async(rounds.notices_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("correspondence notices failed", exc_info=True)

    async def round(self) -> None:
        """One pass over the due outbox work; errors are logged, never end the loop."""
        self.rounds += 1
        try:
            done = await archiver.archive_due_async(self.name, conf.worker_lease())
        except Exception:  # the database away, the archive's process killed: next round
            log.warning("worker round failed", exc_info=True)
            return
        for game_uuid, meta in done:
            await announce_archived(game_uuid, meta)
        if done:  # live games changed (play.live.lobby)
            await lobby_live.notify()
        try:
            await sync_to_async(rounds.sessions_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("worker sessions round failed", exc_info=True)
        await self.notices_round()
        alive = conf.worker_alive_file()
        if alive:  # the container's health check reads its age (deploy/healthcheck.py)
            try:
                with open(alive, "a"):
                    os.utime(alive)
            except OSError as err:
                log.warning("worker: cannot touch %s (%s)", alive, err)

    async def apps_round(self) -> None:
        """The other apps' registered jobs once (``play.worker.jobs``), on a thread."""
        try:
            await sync_to_async(rounds.jobs_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("worker jobs round failed", exc_info=True)

    async def computer_round(self) -> None:
        """The computer's turns waiting for it, claimed and started (``play.computer``)."""
        try:
            await self.computer.round()
        except Exception:  # the database away: the claims wait for the next round
            log.warning("worker: the computer's round failed", exc_info=True)

    async def pool_round(self) -> None:
        """The pools' due waves once (R47): each pairing announced to both players, the lobby
        told, the players a regular wave left waiting told their range widened."""
        waited: list[int] = []
        taken_out: list[int] = []  # deactivated, or at the board since they joined
        try:
            pairings = await sync_to_async(rounds.waves_in_thread, thread_sensitive=False)(
                waited, taken_out)
        except Exception:  # the database away: the pools wait for the next round
            log.warning("worker: the pool's waves failed", exc_info=True)
            return
        for pairing in pairings:
            await announce_pairing(pairing)
        try:  # the pool for three beside them (issue 37): its tables, the computer's seats
            tables = await sync_to_async(rounds.three_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("worker: the pool for three failed", exc_info=True)
            tables = []
        for table in tables:
            await announce_pairing(table)
        if any(t.computer for t in tables):  # a computer seat may act first
            self.computer_wake.set()
        pairings = [*pairings, *tables]
        if pairings or taken_out:  # live games and pool counts changed (play.live.lobby)
            await lobby_live.notify()
        await lobby_live.notify_users(waited)

    async def _join(self, layer) -> str:
        """A channel of this worker's own in the layer, in the group ``worker.wake`` goes to.

        While the layer cannot be reached (Redis not up yet, or away), it says so in words and
        tries again with backoff; the jobs run on their poll meanwhile. A channel made but
        not yet in the group is kept (the pub/sub layer subscribed it); one whose making
        failed is made anew (that layer keeps the name without its subscription)."""
        delay, longest = JOIN_RETRY
        channel = None
        tries = 0
        while True:
            tries += 1
            try:
                if channel is None:
                    async with asyncio.timeout(LAYER_TIMEOUT):
                        channel = await layer.new_channel("worker.")
                async with asyncio.timeout(LAYER_TIMEOUT):
                    await layer.group_add(WORKER_GROUP, channel)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("worker %s: cannot reach the channel layer (Redis) to be woken "
                            "through it (%s); trying again in %.1f s, and running the jobs "
                            "every %.1f s meanwhile", self.name,
                            str(err) or type(err).__name__, delay, conf.worker_poll())
                await asyncio.sleep(delay)
                delay = min(delay * 2, longest)
                continue
            if tries > 1:
                log.info("worker %s: reached the channel layer; woken through it again",
                         self.name)
            return channel

    async def _listen(self, layer) -> None:
        channel = await self._join(layer)
        delay = 0.2
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis away: the poll still runs the jobs
                log.warning("worker: channel layer receive failed (%s)", err)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            delay = 0.2
            if message.get("type") == "worker.wake":
                self.computer_wake.set()
                if message.get("jobs") == ["computer"]:  # delivery.wake_computer
                    continue
                self.wake.set()
                if message.get("clock", True) and self.clock is not None:
                    self.clock.wake()
                self.pool_wake.set()
                self.apps_wake.set()


_embedded: dict[int, asyncio.Task] = {}


def start_embedded() -> asyncio.Task:
    """Run a worker on the running loop (the server process on embedded defaults; tests).
    Once per loop."""
    loop = asyncio.get_running_loop()
    task = _embedded.get(id(loop))
    if task is None or task.done():
        task = loop.create_task(Worker().run(), name="talu worker")
        _embedded[id(loop)] = task
    return task
