"""Pairing a round as a job of the worker (issue 40).

A large Swiss takes seconds to pair (round 7 of 500 players about 3 s of CPU, BENCHMARKS.md),
so no request pairs: the arbiter's "Pair" (page or API) only records a ``PairingRequest``
(``rounds.request_pairing``) and wakes the worker; this job, registered with
``play.worker.jobs`` by the app, pairs it through ``rounds.pair_next``, the code every
pairing takes.

Once, whoever asks: a request is claimed by a conditional update (state and claimant as
read), so of two workers one pairs it; the round is written in one transaction with the
request's deletion, which succeeds only while the claim is still this worker's, so a round is
never written twice. A killed worker stops renewing its claim (``LEASE``, renewed with every
progress report), and the next worker to look takes the request over and pairs it again from
the start. A refusal (no pairing keeps the absolute criteria, the previous round not complete)
stays on the request in words for the arbiter, until they ask again.

While it runs, ``done`` of ``total`` players paired is written on the request at most every
``PROGRESS_EVERY`` seconds: the arbiter's page shows it, the players' "being paired", and the
page reloads when the round is there (static/events/pairing.js polls ``state``).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from datetime import datetime, timedelta

from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone

from registry.events import rounds, services
from registry.events.models import Event, PairingRequest
from registry.events.revision import touch

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)
PROGRESS_EVERY = 0.5  # seconds between two progress writes


def state(event: Event) -> dict | None:
    """The round being paired, as the pages and the API show it (None: none asked)."""
    return state_of(event.pk)


def state_of(event_id: int) -> dict | None:
    """``state`` by the event's id. A page or answer that shows the event's rounds too reads
    this first: the round and the request's deletion are one transaction, so once it is None
    every later read finds the round."""
    req = PairingRequest.objects.filter(event_id=event_id).first()
    if req is None:
        return None
    return {"number": req.number, "state": req.state, "done": req.done, "total": req.total,
            "error": req.error or None}


def _claimant() -> str:
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def claim(claimant: str, now: datetime | None = None) -> PairingRequest | None:
    """Take one due request (waiting, or claimed by a worker whose lease ran out)."""
    now = now or timezone.now()
    due = Q(state=PairingRequest.QUEUED) | Q(state=PairingRequest.RUNNING, lease_until__lt=now)
    for pk, was, by in (PairingRequest.objects.filter(due).order_by("created")
                        .values_list("pk", "state", "claimed_by")[:8]):
        # the condition is checked again on the row (PostgreSQL re-reads it after waiting for
        # another writer): of two claimants reading the same row, one updates it
        if PairingRequest.objects.filter(due, pk=pk, state=was, claimed_by=by).update(
                state=PairingRequest.RUNNING, claimed_by=claimant, lease_until=now + LEASE,
                done=0, total=0, error=""):
            return PairingRequest.objects.select_related("event").get(pk=pk)
    return None


def pair_claimed(req: PairingRequest, claimant: str) -> bool:
    """Pair the claimed request's round; whether this worker wrote it."""
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        if not PairingRequest.objects.filter(pk=req.pk, claimed_by=claimant).update(
                done=done, total=total, lease_until=timezone.now() + LEASE):
            raise rounds.PairingLost  # taken over: stop computing

    def still_mine() -> bool:  # in the round's transaction: the request goes with it
        return PairingRequest.objects.filter(
            pk=req.pk, claimed_by=claimant, state=PairingRequest.RUNNING).delete()[0] == 1

    try:
        rnd = rounds.pair_next(req.event, req.force, req.absent or {}, progress, still_mine)
    except rounds.PairingLost:
        log.info("round %s of event %s: taken over by another worker", req.number,
                 req.event_id)
        return False
    except services.EventError as exc:
        _fail(req, claimant, str(exc))
        return False
    except DatabaseError:  # the database away: the lease runs out, the round is paired again
        raise
    except Exception as exc:  # a bug: said to the arbiter, not retried for ever
        log.exception("round %s of event %s could not be paired", req.number, req.event_id)
        _fail(req, claimant, f"the pairing failed ({type(exc).__name__}): ask again, or "
                             "tell the site's staff")
        return False
    log.info("round %s of event %s paired", rnd.number, req.event_id)
    return True


def _fail(req: PairingRequest, claimant: str, words: str) -> None:
    if PairingRequest.objects.filter(pk=req.pk, claimed_by=claimant).update(
            state=PairingRequest.FAILED, error=words[:500], lease_until=None):
        touch(req.event_id)


def run_due(limit: int = 2) -> int:
    """The worker's job (``play.worker.jobs``): pair up to ``limit`` asked rounds; how many
    this call paired or refused."""
    claimant = _claimant()
    handled = 0
    for _ in range(limit):
        req = claim(claimant)
        if req is None:
            break
        pair_claimed(req, claimant)
        handled += 1
    return handled
