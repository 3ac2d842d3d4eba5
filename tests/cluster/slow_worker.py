"""A worker that stops in the middle of archiving, for the test that kills it there.

``python -m tests.cluster.slow_worker FLAG``: ``manage.py play_worker``, except that archiving
a game (``registry.archiving``) writes ``FLAG`` once it has claimed the game's outbox row and
built its records, then sleeps instead of writing them: the test kills it (SIGKILL) then, with
the game ended and committed, its row claimed, and nothing of its archive written.
"""

from __future__ import annotations

import os
import sys
import time


def main() -> int:
    flag = sys.argv[1]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from registry import archiving

    real_build = archiving._build_records

    def build_then_hang(*args, **kwargs):
        records = real_build(*args, **kwargs)
        with open(flag, "w") as f:
            f.write("claimed and built\n")
        time.sleep(3600)
        return records

    archiving._build_records = build_then_hang
    call_command("play_worker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
