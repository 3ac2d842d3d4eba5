"""The clock's jobs: flag live games whose running clock has run out (R36, R37), and resume
adjourned games at the time their arbiter set (R38).

Flags. Every append keeps the game's ``deadline`` (when its running clock runs out) on its
row, so the due games are one indexed query (a partial index holds only games whose clock
runs). For each, the worker sends the clock's command, ``Flag``, down the one command path
(R40): the pure core checks it on its own clock and answers a ``decide`` on ``time``, for an
opening turn never completed an ``abort`` (R36, R37), or in an event's game a decision
``unplayed`` (R41). The due flags of a round are read whole in one query, decided one by one
and stored together, one statement for all of them (``path.store_many``): a burst of
deadlines costs one round trip and one commit, not one per game; they are published before
the round looks for anything else (``run_round``). The append stores each only if its game
is still at the version it was decided on, so with several workers (or a worker and a
player's own claim) racing for one game exactly one flag is stored and the others are refused
``finished``, as any second command on a finished game; a step that beat the flag moves the
deadline and the flag is refused ``too_early``. Nobody needs to be connected: the flag
reaches whoever is.

Resumptions. The append keeps ``resume_at`` on the row (the arbiter's ``schedule`` event);
a game is due once that time has passed and its sealed turn is complete (nobody to move).
A worker claims it by a conditional update that moves ``resume_at`` a lease ahead only if it
still holds the time the worker read: of two workers racing, one update changes the row and
only that worker sends the clock's ``Resume``; a worker killed after its claim leaves the
game due again when the lease runs out. The resumption's own append clears ``resume_at``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from play.commands.path import store, store_many
from play.commands.submission import Outcome, Submission
from play.games.protocol import CLOCK_ACTOR, Flag, Resume
from play.models import Game

log = logging.getLogger(__name__)

#: How long a worker's claim on a resumption lasts before another may take it (seconds).
RESUME_LEASE = 30.0


def _running() -> Q:
    return Q(status=Game.LIVE, deadline__isnull=False)


def _resumable() -> Q:
    """Adjourned games with a time set: their sealed turn complete (nobody to move, R38)."""
    return Q(status=Game.LIVE, to_move="", resume_at__isnull=False)


def due(now: datetime, limit: int = 64) -> list[Any]:
    """The uuids of live games whose deadline has passed at ``now``, earliest first."""
    return _due_flags(now, limit)[0]


def _due_flag_rows(now: datetime, limit: int) -> list[Game]:
    """The games due to be flagged at ``now``, whole rows, earliest first (``limit`` at
    most): the round decides on them without reading them again."""
    return list(Game.objects.filter(_running(), deadline__lte=now).order_by("deadline")[:limit])


def _next_deadline(now: datetime) -> datetime | None:
    """The first deadline after ``now`` (None: no clock runs)."""
    return (Game.objects.filter(_running(), deadline__gt=now).order_by("deadline")
            .values_list("deadline", flat=True).first())


def _due_flags(now: datetime, limit: int) -> tuple[list[Any], datetime | None]:
    """The uuids of the games due to be flagged at ``now`` (earliest first, ``limit`` at
    most) and the next deadline after them (``now`` when more are due than ``limit``): one
    indexed query, which is also the idle round's."""
    rows = list(Game.objects.filter(_running()).order_by("deadline")
                .values_list("uuid", "deadline")[:limit + 1])
    due = [u for u, at in rows if at <= now][:limit]
    later = [at for _, at in rows if at > now]
    return due, (now if len(due) == limit else later[0] if later else None)


def _report(pairs: list[tuple[Any, Outcome]], what: str) -> list[tuple[Any, Outcome]]:
    """The stored ones; a refusal other than a lost race is logged."""
    stored = []
    for game_uuid, outcome in pairs:
        if outcome.ok:
            stored.append((game_uuid, outcome))
        elif outcome.code not in ("finished", "too_early", "busy", "illegal"):
            log.warning("%s of game %s refused: %s %s", what, game_uuid, outcome.code,
                        outcome.reason)
    return stored


def _flag(rows: list[Game], now: datetime) -> list[tuple[Any, Outcome]]:
    if not rows:
        return []
    uuids = [g.uuid for g in rows]
    outcomes = store_many([Submission(u, CLOCK_ACTOR, Flag()) for u in uuids], now,
                          games={str(g.uuid): g for g in rows})
    return _report(list(zip(uuids, outcomes, strict=True)), "flag")


def flag_due(now: datetime | None = None, limit: int = 64) -> list[tuple[Any, Outcome]]:
    """Send the clock's flag to every game due at ``now``, all stored in one statement: the
    (uuid, outcome) of each flag stored (games another worker flagged first, or that moved
    on, are left out)."""
    now = now or timezone.now()
    return _flag(_due_flag_rows(now, limit), now)


def _due_resumptions(now: datetime, limit: int) -> tuple[list[tuple[int, Any, datetime]],
                                                         datetime | None]:
    """The adjourned games due to resume at ``now`` (pk, uuid, time set), and the next time
    after them, as ``_due_flags``."""
    rows = list(Game.objects.filter(_resumable()).order_by("resume_at")
                .values_list("pk", "uuid", "resume_at")[:limit + 1])
    due = [row for row in rows if row[2] <= now][:limit]
    later = [at for _, _, at in rows if at > now]
    return due, (now if len(due) == limit else later[0] if later else None)


def _claim(rows: list[tuple[int, Any, datetime]], now: datetime) -> list[Any]:
    until = now + timedelta(seconds=RESUME_LEASE)
    return [game_uuid for pk, game_uuid, at in rows
            if Game.objects.filter(pk=pk, resume_at=at).update(resume_at=until)]


def claim_resumptions(now: datetime, limit: int = 16) -> list[Any]:
    """The uuids of the adjourned games due to resume at ``now`` that this worker claimed
    (each by one conditional update, so no two workers claim one game)."""
    return _claim(_due_resumptions(now, limit)[0], now)


def _resume(uuids: list[Any], now: datetime) -> list[tuple[Any, Outcome]]:
    pairs = [(u, store(Submission(u, CLOCK_ACTOR, Resume()), now)) for u in uuids]
    return _report(pairs, "resumption")


def resume_due(now: datetime | None = None, limit: int = 16) -> list[tuple[Any, Outcome]]:
    """Resume every adjourned game whose arbiter's time has come at ``now`` (R38): the clock
    sends ``Resume``, decided by the game (which checks the time on its own log) and stored
    like any command; the new session's clocks start then. The (uuid, outcome) of each
    resumption stored."""
    now = now or timezone.now()
    return _resume(claim_resumptions(now, limit), now)


Published = Callable[[list[tuple[Any, Outcome]]], None]


def run_round(now: datetime | None = None, limit: int = 64, publish: Published | None = None
              ) -> tuple[list[tuple[Any, Outcome]], datetime | None]:
    """One round of the clock's jobs, as the worker's clock thread runs it
    (``play.worker.clock_thread``): the flags and the resumptions due at ``now`` stored, and
    the next moment either job has work (None: none known; ``now``: more were due than one round
    takes). ``publish`` is given what was stored as soon as it is: the flags after two
    statements (the due games, read whole, and the one append) and the players' block,
    before the round looks for anything else; then the resumptions. Idle, three indexed
    queries."""
    now = now or timezone.now()
    rows = _due_flag_rows(now, limit)
    flags = _flag(rows, now)
    if publish is not None and flags:
        publish(flags)
    resumptions, next_resume = _due_resumptions(now, 16)
    resumed = _resume(_claim(resumptions, now), now)
    if publish is not None and resumed:
        publish(resumed)
    next_flag = now if len(rows) == limit else _next_deadline(now)
    return flags + resumed, min((t for t in (next_flag, next_resume) if t is not None),
                                default=None)
