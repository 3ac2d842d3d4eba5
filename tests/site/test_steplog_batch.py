"""Group commit of ``play.store.group_commit``: steps of different games that arrive while a
write is in flight are stored by one statement, each caller still told about its own step.

A spy on psycopg's ``AsyncCursor.execute`` records the games of every steplog statement and
can hold one statement "in flight" (``Spy.hold``) while the test queues more steps behind it.

The statement runs on PostgreSQL only: those tests are collected where steplog is available,
in the services lane (``tests/lanes.py``, which lists this module), and wherever the
database is PostgreSQL. The batching rules themselves (``_take``) are tested everywhere.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import psycopg
import pytest
import pytest_asyncio
from channels.db import database_sync_to_async

from play.games.protocol import Event
from play.lifecycle import start_game
from play.models import Game, GameEvent
from play.store import engines, group_commit
from play.store import log as event_log
from play.store.group_commit import append_async
from play.store.log import Batch, Numbered
from tests import stack


def _step(version: int, seq: str, text: str = "A2-A3") -> Numbered:
    return Numbered(version, Event("step", "I", {"kind": "move", "from": "A2", "to": "A3"},
                                   text), seq)


def _queued(game_pk: int, loop: asyncio.AbstractEventLoop) -> group_commit._Waiting:
    return group_commit._Waiting(Batch(game_pk, 0, [_step(1, f"s{game_pk}")]), loop.create_future())


def test_a_batch_takes_one_step_per_game_in_arrival_order_up_to_the_cap():
    loop = asyncio.new_event_loop()
    try:
        writer = group_commit._Writer()
        first = [_queued(pk, loop) for pk in range(1, group_commit.BATCH_MAX + 3)]
        again = _queued(5, loop)  # a second step of game 5: the next statement
        gone = _queued(900, loop)
        gone.future.cancel()  # its caller gave up while it waited: never written
        writer.queue = [*first[:10], again, gone, *first[10:]]
        batch = writer._take()
        assert [s.batch.game_pk for s in batch] == list(range(1, group_commit.BATCH_MAX + 1))
        assert writer.queue == [again, *first[group_commit.BATCH_MAX:]]
        assert [s.batch.game_pk for s in writer._take()] == [
            5, *(s.batch.game_pk for s in first[-2:])]
        assert writer.queue == []
    finally:
        loop.close()


class Spy:
    """Records the games of each steplog statement; ``hold()`` keeps the next one waiting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[list[int]] = []
        self._holds: list[asyncio.Event] = []
        self.entered = asyncio.Event()
        real = psycopg.AsyncCursor.execute
        spy = self

        async def execute(cur: psycopg.AsyncCursor, query: Any, params: Any = None,
                          **kwargs: Any) -> Any:
            if query in (event_log.sql(True), event_log.sql(False)):
                spy.statements.append([s["id"] for s in orjson.loads(params["steps"])])
                spy.entered.set()
                if spy._holds:
                    await spy._holds.pop(0).wait()
            return await real(cur, query, params, **kwargs)

        monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute)

    def hold(self) -> asyncio.Event:
        """Keep the next statement from being sent until the returned event is set."""
        gate = asyncio.Event()
        self._holds.append(gate)
        self.entered.clear()
        return gate


async def _in_flight(spy, game) -> tuple[asyncio.Event, asyncio.Task]:
    """``game``'s first step, its statement held in flight by ``spy`` (set the returned gate
    to let it finish), so that the steps sent next queue behind it."""
    gate = spy.hold()
    first = asyncio.create_task(append_async(Batch(game.pk, 0, [_step(1, "a")], None)))
    await spy.entered.wait()
    return gate, first


async def _yield(times: int = 5) -> None:
    """Let the loop run ``times`` rounds, timers not included."""
    for _ in range(times):
        await asyncio.sleep(0)


def _games(n: int, alice, bob) -> list[Game]:
    engines.forget()
    return [start_game(alice, bob, variant="standard", rated=False) for _ in range(n)]


@database_sync_to_async
def _stored(game: Game) -> tuple[int, str, list[tuple]]:
    row = Game.objects.get(pk=game.pk)
    log = list(GameEvent.objects.filter(game=game).order_by("version")
               .values_list("version", "seq", "text"))
    return row.version, row.stgn, log


if event_log.on_postgresql() or stack.on_services():  # the statement needs PostgreSQL

    @pytest_asyncio.fixture
    async def spy(monkeypatch):
        await group_commit._async_connection()  # opened: a test's first write is not a connect
        yield Spy(monkeypatch)
        await group_commit.close_async()

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_a_lone_step_is_sent_at_once(players, spy):
        assert event_log.on_postgresql()
        (g,) = await database_sync_to_async(_games)(1, *players[:2])
        task = asyncio.create_task(append_async(Batch(g.pk, 0, [_step(1, "a")], None)))
        await _yield()  # a few rounds of the loop, no timer: the statement is already sent
        assert spy.statements == [[g.pk]]
        assert await task is True
        assert (await _stored(g))[2] == [(1, "a", "A2-A3")]

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_steps_arriving_during_a_write_are_one_statement_each_told_its_own(
            players, spy):
        g = await database_sync_to_async(_games)(6, *players[:2])
        # g[4] was moved by another process (version 1, its own event), g[5] has ended.
        assert await database_sync_to_async(event_log.append)(Batch(g[4].pk, 0, [_step(1, "x")]))
        await database_sync_to_async(
            Game.objects.filter(pk=g[5].pk).update)(status=Game.FINISHED)
        await database_sync_to_async(Game.objects.filter(pk=g[2].pk).update)(stgn="before")
        before = [await _stored(x) for x in g]

        gate, first = await _in_flight(spy, g[0])  # these queue behind g[0]'s statement
        two_events = [_step(1, "c"), Numbered(2, Event("warn", "", {"side": "I"}, "warn"))]
        rest = [asyncio.create_task(append_async(Batch(*args))) for args in (
            (g[1].pk, 0, [_step(1, "b")], "NOTATION-1"),
            (g[2].pk, 0, [_step(1, "b")], None),  # ended no turn: the notation stays
            (g[3].pk, 0, two_events, None),
            (g[4].pk, 0, [_step(1, "b")], None),  # moved: not at version 0 any more
            (g[5].pk, 0, [_step(1, "b")], None),  # not live
        )]
        await _yield()
        assert spy.statements == [[g[0].pk]]  # nothing else sent while one is in flight
        gate.set()
        results = await asyncio.gather(first, *rest)

        assert results == [True, True, True, True, False, False]
        assert spy.statements == [[g[0].pk], [x.pk for x in g[1:]]]  # 2 statements, 6 steps
        after = [await _stored(x) for x in g]
        assert after[0] == (1, before[0][1], [(1, "a", "A2-A3")])
        assert after[1] == (1, "NOTATION-1", [(1, "b", "A2-A3")])
        assert after[2] == (1, "before", [(1, "b", "A2-A3")])
        assert after[3] == (2, before[3][1], [(1, "c", "A2-A3"), (2, None, "warn")])
        assert after[4] == before[4] == (1, before[4][1], [(1, "x", "A2-A3")])
        assert after[5] == before[5] and after[5][:1] == (0,) and after[5][2] == []

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_a_duplicate_seq_fails_only_its_own_step(players, spy):
        g = await database_sync_to_async(_games)(4, *players[:2])
        assert await database_sync_to_async(event_log.append)(Batch(g[1].pk, 0, [_step(1, "a")]))

        gate, first = await _in_flight(spy, g[0])
        resent = asyncio.create_task(  # at the right version, but "a" is already stored
            append_async(Batch(g[1].pk, 1, [_step(2, "a", "A3-A4")], None)))
        others = [asyncio.create_task(append_async(Batch(x.pk, 0, [_step(1, "b")], None)))
                  for x in g[2:]]
        await _yield()
        gate.set()

        assert await first is True
        with pytest.raises(psycopg.errors.UniqueViolation):
            await resent
        assert await asyncio.gather(*others) == [True, True]
        # The batch failed whole, then each of its steps went alone.
        batch = [g[1].pk, g[2].pk, g[3].pk]
        assert spy.statements == [[g[0].pk], batch, *([pk] for pk in batch)]
        assert (await _stored(g[1]))[::2] == (1, [(1, "a", "A2-A3")])  # nothing of the resend
        for x in g[2:]:
            assert (await _stored(x))[::2] == (1, [(1, "b", "A2-A3")])

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_two_steps_of_one_game_are_never_in_one_statement(players, spy):
        g = await database_sync_to_async(_games)(3, *players[:2])
        gate, first = await _in_flight(spy, g[0])
        rest = [asyncio.create_task(append_async(Batch(*args))) for args in (
            (g[1].pk, 0, [_step(1, "a")], None),
            (g[1].pk, 1, [_step(2, "b", "A3-A4")], None),  # after the one above
            (g[2].pk, 0, [_step(1, "a")], None),
        )]
        await _yield()
        gate.set()
        assert await asyncio.gather(first, *rest) == [True, True, True, True]
        assert spy.statements == [[g[0].pk], [g[1].pk, g[2].pk], [g[1].pk]]
        assert (await _stored(g[1]))[::2] == (2, [(1, "a", "A2-A3"), (2, "b", "A3-A4")])

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_cancelled_callers_break_neither_the_writer_nor_the_others(players, spy):
        g = await database_sync_to_async(_games)(4, *players[:2])
        gate, first = await _in_flight(spy, g[0])
        rest = [asyncio.create_task(append_async(Batch(x.pk, 0, [_step(1, "a")], None)))
                for x in g[1:]]
        await _yield()
        first.cancel()  # its statement is in flight: it goes on, unanswered
        rest[1].cancel()  # still waiting: never written
        gate.set()
        await asyncio.gather(first, *rest, return_exceptions=True)
        assert first.cancelled() and rest[1].cancelled()
        assert rest[0].result() is True and rest[2].result() is True
        assert spy.statements == [[g[0].pk], [g[1].pk, g[3].pk]]
        assert (await _stored(g[0]))[0] == 1  # sent before its caller left
        assert (await _stored(g[2]))[::2] == (0, [])
        # The writer still works: the cancelled step can be sent again.
        assert await append_async(Batch(g[2].pk, 0, [_step(1, "a")], None)) is True
        assert spy.statements[-1] == [g[2].pk]
        assert group_commit._writers[asyncio.get_running_loop()].task is None  # no task left

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_a_batch_on_a_lost_connection_is_written_alone_on_a_new_one(players, spy):
        g = await database_sync_to_async(_games)(3, *players[:2])
        old = group_commit._async[asyncio.get_running_loop()]
        gate, first = await _in_flight(spy, g[0])
        rest = [asyncio.create_task(append_async(Batch(x.pk, 0, [_step(1, "a")], None)))
                for x in g[1:]]
        await _yield()
        gate2 = spy.hold()  # the batch of g[1] and g[2]
        gate.set()
        assert await first is True
        await spy.entered.wait()

        def kill(pid: int) -> None:
            from django.db import connection

            with connection.cursor() as cur:
                cur.execute("SELECT pg_terminate_backend(%s)", [pid])

        await database_sync_to_async(kill)(old.info.backend_pid)
        gate2.set()
        assert await asyncio.gather(*rest) == [True, True]
        assert spy.statements == [[g[0].pk], [g[1].pk, g[2].pk], [g[1].pk], [g[2].pk]]
        assert old.broken and group_commit._async[asyncio.get_running_loop()] is not old
        for x in g:
            assert (await _stored(x))[::2] == (1, [(1, "a", "A2-A3")])

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_the_statement_is_prepared_once_whatever_the_batch(players, spy):
        """PostgreSQL prepares a statement after psycopg has run it five times with the same
        parameter types: batches of any size and versions of any size are one statement."""
        g = await database_sync_to_async(_games)(7, *players[:2])
        await database_sync_to_async(Game.objects.filter(pk=g[6].pk).update)(version=40000)
        for n in range(6):  # small numbers (psycopg would send int2 arrays)
            assert await append_async(Batch(g[n].pk, 0, [_step(1, "a")], None))
        for v in range(40000, 40006):  # beyond int2, and batches of several steps
            gate = spy.hold()
            tasks = [asyncio.create_task(append_async(Batch(g[6].pk, v, [_step(v + 1,
                                                                               f"b{v}")], None)))]
            await spy.entered.wait()
            tasks += [asyncio.create_task(append_async(Batch(
                x.pk, v - 39999, [_step(v - 39998, f"c{v}")], "N"))) for x in g[:3]]
            await _yield()
            gate.set()
            assert await asyncio.gather(*tasks) == [True] * 4
        assert len(spy.statements) == 6 + 12
        conn = group_commit._async[asyncio.get_running_loop()]
        async with conn.cursor() as cur:
            await cur.execute("SELECT count(*) FROM pg_prepared_statements "
                              "WHERE statement LIKE 'WITH moved AS (UPDATE %'")
            assert await cur.fetchone() == (1,)

    @pytest.mark.django_db(transaction=True)
    @pytest.mark.asyncio
    async def test_a_cancelled_writer_leaves_no_caller_waiting(players, spy):
        """The loop closing cancels the writer: every waiting caller gets an error (its step
        goes to the locked path), none hangs, and the next step starts a new writer."""
        g = await database_sync_to_async(_games)(2, *players[:2])
        spy.hold()  # never released: the writer is cancelled holding it
        tasks = [asyncio.create_task(
            append_async(Batch(g[0].pk, 0, [_step(1, "a")], None)))]
        await spy.entered.wait()
        tasks.append(asyncio.create_task(append_async(Batch(g[1].pk, 0, [_step(1, "a")],
                                                              None))))
        await _yield()
        writer = group_commit._writers[asyncio.get_running_loop()]
        writer.task.cancel()
        for task in tasks:
            with pytest.raises(psycopg.OperationalError, match="writer stopped"):
                await task
        assert writer.task is None and writer.queue == []
        assert await append_async(Batch(g[1].pk, 0, [_step(1, "a")], None)) is True
        assert (await _stored(g[0]))[::2] == (0, [])
