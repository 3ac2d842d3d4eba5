"""The jobs of a worker's round as they run on one of its loop's threads (``play.worker.loop``).

Each takes a fresh database connection and leaves none behind (the thread's may have gone stale
since its last round; Django's request cycle does this for views), and runs one job: the
correspondence notices, the quick-pairing pools' waves, the adjourned games' session entries,
other apps' registered jobs; ``warm_up`` loads, once, what the first flag would otherwise load.
"""

from __future__ import annotations

import logging

from django.db import close_old_connections

from play import lifecycle
from play.lobby import pool, pool_three
from play.lobby.tables import Started
from play.models import Game
from play.worker import jobs, notices

log = logging.getLogger(__name__)


def notices_in_thread() -> None:
    """The correspondence notices (``play.worker.notices``) on one of the loop's threads."""
    close_old_connections()
    try:
        notices.send_due()
    finally:
        close_old_connections()


def warm_up() -> None:
    """Load, once, what the first flag would otherwise load while its players wait: the
    site's URL map (the first ``reverse``, for the players' profile links in every update,
    imports every view module: 0.3 s on a quiet machine, over 1 s on a busy one, measured
    as the first flags' delay in ``benchmarks/bench_deadlines.py``) and the rules' tables
    of each variant (a snapshot)."""
    from django.urls import reverse

    from play import games
    from play.games.registry import VARIANT_NAMES

    reverse("lobby")
    for variant in VARIANT_NAMES:
        games.snapshot(games.new_state(variant))


def waves_in_thread(waited: list[int] | None = None,
                    taken_out: list[int] | None = None) -> list[pool.Pairing]:
    """The quick-pairing pools' due waves (R47, ``play.lobby.pool``) on one of the loop's
    threads; the games they started (the accounts left waiting into ``waited``, how many
    were taken out of the pools first into ``taken_out``)."""
    close_old_connections()
    try:
        return pool.run_due_waves(waited=waited, taken_out=taken_out)
    finally:
        close_old_connections()


def three_in_thread() -> list[Started]:
    """The pool for three's round (issue 37, ``play.lobby.pool_three``) on one of the loop's
    threads: the tables it started (``tables.Started``)."""
    close_old_connections()
    try:
        return pool_three.run_due()
    finally:
        close_old_connections()


def run_sessions() -> None:
    """R38: the adjourned games' ended sittings get their session entries (the subscribers
    of ``adjourned``, idempotent: a game whose entries are written costs two small reads)."""
    for game in Game.objects.filter(status=Game.LIVE, to_move=""):
        for name, subscriber in lifecycle.adjourned_subscribers():
            try:
                subscriber(game)
            except Exception:
                log.warning("%s failed for game %s", name, game.uuid, exc_info=True)


def sessions_in_thread() -> None:
    close_old_connections()
    try:
        run_sessions()
    finally:
        close_old_connections()


def jobs_in_thread() -> int:
    """Other apps' registered jobs (``play.worker.jobs``: an event's scheduled rounds) on one
    of the loop's threads."""
    close_old_connections()
    try:
        return jobs.run_all()
    finally:
        close_old_connections()
