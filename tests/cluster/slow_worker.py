"""A worker whose archive process stops in the middle of archiving, for the tests that kill it.

``python -m tests.cluster.slow_worker FLAG``: ``manage.py play_worker``, except that the archive's
process (``play.worker.archiver``), archiving a game (``registry.archiving``), writes its own pid
to ``FLAG`` once it has claimed the game's outbox row and built its records, then sleeps instead
of writing them: the test kills it (SIGKILL) then, the worker or the archive's process alone,
with the game ended and committed, its row claimed, and nothing of its archive written. Only the
first archive stops (``FLAG`` exists after it): a new archive process of the same worker, after
the claim has run out, archives the game.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any


def archive_then_hang(worker: str, lease: float) -> Any:
    """The archive process's round (``archiver.RUN``), stopping after the first game's records
    are built (``SLOW_WORKER_FLAG``)."""
    from play.worker import archiver
    from registry import archiving

    flag = os.environ["SLOW_WORKER_FLAG"]
    real_build = archiving._build_records

    def build_then_hang(*args, **kwargs):
        records = real_build(*args, **kwargs)
        if not os.path.exists(flag):
            with open(flag + ".tmp", "w") as f:
                f.write(f"{os.getpid()}\n")
            os.replace(flag + ".tmp", flag)
            time.sleep(3600)
        return records

    archiving._build_records = build_then_hang
    try:
        return archiver.archive_due_fresh(worker, lease)
    finally:
        archiving._build_records = real_build


def main() -> int:
    os.environ["SLOW_WORKER_FLAG"] = sys.argv[1]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from play.worker import archiver

    archiver.RUN = archive_then_hang
    call_command("play_worker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
