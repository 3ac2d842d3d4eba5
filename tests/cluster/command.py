"""Send one command to a game through the site's command path, from a process of its own.

Run by the cluster tests as ``python -m tests.cluster.command GAME --announce MESSAGE`` with
the cluster's environment: a test-only system actor (``play.games.protocol.system``) whose
command takes the path every command takes (``play.commands.path.execute``: decided, stored,
announced through Redis to every server process). Prints the outcome as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--announce", required=True)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from play.commands.path import execute
    from play.commands.submission import Submission
    from play.games.protocol import Announce, system

    outcome = execute(Submission(args.game, system("cluster-test"), Announce(args.announce)))
    json.dump({"ok": outcome.ok, "code": outcome.code, "version": outcome.version,
               "reason": outcome.reason}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
