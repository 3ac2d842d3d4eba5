"""``manage.py export_records DIR``: every record file of every game, plus a manifest."""

from django.core.management.base import BaseCommand, CommandError

from registry.jobs import JobError, export_records


class Command(BaseCommand):
    help = "Export every game's record files (STGE, STSE, STDGS, STGN) and manifest.json."

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts) -> None:
        try:
            n = export_records(opts["directory"], progress=not opts["no_progress"])
        except (JobError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{n} games exported to {opts['directory']}")
