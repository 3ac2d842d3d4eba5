"""Rounds started at their scheduled time (R41).

An arbiter gives a paired round a start time (``schedule_round``). The worker's job
(``run_due``, registered with ``play.worker.jobs`` by the app) starts every due round through
``rounds.start_once``, the very code of the arbiter's start button, whose claim is a conditional
update: with two workers (or a worker and the arbiter's button) a round starts once. Its
players are then told (``registry.events.notify``).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from registry.events import notify, rounds
from registry.events.access import EventError
from registry.events.access import manage as _manage
from registry.events.models import Event, Round
from registry.events.revision import touch

log = logging.getLogger(__name__)

# a start time this far in the past is taken as "now" (a form's minute, a slow request)
GRACE = timedelta(minutes=1)
AHEAD = timedelta(days=366)


def schedule_round(user, event: Event, number: int, at: datetime | None,
                   now: datetime | None = None) -> Round:
    """Give paired round ``number`` its start time ``at`` (a naive time is UTC, the site's
    time), or take it away (``None``): the worker starts it then (R41). Only the event's
    arbiters; a round that has started keeps its start."""
    _manage(user, event)
    now = now or timezone.now()
    if at is not None:
        if not isinstance(at, datetime):
            raise EventError(f"the start time must be a date and time, not {at!r}")
        if timezone.is_naive(at):
            at = timezone.make_aware(at, UTC)
        if at < now - GRACE:
            raise EventError(f"{at:%Y-%m-%d %H:%M} UTC has passed: start the round now "
                             "instead, or give a later time")
        if at > now + AHEAD:
            raise EventError("a round's start time is at most a year ahead")
    if not isinstance(number, int) or isinstance(number, bool):
        raise EventError("name the round to start at that time (its number)")
    rnd = event.event_rounds.filter(number=number).first()
    if rnd is None:
        raise EventError(f"round {number!r} is not paired: pair it first", "conflict")
    with transaction.atomic():
        if not Round.objects.filter(pk=rnd.pk, state=Round.PAIRED).update(scheduled=at):
            raise EventError(f"round {rnd.number} has already started", "conflict")
        touch(event.pk)
    rnd.scheduled = at
    return rnd


def start_due(now: datetime | None = None, limit: int = 16) -> int:
    """The worker: start every paired round whose time has come, as the arbiter's button does
    (``rounds.start_once``); how many this call started. A round that cannot start (a player
    with no account in an online event) loses its time, with a warning, rather than failing
    at every round of the worker: its arbiter sees it unscheduled and not started. A database
    error is not the round's fault: it ends the job, which the next round runs again."""
    now = now or timezone.now()
    due = list(Round.objects.filter(state=Round.PAIRED, scheduled__lte=now,
                                    event__status=Event.RUNNING)
               .select_related("event").order_by("scheduled", "pk")[:limit])
    started = 0
    for rnd in due:
        try:
            with transaction.atomic():
                started += rounds.start_once(rnd.event, rnd)
        except DatabaseError:  # the database away or busy: tried again at the next round
            raise
        except Exception as exc:  # everything rolled back: unschedule, tell the log
            Round.objects.filter(pk=rnd.pk, state=Round.PAIRED,
                                 scheduled=rnd.scheduled).update(scheduled=None)
            touch(rnd.event_id)
            log.warning("round %s of event %s not started at its time: %s", rnd.number,
                        rnd.event_id, exc)
    return started


def run_due() -> int:
    """The worker's job (``play.worker.jobs``): due rounds started, then their notices."""
    return start_due() + notify.mail_due()
