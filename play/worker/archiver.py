"""The outbox's due work (a finished game's archive) in a background process of the worker.

Archiving a game (``registry.archiving``: records, gpg signatures, tally, ratings) is tens of
milliseconds of CPU-bound Python per game. On a thread of the worker it competed with the
servers for the cores and with the clock's thread (R37) for the worker's GIL: the steps of other
games that overlapped an ending were 1.3-1.75x slower at p99 (BENCHMARKS.md, issue 19). Lowering
the thread's priority cannot help, since a thread held back while holding the GIL stalls its
whole process. So the archive runs in a process of its own, made by ``play.background_pool``
(the computer's search runs the same way): ``SCHED_IDLE`` on PostgreSQL, ``TALU_ARCHIVE_NICE``
lower on SQLite (``play.conf.archive_idle`` says why), and exiting with the worker.

Nothing changes in what is the truth: the process claims the outbox rows with conditional updates
and runs their subscribers exactly as the thread did (``play.worker.outbox``), on its own
database connection, so several workers, each with its process, stay safe, and a process killed
mid-record leaves its claim to run out and the row to be taken again: its transaction was
never committed, or it was and the archive's idempotence makes the second run mark the row
only. The worker then finds its pool broken, drops it, and starts a new process at its next
round. The process returns the archived games' uuids and metadata; the worker announces them
to the sockets (``delivery.announce_archived``), as only it holds the channel layer (and, on the
embedded default, the in-memory layer lives in its process).
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from play import conf, gameview
from play.background_pool import LazyPool, process_pool, setup_django
from play.models import Game
from play.worker import outbox

log = logging.getLogger(__name__)

Archived = list[tuple[str, dict[str, Any]]]  # (game uuid, game metadata) of each game archived


def archive_due(worker: str, lease: float) -> Archived:
    """Claim and run the due outbox rows on the caller's connection; the (game uuid,
    metadata) of each game whose subscribers all succeeded."""
    done = []
    for pk in outbox.claim(worker, lease, limit=conf.worker_batch()):
        game = outbox.run(pk, worker)
        if game is not None:
            game = Game.objects.get(pk=game.pk)
            done.append((str(game.uuid), gameview.game_meta(game)))
    return done


def archive_due_fresh(worker: str, lease: float) -> Archived:
    """``archive_due`` on a connection that may have gone stale since the last round (a
    thread's or the archive process's; Django's request cycle does this for views)."""
    close_old_connections()
    try:
        return archive_due(worker, lease)
    finally:
        close_old_connections()


# What the archive's process runs for a round (a module-level function: it is pickled by name).
# Only the test that kills the process mid-record (``tests/cluster/slow_worker.py``) replaces it.
RUN = archive_due_fresh


def _make() -> Executor:
    databases = {alias: dict(config) for alias, config in settings.DATABASES.items()}
    return process_pool(1, conf.archive_idle(), conf.archive_niceness(), setup_django,
                        (databases,))


_pool = LazyPool(_make)


def executor() -> Executor | None:
    """The worker's archive process (started once, at the first round that needs it); None
    when ``TALU_ARCHIVE_PROCESS`` is off and the archive runs on a thread of the worker."""
    if not conf.archive_process():
        return None
    return _pool.get()


def warm() -> None:
    """Start the archive's process now, in the background (a worker's start): its Django
    set-up takes a second or more of its low-priority CPU, which the first game to end would
    otherwise wait for."""
    pool = executor()
    if pool is not None:
        pool.submit(os.getpid)


async def archive_due_async(worker: str, lease: float) -> Archived:
    """One round of the outbox's due work, in the archive's process (or on a thread), awaited
    without blocking the loop. Raises when the round failed (the database away, the process
    killed): its claims run out and the next round, in a new process, takes the rows again."""
    pool = executor()
    if pool is None:
        return await sync_to_async(archive_due_fresh, thread_sensitive=False)(worker, lease)
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, RUN, worker, lease)
    except BrokenProcessPool:
        _pool.drop(pool)
        raise


def shutdown() -> None:
    """Stop the archive's process (a worker's exit, tests)."""
    _pool.shutdown()
