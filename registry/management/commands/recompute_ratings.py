"""``manage.py recompute_ratings``: every rating from the first game on (R30)."""

from django.core.management.base import BaseCommand

from registry.jobs import recompute_ratings


class Command(BaseCommand):
    help = "Recompute every rating from the stored game tallies (R30); writes only changes."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts) -> None:
        s = recompute_ratings(progress=not opts["no_progress"])
        self.stdout.write(f"{s.games_rerated} games rerated, {s.players_changed} players "
                          f"changed, {s.rows_written} rows written")
