"""The outbox job: claim due rows, run their topic's subscribers, mark them done.

A claim is a conditional update (healthchecks' ``sendalerts`` is the model): a row is taken only
if it is not done, due, and unclaimed or its claim's lease has run out, so of several workers
racing for a row exactly one gets it (PostgreSQL re-checks the condition on the row it waited
for; SQLite has one writer at a time). A worker killed mid-job leaves its claim to run out
(``TALU_WORKER_LEASE``), and another worker, or the same one restarted, takes the row again.
The subscribers are idempotent (``play.lifecycle``), so the second run finds the work done and
only marks the row.

A job that raises is retried later with an exponential backoff (``RETRY_BASE`` doubling, at
most ``RETRY_MAX``), its error kept on the row and logged.
"""

from __future__ import annotations

import logging
import traceback
from datetime import datetime, timedelta

from django.db.models import F, Q
from django.utils import timezone

from play import lifecycle
from play.models import Game, Outbox

log = logging.getLogger(__name__)

RETRY_BASE = 5.0  # seconds before the first retry of a failed job
RETRY_MAX = 600.0


def _claimable(now: datetime) -> Q:
    return Q(done__isnull=True, due__lte=now) & (
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))


def claim(worker: str, lease: float, limit: int = 16, now: datetime | None = None
          ) -> list[int]:
    """Take up to ``limit`` due rows for ``worker`` until ``now + lease``; their ids."""
    now = now or timezone.now()
    candidates = list(Outbox.objects.filter(_claimable(now)).order_by("due", "id")
                      .values_list("id", flat=True)[:limit])
    until = now + timedelta(seconds=lease)
    taken = []
    for pk in candidates:
        won = Outbox.objects.filter(_claimable(now), pk=pk).update(
            claimed_by=worker, claimed_until=until, attempts=F("attempts") + 1)
        if won:
            taken.append(pk)
    return taken


def run(pk: int, worker: str) -> Game | None:
    """Run the subscribers of claimed row ``pk``; the game when all succeeded (the row is then
    done), None when one raised (the row is released, due again after a backoff)."""
    row = Outbox.objects.select_related("game").get(pk=pk)
    try:
        for name, subscriber in lifecycle.finished_subscribers():
            try:
                subscriber(row.game)
            except Exception as err:
                raise RuntimeError(f"{name}: {err}") from err
    except Exception as err:
        delay = min(RETRY_BASE * 2 ** max(row.attempts - 1, 0), RETRY_MAX)
        log.error("outbox job %s (game %s, attempt %s) failed; retrying in %.0f s: %s",
                  pk, row.game.uuid, row.attempts, delay, err, exc_info=True)
        Outbox.objects.filter(pk=pk, claimed_by=worker).update(
            claimed_by="", claimed_until=None, last_error=traceback.format_exc()[-4000:],
            due=timezone.now() + timedelta(seconds=delay))
        return None
    Outbox.objects.filter(pk=pk).update(done=timezone.now(), claimed_until=None)
    return row.game


def pending() -> int:
    """Rows not done yet (due or not)."""
    return Outbox.objects.filter(done__isnull=True).count()
