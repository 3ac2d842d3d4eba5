"""The clock's job: flag live games whose running clock has run out (R36, R37).

Every append keeps the game's ``deadline`` (when its running clock runs out) on its row, so the
due games are one indexed query (a partial index holds only games whose clock runs). For each,
the worker sends the clock's command, ``Flag``, down the one command path (R40): the pure core
checks it on its own clock and answers a ``decide`` on ``time`` or, for an opening turn never
completed, an ``abort``; the append stores it only if the game is still at the version it was
decided on. So with several workers (or a worker and a player's own claim) racing for one
game, exactly one flag is stored and the others are refused ``finished``, as any second
command on a finished game; a step that beat the flag moves the deadline and the flag is
refused ``too_early``. Nobody needs to be connected: the flag reaches whoever is.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone

from play.commands.path import Outcome, Submission, store
from play.games.protocol import CLOCK_ACTOR, Flag
from play.models import Game
from play.store.log import on_postgresql

log = logging.getLogger(__name__)


def _running() -> Q:
    return Q(status=Game.LIVE, deadline__isnull=False)


def due(now: datetime, limit: int = 64) -> list[Any]:
    """The uuids of live games whose deadline has passed at ``now``, earliest first."""
    return list(Game.objects.filter(_running(), deadline__lte=now).order_by("deadline")
                .values_list("uuid", flat=True)[:limit])


def next_deadline() -> datetime | None:
    """The earliest deadline of a live game (the worker sleeps until then at most)."""
    return (Game.objects.filter(_running()).order_by("deadline")
            .values_list("deadline", flat=True).first())


_pool: ThreadPoolExecutor | None = None
PARALLEL = 4  # flags stored at once: each is a few round trips to the database


def _flag(game_uuid: Any) -> Outcome:
    close_old_connections()  # a pool thread's connection may have gone stale since
    return store(Submission(game_uuid, CLOCK_ACTOR, Flag()))


def flag_due(now: datetime | None = None, limit: int = 64) -> list[tuple[Any, Outcome]]:
    """Send the clock's flag to every game due at ``now``: the (uuid, outcome) of each flag
    stored (games another worker flagged first, or that moved on, are left out). Several
    due games are flagged side by side (``PARALLEL`` threads): a burst of deadlines is
    latency, mostly database round trips, not CPU."""
    global _pool
    uuids = due(now or timezone.now(), limit)
    if len(uuids) > 1 and on_postgresql():  # SQLite has one writer: no use in threads
        if _pool is None:
            _pool = ThreadPoolExecutor(PARALLEL, thread_name_prefix="talu-flags")
        outcomes = list(_pool.map(_flag, uuids))
    else:
        outcomes = [store(Submission(u, CLOCK_ACTOR, Flag())) for u in uuids]
    stored = []
    for game_uuid, outcome in zip(uuids, outcomes, strict=True):
        if outcome.ok:
            stored.append((game_uuid, outcome))
        elif outcome.code not in ("finished", "too_early", "busy"):
            log.warning("flag of game %s refused: %s %s", game_uuid, outcome.code,
                        outcome.reason)
    return stored
