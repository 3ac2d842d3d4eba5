"""Make users, one live game and their session cookies; print them as one JSON line.

Run by ``tests.cluster.harness.Cluster.seed`` as ``python -m tests.cluster.seed`` with the
cluster's environment, so the cookies are sessions in the cluster's own database. Uses the
site's own start of a game (``play.lifecycle.start_game``), like the site does. Without
``--players`` no game is made (``"game": null``): ``--accounts`` are logged-in users with no
password (``Cluster.accounts``, the pool's hundreds of players: hashing a password costs a
good part of a second each).
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", nargs=2, default=[], metavar=("I", "O"))
    parser.add_argument("--spectators", nargs="*", default=[])
    parser.add_argument("--accounts", nargs="*", default=[])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--unrated", action="store_true")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from play.lifecycle import start_game

    users = {}
    for name in [*args.players, *args.spectators]:
        user, created = get_user_model().objects.get_or_create(username=name)
        if created:
            user.set_password(f"pw-{name}-cluster-1")
            user.save()
        users[name] = user
    for name in args.accounts:
        users[name], _ = get_user_model().objects.get_or_create(username=name)
    game = None
    if args.players:
        game = start_game(users[args.players[0]], users[args.players[1]],
                          variant=args.variant, rated=not args.unrated)
    cookies = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        cookies[name] = f"sessionid={client.cookies['sessionid'].value}"
    json.dump({"game": None if game is None else str(game.uuid), "cookies": cookies},
              sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
