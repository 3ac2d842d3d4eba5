"""Settings of live play that every server process reads, with their defaults.

Read from Django settings when the site defines them, else from the environment, so a process
can be tuned without a settings change (the cluster tests shorten the heartbeat this way).

``TALU_WS_HEARTBEAT``        seconds between a process's heartbeats (default 20): for all its
                             sockets it refreshes their presence rows in one batch, catches a
                             socket up on any step it still lacks after a grace and, with the
                             core layer only, re-joins each to its group (a restarted Redis
                             forgot it; the pub/sub layer subscribes again by itself)
``TALU_WS_MAX_CONNECTIONS``  open game sockets one process accepts (default 2000; 0 = no cap);
                             beyond it a socket is refused cleanly with close code 4013
``TALU_WS_DB_THREADS``       threads per process for the locked write path (the usual step is
                             stored from the event loop, ``play.store.log``), syncs and
                             heartbeats (default 2,
                             measured: 4 starved the event loop of the GIL at 200 steps/s and
                             the process's channel overflowed; 1 queued steps behind syncs):
                             steps of different games are written concurrently, each on its
                             own database connection, while one game's writers stay serialised
                             by its row lock; bounded so database work cannot starve the event
                             loop that reads the channel layer
``TALU_WORKER_POLL``         seconds between two rounds of a worker when nothing wakes it
                             (default 1): a lost wake costs at most this
``TALU_WORKER_LEASE``        seconds a worker's claim on a job lasts (default 60): a worker
                             killed mid-job leaves it to another after this
``TALU_WORKER_BATCH``        jobs a worker claims in one round at most (default 16)
``TALU_ARCHIVE_PROCESS``     ``true`` (default): a worker archives finished games (records, gpg
                             signatures, tally, ratings) in a background process of its own
                             (``play.worker.archiver``), so the archive's CPU and GIL never
                             compete with the servers' steps nor the clock's thread; ``false``:
                             on a thread of the worker (tests, tiny installations)
``TALU_ARCHIVE_IDLE``        ``true``: that process runs under ``SCHED_IDLE`` (Linux), on CPU
                             nothing else wants. Default true on PostgreSQL, false on SQLite,
                             whose one write lock the archive holds while it writes: starved
                             there, it would stall every step; it runs ``TALU_ARCHIVE_NICE``
                             (default 10) lower than the worker instead
``TALU_WORKER_ALIVE_FILE``   a file the worker touches after every round, for a container's
                             health check (default none)
``TALU_CLOCK_PRIORITY``      nice levels the worker's clock thread runs above the rest of its
                             process (default 10; 0 off), so a flag is not late behind other
                             work on a busy machine; raising a thread's priority needs
                             ``CAP_SYS_NICE`` or ``RLIMIT_NICE`` (docker-compose.yml gives the
                             worker the latter), else the thread runs at the process's
``TALU_POOL_WAVE``           seconds between two regular waves of a quick-pairing pool, after
                             which those left waiting have a wider range (default 3)
``TALU_POOL_LARGE``          waiting players at which a pool's wave runs at once (default 40)
``TALU_POOL_EARLY_WAVES``    ``true``: a pair found at a join does not wait for the next wave
                             (an early wave). Default ``false``, as R47 is written: waves every
                             few seconds and at once only when the pool is large
``TALU_WS_PRESENCE_FANOUT``  audience size up to which a join or leave is broadcast to everyone
                             at once (default 50); beyond it counts are refreshed by the
                             heartbeat, so a crowd arriving is not n-squared messages
"""

from __future__ import annotations

import os
import socket
import uuid

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from talu_site.envvars import env_bool, env_number

# This process, as written in presence rows: host, pid and a random part (pids are reused).
SERVER_ID = f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def _number(name: str, default: float, minimum: float) -> float:
    value = getattr(settings, name, None)
    if value is None:
        return env_number(name, default, minimum)
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}")
    return float(value)


def heartbeat() -> float:
    """Seconds between two heartbeats of a process (all its sockets beat together)."""
    return _number("TALU_WS_HEARTBEAT", 20.0, 0.2)


def stale_after() -> float:
    """Seconds after which a socket that has not beaten is no longer counted as present."""
    return 3 * heartbeat() + 5


def max_connections() -> int:
    """Game sockets one process holds open at most (0: no cap)."""
    return int(_number("TALU_WS_MAX_CONNECTIONS", 2000, 0))


def presence_fanout() -> int:
    """Watchers of one game up to which joins and leaves are broadcast at once."""
    return int(_number("TALU_WS_PRESENCE_FANOUT", 50, 0))


def db_threads() -> int:
    """Threads of a process that run the websocket's database work (steps and syncs)."""
    return int(_number("TALU_WS_DB_THREADS", 2, 1))


def worker_poll() -> float:
    """Seconds a worker sleeps between rounds unless woken."""
    return _number("TALU_WORKER_POLL", 1.0, 0.05)


def worker_lease() -> float:
    """Seconds a worker's claim on a job lasts."""
    return _number("TALU_WORKER_LEASE", 60.0, 1.0)


def worker_alive_file() -> str:
    """The file a worker touches after every round ("" when none)."""
    return os.environ.get("TALU_WORKER_ALIVE_FILE", "")


def worker_batch() -> int:
    """Jobs one worker claims per round at most."""
    return int(_number("TALU_WORKER_BATCH", 16, 1))


def _flag(name: str, default: bool) -> bool:
    value = getattr(settings, name, None)
    return env_bool(name, default) if value is None else bool(value)


def archive_process() -> bool:
    """Whether a worker archives in a background process of its own (``play.worker.archiver``)
    rather than on one of its threads."""
    return _flag("TALU_ARCHIVE_PROCESS", True)


def archive_idle() -> bool:
    """Whether the archive's process runs under ``SCHED_IDLE``. Not by default on SQLite: the
    archive's transaction holds the database's only write lock (``transaction_mode``
    IMMEDIATE), and a process the kernel starves while holding it makes every server's step
    wait behind it (a priority inversion). On PostgreSQL it locks only its registry game and
    the ratings' advisory lock, which no step takes."""
    sqlite = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    return _flag("TALU_ARCHIVE_IDLE", not sqlite)


def archive_niceness() -> int:
    """How much lower than the worker the archive's process runs when not ``SCHED_IDLE``."""
    return int(_number("TALU_ARCHIVE_NICE", 10, 0))


def clock_priority() -> int:
    """Nice levels the worker's clock thread runs above its process
    (``play.worker.clock_thread``)."""
    return int(_number("TALU_CLOCK_PRIORITY", 10, 0))


def pool_wave() -> float:
    """Seconds between two regular waves of one quick-pairing pool (R47): the beat at which
    waiting players' ranges widen. With ``pool_early_waves`` two players who accept each
    other are paired sooner, by an early wave (``play.lobby.pool``)."""
    return _number("TALU_POOL_WAVE", 3.0, 0.0)


def pool_early_waves() -> bool:
    """Whether a join that finds someone in its range runs a wave at once (an early wave).

    Off by default: R47 says pairing runs in waves "every few seconds, and at once when the
    pool is large", and a wave at every fitting join is neither. On, the second join reaches
    both players' game as fast as a challenge accepted directly (benchmarks/bench_matchmaking.py:
    p50 165 ms against 1,235 ms with the regular waves, loaded); the ruling would have to allow
    it (see the issue 23 note)."""
    value = getattr(settings, "TALU_POOL_EARLY_WAVES", None)
    return env_bool("TALU_POOL_EARLY_WAVES", False) if value is None else bool(value)


def pool_large() -> int:
    """Waiting players at which a pool's wave runs at once, without waiting its turn (R47)."""
    return int(_number("TALU_POOL_LARGE", 40, 2))
