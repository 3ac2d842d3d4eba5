"""``manage.py event_demo --registrar alice``: a demo club (an affiliated body without signing
key: its events are played on the site, whose body signs the records) with the named accounts
as its registrars, who may then announce events on /events/. Idempotent."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from registry.models import AffiliatedBody


class Command(BaseCommand):
    help = "Create the demo club (DEMO-CLUB) and make the named accounts its registrars."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--registrar", action="append", default=[],
                            help="a username (repeatable)")

    def handle(self, *args, **opts):
        body, _ = AffiliatedBody.objects.get_or_create(
            registrar_id="DEMO-CLUB", defaults={"name": "Demo talu club"})
        for name in opts["registrar"]:
            user = get_user_model().objects.filter(username=name).first()
            if user is None:
                raise CommandError(f"no account {name!r}")
            body.registrars.add(user)
        self.stdout.write(f"body {body.registrar_id}: registrars "
                          + ", ".join(u.username for u in body.registrars.all()))
