"""``manage.py demo_data``: a few demo players and, for each game that gives one
(``GameParts.demo``: talu's is a real game with captures, a chain and an invasion), a finished
sample game played step by step through the command path, as players would send its moves.
Idempotent."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db.models import Q

from play import demo_hooks
from play.commands.path import execute
from play.commands.submission import Submission
from play.games.protocol import PlayStep, player
from play.games.protocol.parts import Demo
from play.games.registry import PARTS, variant_of
from play.lifecycle import start_table
from play.models import Game
from play.worker.loop import run_due

DEMO_PASSWORD = "talu-demo-2024"
DEMO_PLAYERS = ("alice", "bob", "carol", "dave")


def play_demo(demo: Demo, players: list) -> Game:
    """The sample game ``demo`` played by ``players`` (in seat order) to its end."""
    game = start_table(demo.variant, players, rated=True)
    for seat, move in demo.moves():
        game.refresh_from_db()
        res = execute(Submission(game.uuid, player(seat), PlayStep(move), game.version))
        if not res.ok:
            raise RuntimeError(f"sample game step refused: {res.reason}")
    return game


class Command(BaseCommand):
    help = (f"Create demo players (password {DEMO_PASSWORD}; carol S3, dave S2, alice and bob "
            "S1) and a finished sample game of each game that has one.")

    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for name in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=name)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[name] = user
        demo_hooks.run(users)  # the registry's: a demo player in every stratum
        alice, bob = users["alice"], users["bob"]
        for key, parts in PARTS.items():
            demo = parts.demo
            if demo is None or len(variant_of(demo.variant).played) != 2:
                continue  # the demo players are two
            done = Game.objects.filter(
                Q(player_i=alice, player_o=bob) | Q(player_i=bob, player_o=alice),
                game=key, status=Game.FINISHED, reason=demo.reason).exists()
            if not done:
                game = play_demo(demo, [alice, bob])
                run_due()  # its records and ratings now, not at the server's first worker round
                self.stdout.write("sample game played: " + str(game.uuid))
        self.stdout.write(f"demo players: {', '.join(DEMO_PLAYERS)} (password {DEMO_PASSWORD}; "
                          "carol plays in S3, dave in S2, alice and bob in S1)")
