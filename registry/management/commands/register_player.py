"""``manage.py register_player NAME [--body ID] [--player-id ID] [--stratum N --rating R]``."""

from django.core.management.base import BaseCommand, CommandError

from registry.jobs import JobError, register_player


class Command(BaseCommand):
    help = "Register an over-the-board player (R26); prints the player id."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        parser.add_argument("--body", help="registrar id of the registering body")
        parser.add_argument("--player-id", help="an existing 18-character id (default: new)")
        parser.add_argument("--stratum", type=int, choices=(1, 2, 3), default=1,
                            help="starting stratum (standings carried over); default S1")
        parser.add_argument("--rating", type=int, help="starting rating (default the base)")

    def handle(self, *args, **opts) -> None:
        try:
            p = register_player(opts["name"], body=opts["body"], player_id=opts["player_id"],
                                stratum=opts["stratum"], rating=opts["rating"])
        except JobError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(p.player_id)
