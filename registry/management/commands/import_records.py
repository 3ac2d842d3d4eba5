"""``manage.py import_records DIR``: an export read back, each game verified as a submission
by the body named in its records; rejected games are listed with every reason."""

from django.core.management.base import BaseCommand, CommandError

from registry.jobs import JobError, import_records


class Command(BaseCommand):
    help = "Import an export directory; each game is verified and rated like a submission."

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts) -> None:
        try:
            report = import_records(opts["directory"], progress=not opts["no_progress"])
        except JobError as exc:
            raise CommandError(str(exc)) from None
        for gid, why in report.skipped.items():
            self.stdout.write(f"skipped {gid}: {why}")
        for gid, reasons in report.rejected.items():
            self.stdout.write(f"rejected {gid}:")
            for r in reasons:
                self.stdout.write(f"  - {r}")
        self.stdout.write(f"{len(report.accepted)} accepted, {len(report.rejected)} rejected, "
                          f"{len(report.skipped)} skipped")
        if report.rejected:
            raise CommandError(f"{len(report.rejected)} games were rejected")
