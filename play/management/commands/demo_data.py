"""``manage.py demo_data``: a few demo players and a finished sample game. Idempotent."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db.models import Q

from play.commands.path import Submission, execute
from play.games.protocol import PlayStep, Resign, player
from play.lifecycle import start_game
from play.models import Game
from play.worker.loop import run_due

DEMO_PASSWORD = "talu-demo-2024"
DEMO_PLAYERS = ("alice", "bob", "carol")

# A short sample: O advances while I passes three times, so I forfeits (R12).
SAMPLE = [
    ("I", "step", {"kind": "move", "from": "D2", "to": "D3"}),
    ("I", "step", {"kind": "move", "from": "E2", "to": "E3"}),
    ("I", "end", None),
    ("O", "step", {"kind": "move", "from": "D7", "to": "D6"}),
    ("O", "step", {"kind": "move", "from": "D6", "to": "D5"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "E7", "to": "E6"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "E6", "to": "E5"}),
    ("O", "end", None),
    ("I", "pass", None),
]


class Command(BaseCommand):
    help = f"Create demo players (password {DEMO_PASSWORD}) and a finished sample game."

    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for name in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=name)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[name] = user
        alice, bob = users["alice"], users["bob"]
        done = Game.objects.filter(
            Q(player_i=alice, player_o=bob) | Q(player_i=bob, player_o=alice),
            status=Game.FINISHED).exists()
        if not done:
            game = start_game(alice, bob, variant="standard", rated=True)
            for side, action, step in SAMPLE:
                game.refresh_from_db()
                command = Resign() if action == "resign" else PlayStep(step or {"kind": action})
                res = execute(Submission(game.uuid, player(side), command, game.version))
                if not res.ok:
                    raise RuntimeError(f"sample game step refused: {res.reason}")
            run_due()  # its records and ratings now, not at the server's first worker round
            self.stdout.write("sample game played: " + str(game.uuid))
        self.stdout.write(f"demo players: {', '.join(DEMO_PLAYERS)} (password {DEMO_PASSWORD})")
