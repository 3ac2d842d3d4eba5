"""Due work of other apps, run by the worker at every round (R41: an event's rounds started at
their scheduled time and their start notices mailed).

Play imports nothing of the registry (docs/architecture.md): the registry registers its jobs
at start-up (``registry.events.apps``), as it subscribes to "game finished". A job claims its
own due rows with conditional updates, so two workers may run it at once; it returns how many
things it did. A job that fails is logged and tried again at the next round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Job = Callable[[], int]
_jobs: list[tuple[str, Job]] = []


def register(name: str, job: Job) -> None:
    """Run ``job()`` at every worker round; registering again under a name replaces."""
    _jobs[:] = [(n, j) for n, j in _jobs if n != name] + [(name, job)]


def registered() -> list[tuple[str, Job]]:
    return list(_jobs)


def run_all() -> int:
    """Every registered job once, on the caller's connection; how many things they did."""
    done = 0
    for name, job in registered():
        try:
            done += job() or 0
        except Exception:  # the database away, a bug: the next round tries again
            log.warning("worker job %s failed", name, exc_info=True)
    return done
