"""The mail queue (issue 39): every mail of the site is a row here, sent by the worker with
Django's email framework (``EMAIL_URL``: the console on the embedded defaults, SMTP in
production; locmem in tests), retried with a growing wait when the backend fails.

Exactly once, with any number of runners (the worker's copies, ``manage.py
send_queued_mail``): a runner claims one row at a time with a conditional update (the row
still queued and its lease free, or run out), and only the runner whose update changed the
row sends it; the row is marked sent by the same runner, under its claim. A runner killed
between sending and marking leaves a row another sends again after ``LEASE``: the one case
of a second copy, as with any mail queue (SMTP has no transaction to join).

We write this queue rather than use django-post-office: its ``send_queued_mail`` guards the
whole queue with one lock (a file, or a database mutex timed by ``SIGALRM``, which only the
main thread may set: the worker runs its jobs on threads), so two workers cannot share the
queue and a lock that runs out interrupts a send; a claim per row is forty lines.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db.models import Q
from django.utils import timezone

from registry.accounts.models import QueuedMail

log = logging.getLogger(__name__)

#: How long a claim lasts: longer than one send can take (settings.EMAIL_TIMEOUT).
LEASE = timedelta(minutes=5)
#: Sends tried before a mail is given up (failed): about a day and a half of waits.
MAX_ATTEMPTS = 8
#: Mails one run sends at most (the worker runs again a second later): a slow mail server
#: never holds the other apps' jobs long.
BATCH = 20


def backoff(attempts: int) -> timedelta:
    """The wait before the next try after ``attempts`` failed ones: 1, 2, 4... minutes, at
    most six hours."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), timedelta(hours=6))


def enqueue(to: str, subject: str, body: str, *, kind: str, user=None,
            headers: dict[str, str] | None = None) -> QueuedMail:
    """Queue one mail, sent by the next run (in the caller's transaction: a rolled-back
    action sends nothing)."""
    return QueuedMail.objects.create(
        to=to, subject=subject[:200], body=body, kind=kind, user=user, headers=headers or {},
        due_at=timezone.now())


def _free(now: datetime) -> Q:
    return Q(status=QueuedMail.QUEUED, due_at__lte=now) & (
        Q(leased_until__isnull=True) | Q(leased_until__lt=now))


def candidates(now: datetime) -> list[int]:
    """The due mails' ids, oldest first: what a runner tries to claim (another may claim any
    of them between this read and the claim)."""
    return list(QueuedMail.objects.filter(_free(now)).order_by("due_at", "pk").values_list(
        "pk", flat=True)[:BATCH])


def claim_next(now: datetime | None = None) -> QueuedMail | None:
    """The next due mail, claimed for this caller (its ``claim`` set), or None when none is
    left. A row another runner claimed first is skipped: the conditional update changes it
    for one runner only."""
    now = now or timezone.now()
    for pk in candidates(now):
        token = secrets.token_hex(8)
        if QueuedMail.objects.filter(_free(now), pk=pk).update(
                claim=token, leased_until=now + LEASE):
            return QueuedMail.objects.get(pk=pk)
    return None


def _message(row: QueuedMail, connection) -> EmailMessage:
    return EmailMessage(row.subject, row.body, settings.DEFAULT_FROM_EMAIL, [row.to],
                        headers=row.headers or None, connection=connection)


def _sent(row: QueuedMail) -> None:
    QueuedMail.objects.filter(pk=row.pk, claim=row.claim).update(
        status=QueuedMail.SENT, sent_at=timezone.now(), claim="", leased_until=None)


def _failed(row: QueuedMail, err: Exception) -> None:
    attempts = row.attempts + 1
    gave_up = attempts >= MAX_ATTEMPTS
    QueuedMail.objects.filter(pk=row.pk, claim=row.claim).update(
        attempts=attempts, last_error=f"{type(err).__name__}: {err}"[:300], claim="",
        leased_until=None, status=QueuedMail.FAILED if gave_up else QueuedMail.QUEUED,
        due_at=timezone.now() + backoff(attempts))
    log.warning("mail %s to %s not sent (try %d%s): %s", row.pk, row.to, attempts,
                ", given up" if gave_up else "", err)


def send_due(limit: int = BATCH) -> int:
    """Send up to ``limit`` due mails, each claimed first; how many were sent. The worker's
    job (``play.worker.jobs``) and ``manage.py send_queued_mail``."""
    sent = 0
    connection = None
    try:
        for _ in range(limit):
            row = claim_next()
            if row is None:
                break
            try:
                if connection is None:
                    connection = get_connection(fail_silently=False)
                    connection.open()
                _message(row, connection).send()
            except Exception as err:  # the server away or refusing: tried again later
                _failed(row, err)
                if connection is not None:
                    _close(connection)
                    connection = None
                continue
            _sent(row)
            sent += 1
    finally:
        if connection is not None:
            _close(connection)
    return sent


def _close(connection) -> None:
    try:
        connection.close()
    except Exception as err:  # a broken connection: nothing left to close
        log.debug("mail connection not closed cleanly: %s", err)
