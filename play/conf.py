"""Settings of live play that every server process reads.

Each value is read from the environment once, when the Django settings load
(``talu_site/settings.py``: there each default lives, with the reason for it; docs/deployment.md
has the table), so a bad value stops every process at start-up rather than the first time it
is used here. These functions read the Django settings on each call, so a test overrides one
with pytest-django's ``settings`` fixture (``settings.TALU_POOL_WAVE = 0``).
"""

from __future__ import annotations

import os
import socket
import uuid

from django.conf import settings

# This process, as written in presence rows: host, pid and a random part (pids are reused).
SERVER_ID = f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def heartbeat() -> float:
    """Seconds between two heartbeats of a process (all its sockets beat together)."""
    return float(settings.TALU_WS_HEARTBEAT)


def stale_after() -> float:
    """Seconds after which a socket that has not beaten is no longer counted as present."""
    return 3 * heartbeat() + 5


def max_connections() -> int:
    """Game sockets one process holds open at most (0: no cap)."""
    return int(settings.TALU_WS_MAX_CONNECTIONS)


def presence_fanout() -> int:
    """Watchers of one game up to which joins and leaves are broadcast at once."""
    return int(settings.TALU_WS_PRESENCE_FANOUT)


def db_threads() -> int:
    """Threads of a process that run the websocket's database work (steps and syncs)."""
    return int(settings.TALU_WS_DB_THREADS)


def worker_poll() -> float:
    """Seconds a worker sleeps between rounds unless woken."""
    return float(settings.TALU_WORKER_POLL)


def worker_lease() -> float:
    """Seconds a worker's claim on a job lasts."""
    return float(settings.TALU_WORKER_LEASE)


def worker_alive_file() -> str:
    """The file a worker touches after every round ("" when none)."""
    return str(settings.TALU_WORKER_ALIVE_FILE or "")


def worker_batch() -> int:
    """Jobs one worker claims per round at most."""
    return int(settings.TALU_WORKER_BATCH)


def archive_process() -> bool:
    """Whether a worker archives in a background process of its own (``play.worker.archiver``)
    rather than on one of its threads."""
    return bool(settings.TALU_ARCHIVE_PROCESS)


def archive_idle() -> bool:
    """Whether the archive's process runs under ``SCHED_IDLE``. Not by default on SQLite: the
    archive's transaction holds the database's only write lock (``transaction_mode``
    IMMEDIATE), and a process the kernel starves while holding it makes every server's step
    wait behind it (a priority inversion). On PostgreSQL it locks only its registry game and
    the ratings' advisory lock, which no step takes. (The default follows the database's
    engine in the settings.)"""
    return bool(settings.TALU_ARCHIVE_IDLE)


def archive_niceness() -> int:
    """How much lower than the worker the archive's process runs when not ``SCHED_IDLE``."""
    return int(settings.TALU_ARCHIVE_NICE)


def clock_priority() -> int:
    """Nice levels the worker's clock thread runs above its process
    (``play.worker.clock_thread``)."""
    return int(settings.TALU_CLOCK_PRIORITY)


def pool_wave() -> float:
    """Seconds between two regular waves of one quick-pairing pool (R47): the beat at which
    waiting players' ranges widen. With ``pool_early_waves`` two players who accept each
    other are paired sooner, by an early wave (``play.lobby.pool``)."""
    return float(settings.TALU_POOL_WAVE)


def pool_early_waves() -> bool:
    """Whether a join that finds someone in its range runs a wave at once (an early wave).

    Off by default: R47 says pairing runs in waves "every few seconds, and at once when the
    pool is large", and a wave at every fitting join is neither. On, the second join reaches
    both players' game as fast as a challenge accepted directly (benchmarks/bench_matchmaking.py:
    p50 165 ms against 1,235 ms with the regular waves, loaded); the ruling would have to allow
    it (see the issue 23 note)."""
    return bool(settings.TALU_POOL_EARLY_WAVES)


def pool_large() -> int:
    """Waiting players at which a pool's wave runs at once, without waiting its turn (R47)."""
    return int(settings.TALU_POOL_LARGE)
