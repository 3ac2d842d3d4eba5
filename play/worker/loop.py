"""The worker's loop: run due jobs, then sleep until woken or the poll interval passes.

Woken through the channel layer: every worker joins the group ``talu.worker``
(``play.live.delivery.WORKER_GROUP``) with a channel of its own, and the command path sends
``worker.wake`` there when a command ends a game, so archiving starts within milliseconds on
any process (Redis) or in the server's own process (the embedded in-memory layer). A lost wake
costs at most ``TALU_WORKER_POLL`` seconds: the loop also polls.

The database work runs on threads (``sync_to_async``), never on the loop; after a job the
loop announces its result to the game's sockets (the archived game's records and rating
changes, ``delivery.announce_archived``).

Four jobs run side by side, each woken by ``worker.wake``: the outbox's (archiving), the
clock's (flags at their deadline, R37, on a thread of its own: ``play.worker.clock_thread``),
the pools' waves (R47), so that neither a flag nor a pairing waits behind an archive's
signatures, and the computer's turns (``play.computer.mover``), which a wake that names only
them (``jobs: ["computer"]``, ``delivery.wake_computer``) wakes alone.
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
from django.db import close_old_connections

from play import conf, gameview, lifecycle
from play.computer.mover import Mover
from play.live import lobby as lobby_live
from play.live.delivery import (
    WORKER_GROUP,
    announce_archived,
    announce_pairing,
    layer_call,
)
from play.lobby import pool
from play.models import Game
from play.worker import jobs, notices, outbox
from play.worker.clock_thread import ClockThread

log = logging.getLogger(__name__)


def worker_id() -> str:
    return f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def _archive_due(worker: str, lease: float) -> list[tuple[str, dict]]:
    """Claim and run the due outbox rows; the (game uuid, metadata) of each game whose
    subscribers all succeeded."""
    done = []
    for pk in outbox.claim(worker, lease, limit=conf.worker_batch()):
        game = outbox.run(pk, worker)
        if game is not None:
            game = Game.objects.get(pk=game.pk)
            done.append((str(game.uuid), gameview.game_meta(game)))
    return done


def _archive_due_in_thread(worker: str, lease: float) -> list[tuple[str, dict]]:
    """``_archive_due`` on one of the loop's threads, whose connection may have gone stale
    since its last round (Django's request cycle does this for views)."""
    close_old_connections()
    try:
        return _archive_due(worker, lease)
    finally:
        close_old_connections()


NOTICE_EVERY = 30.0  # seconds between two rounds of correspondence notices (a day's scale)


def _notices_in_thread() -> None:
    """The correspondence notices (``play.worker.notices``) on one of the loop's threads."""
    close_old_connections()
    try:
        notices.send_due()
    finally:
        close_old_connections()


def warm_up() -> None:
    """Load, once, what the first flag would otherwise load while its players wait: the
    site's URL map (the first ``reverse``, for the players' profile links in every update,
    imports every view module: 0.3 s on a quiet machine, over 1 s on a busy one, measured
    as the first flags' delay in ``benchmarks/bench_deadlines.py``) and the rules' tables
    of each variant (a snapshot)."""
    from django.urls import reverse

    from play import games
    from play.games.registry import VARIANT_NAMES

    reverse("lobby")
    for variant in VARIANT_NAMES:
        games.snapshot(games.new_state(variant))


def _waves_in_thread(waited: list[int] | None = None) -> list[pool.Pairing]:
    """The quick-pairing pools' due waves (R47, ``play.lobby.pool``) on one of the loop's
    threads; the games they started (the accounts left waiting into ``waited``)."""
    close_old_connections()
    try:
        return pool.run_due_waves(waited=waited)
    finally:
        close_old_connections()


def run_sessions() -> None:
    """R38: the adjourned games' ended sittings get their session entries (the subscribers
    of ``adjourned``, idempotent: a game whose entries are written costs two small reads)."""
    for game in Game.objects.filter(status=Game.LIVE, to_move=""):
        for name, subscriber in lifecycle.adjourned_subscribers():
            try:
                subscriber(game)
            except Exception:
                log.warning("%s failed for game %s", name, game.uuid, exc_info=True)


def _sessions_in_thread() -> None:
    close_old_connections()
    try:
        run_sessions()
    finally:
        close_old_connections()


def _jobs_in_thread() -> int:
    """Other apps' registered jobs (``play.worker.jobs``: an event's scheduled rounds) on one
    of the loop's threads."""
    close_old_connections()
    try:
        return jobs.run_all()
    finally:
        close_old_connections()


def run_due(worker: str | None = None) -> int:
    """Run every due job once, here and now, on the caller's connection (the demo data,
    tests); how many finished."""
    return len(_archive_due(worker or worker_id(), conf.worker_lease()))


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

    async def run(self) -> None:
        layer = get_channel_layer()
        listener = None
        if layer is not None:
            channel = await layer.new_channel("worker.")
            await layer_call(layer.group_add, WORKER_GROUP, channel)
            listener = asyncio.ensure_future(self._listen(layer, channel))
        log.info("worker %s running (poll %.1f s)", self.name, conf.worker_poll())
        # The clock's job runs beside the outbox's: a flag never waits behind an archive (its
        # signatures take far longer than a flag may be late, R37).
        try:
            await sync_to_async(warm_up, thread_sensitive=False)()
        except Exception:  # pragma: no cover - the same code runs for every command
            log.warning("worker warm-up failed", exc_info=True)
        self.clock = ClockThread(self.name, asyncio.get_running_loop())
        self.clock.start()
        # The pools' waves beside both: a pairing never waits behind an archive either (R47).
        pools = asyncio.ensure_future(self._job(self.pool_wake, self.pool_round,
                                                conf.worker_poll))
        # The computer's turns as a job of their own, woken alone when a person passes the
        # turn to it (``delivery.wake_computer``): its wake-ups run no other job's round.
        computer = asyncio.ensure_future(self._job(self.computer_wake, self.computer_round,
                                                   conf.worker_poll))
        try:
            await self._job(self.wake, self.round, conf.worker_poll)
        finally:
            pools.cancel()
            computer.cancel()
            if listener is not None:
                listener.cancel()
            await self.clock.stop()

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
            await sync_to_async(_notices_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("correspondence notices failed", exc_info=True)

    async def round(self) -> None:
        """One pass over the due outbox work; errors are logged, never end the loop."""
        self.rounds += 1
        try:
            done = await sync_to_async(_archive_due_in_thread, thread_sensitive=False)(
                self.name, conf.worker_lease())
        except Exception:  # the database away: try again at the next round
            log.warning("worker round failed", exc_info=True)
            return
        for game_uuid, meta in done:
            await announce_archived(game_uuid, meta)
        if done:  # live games changed (play.live.lobby)
            await lobby_live.notify()
        try:
            await sync_to_async(_sessions_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("worker sessions round failed", exc_info=True)
        await self.notices_round()
        try:
            await sync_to_async(_jobs_in_thread, thread_sensitive=False)()
        except Exception:
            log.warning("worker jobs round failed", exc_info=True)
        alive = conf.worker_alive_file()
        if alive:  # the container's health check reads its age (deploy/healthcheck.py)
            try:
                with open(alive, "a"):
                    os.utime(alive)
            except OSError as err:
                log.warning("worker: cannot touch %s (%s)", alive, err)

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
        try:
            pairings = await sync_to_async(_waves_in_thread, thread_sensitive=False)(waited)
        except Exception:  # the database away: the pools wait for the next round
            log.warning("worker: the pool's waves failed", exc_info=True)
            return
        for pairing in pairings:
            await announce_pairing(pairing)
        if pairings:  # live games and pool counts changed (play.live.lobby)
            await lobby_live.notify()
        await lobby_live.notify_users(waited)

    async def _listen(self, layer, channel: str) -> None:
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
