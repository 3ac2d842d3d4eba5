"""``manage.py send_queued_mail``: send the mail queue's due mails once (the worker does the
same at every round); safe beside running workers (each mail is claimed, sent once)."""

from django.core.management.base import BaseCommand

from registry.accounts import mailqueue


class Command(BaseCommand):
    help = "Send the queued mails that are due, once (the worker does it continuously)."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000,
                            help="send at most this many (default 1000)")

    def handle(self, *args, limit: int, **options):
        sent = 0
        while sent < limit:
            n = mailqueue.send_due(min(mailqueue.BATCH, limit - sent))
            if not n:
                break
            sent += n
        self.stdout.write(f"{sent} mail(s) sent")
