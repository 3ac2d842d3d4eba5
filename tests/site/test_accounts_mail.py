"""The mail queue (issue 39, ``registry.accounts.mailqueue``): every mail sent once, even with
two runners at once on the same mail; a failing backend retried with a growing wait, and
given up after ``MAX_ATTEMPTS``; ``manage.py send_queued_mail`` runs it once and the worker
at every round; play's notices go through it."""

from __future__ import annotations

import io
import threading
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from play.worker import jobs
from registry.accounts import mailqueue
from registry.accounts.models import QueuedMail


class SlowBackend(EmailBackend):
    """locmem, slow to send: two runners overlap while the first sends."""

    def send_messages(self, messages):
        time.sleep(0.4)
        return super().send_messages(messages)


class FlakyBackend(EmailBackend):
    """locmem whose first ``failures`` sends raise, as a mail server away would."""

    failures = 0

    def send_messages(self, messages):
        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise ConnectionRefusedError("the mail server is away")
        return super().send_messages(messages)


def queue_one(to: str = "ann@example.org") -> QueuedMail:
    return mailqueue.enqueue(to, "talu: hello", "Hello.", kind="account")


@pytest.mark.django_db(transaction=True)
def test_two_runners_at_once_send_one_mail_once(settings, monkeypatch):
    """Both runners read the same due mail before either claims it (each waits for the
    other after its read), then both try to claim it: one sends, the other nothing."""
    settings.EMAIL_BACKEND = "tests.site.test_accounts_mail.SlowBackend"
    row = queue_one()
    both_read = threading.Barrier(2, timeout=10)
    real = mailqueue.candidates
    reads = threading.local()

    def candidates_then_wait(now):
        found = real(now)
        if not getattr(reads, "done", False):  # the first read of each runner
            reads.done = True
            both_read.wait()
        return found

    monkeypatch.setattr(mailqueue, "candidates", candidates_then_wait)
    counts: list[int] = []

    def runner() -> None:
        try:
            counts.append(mailqueue.send_due())
        finally:
            connection.close()

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(counts) == [0, 1]
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    row.refresh_from_db()
    assert row.status == QueuedMail.SENT and row.attempts == 0 and row.claim == ""


@pytest.mark.django_db
def test_a_runner_that_read_a_mail_another_claimed_since_leaves_it(monkeypatch):
    row = queue_one()
    stale = mailqueue.candidates(timezone.now())  # runner B reads...
    assert mailqueue.claim_next().pk == row.pk  # ...runner A claims...
    monkeypatch.setattr(mailqueue, "candidates", lambda now: stale)
    assert mailqueue.claim_next() is None  # ...and B's claim changes nothing


@pytest.mark.django_db
def test_a_claimed_mail_is_left_to_its_runner_until_its_lease_runs_out():
    row = queue_one()
    mine = mailqueue.claim_next()  # a runner holds it (say, killed while sending)
    assert mine is not None and mine.pk == row.pk
    assert mailqueue.send_due() == 0 and mail.outbox == []  # a second runner: nothing
    QueuedMail.objects.filter(pk=row.pk).update(
        leased_until=timezone.now() - timedelta(seconds=1))
    assert mailqueue.send_due() == 1 and len(mail.outbox) == 1  # the lease ran out
    assert mailqueue.send_due() == 0 and len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_failing_backend_is_retried_later_and_the_mail_goes_once(settings):
    settings.EMAIL_BACKEND = "tests.site.test_accounts_mail.FlakyBackend"
    FlakyBackend.failures = 2
    row = queue_one()
    assert mailqueue.send_due() == 0
    row.refresh_from_db()
    assert row.status == QueuedMail.QUEUED and row.attempts == 1
    assert "the mail server is away" in row.last_error
    assert row.due_at > timezone.now() + timedelta(seconds=50)  # waits a minute
    assert mailqueue.send_due() == 0 and row.attempts == 1  # not due yet: not tried

    for attempts in (2, 3):
        QueuedMail.objects.filter(pk=row.pk).update(due_at=timezone.now())
        mailqueue.send_due()
        row.refresh_from_db()
        assert row.attempts == min(attempts, 2)
    assert row.status == QueuedMail.SENT and [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert mailqueue.backoff(2) == timedelta(minutes=2)
    assert mailqueue.backoff(20) == timedelta(hours=6)


@pytest.mark.django_db
def test_a_mail_that_never_goes_is_given_up_and_the_rest_still_go(settings):
    settings.EMAIL_BACKEND = "tests.site.test_accounts_mail.FlakyBackend"
    FlakyBackend.failures = mailqueue.MAX_ATTEMPTS
    row = queue_one("never@example.org")
    for _ in range(mailqueue.MAX_ATTEMPTS):
        QueuedMail.objects.filter(pk=row.pk).update(due_at=timezone.now())
        mailqueue.send_due()
    row.refresh_from_db()
    assert row.status == QueuedMail.FAILED and row.attempts == mailqueue.MAX_ATTEMPTS
    QueuedMail.objects.filter(pk=row.pk).update(due_at=timezone.now())
    queue_one("fine@example.org")
    assert mailqueue.send_due() == 1
    assert [m.to for m in mail.outbox] == [["fine@example.org"]]


@pytest.mark.django_db
def test_send_queued_mail_runs_the_queue_once():
    for i in range(mailqueue.BATCH + 3):  # more than one run's batch
        queue_one(f"p{i}@example.org")
    out = io.StringIO()
    call_command("send_queued_mail", stdout=out)
    assert out.getvalue() == f"{mailqueue.BATCH + 3} mail(s) sent\n"
    assert len(mail.outbox) == mailqueue.BATCH + 3
    assert QueuedMail.objects.filter(status=QueuedMail.QUEUED).count() == 0


@pytest.mark.django_db
def test_the_worker_sends_the_queue_at_every_round():
    assert ("accounts.mail", mailqueue.send_due) in jobs.registered()
    queue_one()
    assert jobs.run_all() >= 1
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


@pytest.mark.django_db
def test_a_mail_queued_in_a_rolled_back_transaction_is_never_sent():
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        queue_one()
        raise RuntimeError("the action failed")
    assert mailqueue.send_due() == 0 and mail.outbox == []
