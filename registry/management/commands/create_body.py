"""``manage.py create_body REGISTRAR_ID --name --stratum --public-key-file [--scoring-model]``:
a certified affiliated body; prints its first API token once."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from registry.jobs import JobError, create_body


class Command(BaseCommand):
    help = "Register a certified affiliated body (book 5.3.5) and print its API token once."

    def add_arguments(self, parser) -> None:
        parser.add_argument("registrar_id", help="e.g. GTF-HU-SZEGED-01")
        parser.add_argument("--name", required=True)
        parser.add_argument("--stratum", type=int, choices=(1, 2, 3), default=1)
        parser.add_argument("--public-key-file", required=True,
                            help="the body's armored OpenPGP public key")
        parser.add_argument("--scoring-model", choices=("", "S1", "S2", "S3"), default="",
                            help="the model of the body's events (book 6.4); default SX")

    def handle(self, *args, **opts) -> None:
        try:
            key = Path(opts["public_key_file"]).read_text(encoding="utf-8")
            body, token = create_body(opts["registrar_id"], name=opts["name"],
                                      stratum=opts["stratum"], public_key=key,
                                      scoring_model=opts["scoring_model"])
        except (JobError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"body {body.registrar_id} (key {body.key_id}) created")
        self.stdout.write(f"API token (shown once, keep it safe): {token}")
