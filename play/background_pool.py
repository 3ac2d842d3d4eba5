"""Pools of background processes: work that must never take a core from a server's step.

Two jobs of the worker are CPU-bound Python that a server's step must not wait behind: the
computer's search (``play.computer.pool``) and a finished game's archive (records, gpg
signatures, tally, ratings: ``play.worker.archiver``). On a thread of the worker they would
compete for its GIL with the clock's thread (R37) and for the cores with the servers; so each
runs in a ``ProcessPoolExecutor`` made here, whose processes are:

- started with ``forkserver``: a clean child, not a fork of a process holding database
  connections, threads and an event loop;
- background ones (``lower_priority``): ``SCHED_IDLE`` (Linux) when asked, so the kernel runs
  them only on CPU no other process wants, else a ``niceness`` lower than the worker;
- tied to the process that made the pool: when it dies (SIGKILL included) they exit at once
  (``_watch_parent``), rather than finish a search or an archive nobody will read, or hang on.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing.connection import wait
from typing import Any


class LazyPool:
    """One process's pool of a kind, made at its first use by ``make`` and shared by its
    threads; dropped when broken (a killed child) so that the next use makes a new one. The
    computer's pool and the archive's keep theirs in one of these."""

    def __init__(self, make: Callable[[], Executor | None]) -> None:
        self._make = make
        self._pool: Executor | None = None
        self._lock = threading.Lock()

    def get(self) -> Executor | None:
        with self._lock:
            if self._pool is None:
                self._pool = self._make()
            return self._pool

    def drop(self, pool: Executor) -> None:
        """Forget ``pool`` (if it is still the current one) and stop it without waiting."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the current pool, if any (a worker's exit, tests)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def process_pool(processes: int, idle: bool, niceness: int,
                 initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``processes`` background processes, each running ``initializer(*initargs)``
    (after it has lowered its priority) before its first job."""
    return ProcessPoolExecutor(
        max_workers=processes, mp_context=multiprocessing.get_context("forkserver"),
        initializer=_start, initargs=(idle, niceness, initializer, initargs))


def _start(idle: bool, niceness: int, initializer: Callable[..., Any] | None,
           initargs: tuple[Any, ...]) -> None:
    lower_priority(idle, niceness)
    _watch_parent()
    if initializer is not None:
        initializer(*initargs)


def _watch_parent() -> None:
    """Exit when the process that started this one is gone: the pool's own clean-up needs
    that process alive, and a search or an archive for a dead worker is wasted (an archive
    is retried by the next claim of its outbox row)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:  # pragma: no cover - always set in a child
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def setup_django(databases: dict[str, dict[str, Any]]) -> None:
    """An initializer for a pool whose jobs use Django (the archive's): set it up, on the
    databases of the process that made the pool (a test run renames them after start-up, and
    the child must write where its parent reads). Here, not beside the jobs, because the
    jobs' modules import Django's models, which only a set-up Django can import."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from django.db import connections

    for alias, config in databases.items():
        connections.settings[alias].update(config)


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
