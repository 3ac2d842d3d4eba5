"""The worker's clock on a thread of its own (``play.worker.clock_thread``, R37: a flag at the exact
deadline, whatever else the machine does).

Checked: a round publishes its flags as soon as they are stored, having read each due game
once and before it looks for the resumptions or the next deadline; the clock's thread runs
above its process's priority where the system allows it (else at the process's); it hears a
wake, flags a game whose deadline a wake announced, and ends with the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from play import conf
from play.lifecycle import start_game
from play.models import Game
from play.store import engines
from play.worker import clocks
from play.worker.clock_thread import raise_priority
from play.worker.loop import start_embedded


def _due(players, seconds_ago: float) -> Game:
    """A live timed game whose opening-turn deadline passed ``seconds_ago`` seconds ago."""
    alice, bob, _ = players
    engines.forget()
    game = start_game(alice, bob, time_control="fischer 60+0")
    deadline = timezone.now() - timedelta(seconds=seconds_ago)
    Game.objects.filter(pk=game.pk).update(created=deadline - timedelta(seconds=30),
                                           deadline=deadline)
    engines.forget()
    return Game.objects.get(pk=game.pk)


def _resumptions_read(queries: list[dict]) -> bool:
    """Whether the round's query of the resumptions an arbiter set is among ``queries``."""
    return any('"play_game"."resume_at" IS NOT NULL' in q["sql"] for q in queries)


def _game_reads(queries: list[dict]) -> int:
    return sum(1 for q in queries
               if q["sql"].lstrip().upper().startswith("SELECT") and '"play_game"' in q["sql"])


@pytest.mark.django_db
def test_a_round_publishes_its_flags_before_looking_further(players):
    game = _due(players, 1)
    heard: list[tuple[list, list[dict]]] = []
    with CaptureQueriesContext(connection) as ctx:
        def publish(done):
            heard.append(([u for u, _ in done], list(ctx.captured_queries)))

        done, _next = clocks.run_round(publish=publish)
    assert [u for u, _ in done] == [game.uuid]
    assert len(heard) == 1 and heard[0][0] == [game.uuid]  # published once, with the flag
    before = heard[0][1]
    assert _game_reads(before) == 1  # the due games, read whole once: not read again
    assert not _resumptions_read(before)
    assert _resumptions_read(ctx.captured_queries[len(before):])
    row = Game.objects.get(pk=game.pk)
    assert (row.status, row.reason) == (Game.FINISHED, "aborted")  # opening turn never made


def _may_raise() -> bool:
    """Whether this system lets a thread run above its process (root, CAP_SYS_NICE or
    RLIMIT_NICE), tried on a scratch thread."""
    result: list[bool] = []

    def probe() -> None:
        try:
            base = os.getpriority(os.PRIO_PROCESS, os.getpid())
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), max(-20, base - 1))
            result.append(base > -20)
        except OSError:
            result.append(False)

    t = threading.Thread(target=probe)
    t.start()
    t.join()
    return result[0]


def test_raise_priority_moves_only_the_calling_thread():
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    seen: list[tuple[bool, int]] = []

    def run() -> None:
        seen.append((raise_priority(3), os.getpriority(os.PRIO_PROCESS,
                                                       threading.get_native_id())))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    raised, nice = seen[0]
    assert raised == _may_raise()
    assert nice == (max(-20, base - 3) if raised else base)
    assert os.getpriority(os.PRIO_PROCESS, os.getpid()) == base  # the process unchanged
    assert raise_priority(0) is False


def _clock_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("talu clock")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_clock_thread_flags_on_time_above_its_process_and_ends_with_the_worker(
        players):
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    task = start_embedded()
    try:
        for _ in range(100):
            if _clock_threads():
                break
            await asyncio.sleep(0.05)
        (thread,) = _clock_threads()
        nice = os.getpriority(os.PRIO_PROCESS, thread.native_id)
        expected = max(-20, base - conf.clock_priority()) if _may_raise() else base
        assert nice == expected
        # a game due now: the thread's next round (at the poll, or at once when woken)
        game = await database_sync_to_async(_due)(players, 0.2)
        for _ in range(100):
            row = await Game.objects.aget(pk=game.pk)
            if row.status == Game.FINISHED:
                break
            await asyncio.sleep(0.05)
        assert (row.status, row.reason) == (Game.FINISHED, "aborted")
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert not thread.is_alive()
