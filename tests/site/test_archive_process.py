"""The worker archives finished games in a background process of its own
(``play.worker.archiver``, through ``play.background_pool``): the archive's CPU never competes
with the worker's threads (the clock's) for its GIL, nor at the servers' priority for the cores;
and a process killed in the middle of writing a game's records loses nothing: the game is
archived once, by the next process, after the dead one's claim has run out.
"""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from play.models import Game, Outbox
from play.worker import archiver
from registry.models import GameRecord, RatingChange, RegistryGame
from tests.site.gameplay import resigned_unarchived

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.archive_process,
              pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_archive_process():
    archiver.shutdown()
    yield
    archiver.shutdown()


def _resigned(make_user, names: tuple[str, str]) -> Game:
    return resigned_unarchived(make_user(names[0]), make_user(names[1]))


def _facts(game: Game) -> dict:
    arch = RegistryGame.objects.get(live=game)
    row = Outbox.objects.get(game=game)
    return {"status": arch.status,
            "records": sorted(GameRecord.objects.filter(game=arch).values_list("kind", flat=True)),
            "rating_changes": RatingChange.objects.filter(game=arch).count(),
            "outbox": (row.done is not None, row.attempts)}


def _die_mid_record(worker: str, lease: float):
    """The archive process's round (``archiver.RUN``), killed (SIGKILL, as by the OOM killer)
    right after writing the first of the game's records, inside the archive's transaction."""
    from registry import archiving

    real_create = GameRecord.objects.create

    def create_then_die(*args, **kwargs):
        real_create(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)

    archiving.GameRecord.objects.create = create_then_die
    return archiver.archive_due_fresh(worker, lease)


async def test_the_archive_runs_in_a_background_process_of_its_own():
    loop = asyncio.get_running_loop()
    pool = archiver.executor()
    assert pool is not None
    pid, nice = await loop.run_in_executor(pool, _pid_and_nice)
    assert pid != os.getpid()
    if connection.vendor == "postgresql" and hasattr(os, "SCHED_IDLE"):
        policy = await loop.run_in_executor(pool, os.sched_getscheduler, 0)
        assert policy == os.SCHED_IDLE  # only CPU nothing else wants
    else:  # SQLite: never starved while it holds the one write lock, only lower
        assert nice == min(19, os.nice(0) + 10)


def _pid_and_nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


async def test_a_finished_game_is_archived_by_the_archive_process(make_user):
    game = await database_sync_to_async(_resigned)(make_user, ("ann", "ben"))
    done = await archiver.archive_due_async("w1", 60.0)
    assert [uuid for uuid, _ in done] == [str(game.uuid)]
    assert done[0][1]["archived"] is True and done[0][1]["records"]  # the news for the sockets
    facts = await database_sync_to_async(_facts)(game)
    assert facts == {"status": "finished", "records": ["STDGS", "STGE", "STGN", "STSE"],
                     "rating_changes": 2, "outbox": (True, 1)}
    assert await archiver.archive_due_async("w1", 60.0) == []  # nothing due any more


async def test_an_archive_process_killed_mid_record_leaves_the_game_archived_once(
        make_user, monkeypatch):
    game = await database_sync_to_async(_resigned)(make_user, ("cat", "dan"))
    monkeypatch.setattr(archiver, "RUN", _die_mid_record)
    with pytest.raises(BrokenProcessPool):
        await archiver.archive_due_async("w1", 1.0)
    facts = await database_sync_to_async(_facts)(game)
    # Nothing of the archive's transaction stands; the row is claimed (its lease: 1 s).
    assert facts == {"status": "playing", "records": ["STGE"], "rating_changes": 0,
                     "outbox": (False, 1)}
    monkeypatch.setattr(archiver, "RUN", archiver.archive_due_fresh)
    await asyncio.sleep(1.2)  # the dead process's claim runs out
    done = await archiver.archive_due_async("w1", 60.0)  # a new process
    assert [uuid for uuid, _ in done] == [str(game.uuid)]
    assert await archiver.archive_due_async("w2", 60.0) == []
    facts = await database_sync_to_async(_facts)(game)
    assert facts == {"status": "finished", "records": ["STDGS", "STGE", "STGN", "STSE"],
                     "rating_changes": 2, "outbox": (True, 2)}
