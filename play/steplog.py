"""Appending validated steps to games' logs on PostgreSQL, one statement for many steps.

The locked write path of ``play.services`` costs five round trips and Django's query compiler
on every step; under load that was most of a step's cost (BENCHMARKS.md, issue 7). When this
process already holds the game's engine at the version the client names, the step has been
validated against it before anything is sent, and all that is left is to store it *if the game
is still at that version*. One data-modifying statement does exactly that: the conditional
version bump and the events ``INSERT`` succeed or fail together, in the statement's own
transaction, so a game another process moved meanwhile is simply not written (the caller takes
the locked path) and nothing is ever half-applied. The unique (game, version) and (game, side,
seq) constraints still hold as a last guard.

Only PostgreSQL runs data-modifying ``WITH``; elsewhere (SQLite, a newcomer's default) the
locked path does every step.

The websocket consumer stores from its event loop (``append_async``) on a psycopg
``AsyncConnection`` of its own, one per process and loop: a step then never waits for a pool
thread nor passes the interpreter lock back and forth with one, which was most of a step's
latency under load (BENCHMARKS.md). The connection is in autocommit mode, so the statement is
its own transaction, committed before the consumer says anything.

Group commit. With one statement per step, psycopg's per-statement work was about a seventh of
a loaded server process's CPU, and PostgreSQL paid a commit per step; and a step arriving while
another was being written waited for the connection anyway. So the steps of one loop go through
one writer (``_Writer``): a step that finds no write in flight is sent at once (no timer, no
added latency when idle); steps that arrive while one is in flight are written together, as ONE
statement, as soon as the connection is free (up to ``BATCH_MAX``). Batches therefore form only
under load. The statement (``_sql``) is the same text whatever the batch size, the steps passed
as two JSON documents and unpacked by ``jsonb_to_recordset``, so PostgreSQL prepares and plans
it once per connection.
It bumps every game still live at its step's version and inserts the events of exactly those
games; each game's step is stored whole or not at all, and a batch is still one transaction: if
it raises (a resent ``seq``, a lost connection), nothing of it was written and each of its steps
is written again alone, so only the step that really fails raises to its caller.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import orjson
import psycopg
from django.db import connection, connections, transaction

from play.models import Game, GameEvent, NewEvent

log = logging.getLogger(__name__)

# Steps per statement at most: enough to take a burst in one commit, small enough that no
# statement holds many games' rows locked for long.
BATCH_MAX = 64


@cache
def available() -> bool:
    """Whether the database runs data-modifying ``WITH`` (asked once: on every step it was a
    lookup through Django's per-thread connections)."""
    return connection.vendor == "postgresql"


@cache
def _sql() -> str:
    """The one statement, for one step or many. ``moved`` bumps each game still live at its
    step's old version (``stgn`` null: the step ended no turn, the notation stays); ``stored``
    inserts the events of the games it bumped and no other; the result counts them per game.

    The steps and their events come as two JSON documents, unpacked by
    ``jsonb_to_recordset``: orjson writes them in microseconds, where psycopg's adaptation of
    eleven arrays, element by element in Python, was about a twentieth of a loaded server
    process's time (BENCHMARKS.md, issue 7)."""
    game, event = Game._meta.db_table, GameEvent._meta.db_table
    return (
        f"WITH moved AS ("
        f"UPDATE {game} AS g SET version = s.new, stgn = COALESCE(s.stgn, g.stgn) "
        f"FROM jsonb_to_recordset(%(steps)s::jsonb) AS s(id bigint, old integer, new integer, "
        f"stgn text) "
        f"WHERE g.id = s.id AND g.version = s.old AND g.status = %(live)s RETURNING g.id), "
        f"stored AS ("
        f"INSERT INTO {event} (game_id, version, kind, side, data, text, seq, created) "
        f"SELECT e.game_id, e.version, e.kind, e.side, e.data, e.text, e.seq, now() "
        f"FROM jsonb_to_recordset(%(events)s::jsonb) AS e(game_id bigint, version integer, "
        f"kind text, side text, data jsonb, text text, seq text) "
        f"JOIN moved ON moved.id = e.game_id RETURNING game_id) "
        f"SELECT game_id, count(*) FROM stored GROUP BY game_id"
    )


# A step as the statement takes it: (game pk, from_version, events, stgn or None).
StepRow = tuple[int, int, Sequence[NewEvent], str | None]


def _params(steps: Iterable[StepRow]) -> dict[str, Any]:
    """The parameters of ``_sql`` for ``steps`` (at most one per game)."""
    moves: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for game_pk, from_version, step_events, stgn in steps:
        moves.append({"id": game_pk, "old": from_version, "new": step_events[-1].version,
                      "stgn": stgn})
        events.extend({"game_id": game_pk, "version": ev.version, "kind": ev.kind,
                       "side": ev.side, "data": ev.data, "text": ev.text, "seq": ev.seq}
                      for ev in step_events)
    return {"steps": orjson.dumps(moves).decode(), "events": orjson.dumps(events).decode(),
            "live": Game.LIVE}


def append(game_pk: int, from_version: int, events: Sequence[NewEvent],
           stgn: str | None) -> bool:
    """Store ``events`` (numbered from ``from_version + 1``) if the live game ``game_pk`` is
    still at ``from_version``; True when stored, False when the game had moved or ended.

    Raises the database's errors unchanged (a duplicate ``seq`` is an ``IntegrityError``),
    having written nothing. The statement is ``_sql`` with arrays of one step.
    """
    params = _params([(game_pk, from_version, events, stgn)])
    if connection.in_atomic_block:
        # Inside someone's transaction (tests, a caller's atomic block): a savepoint, so a
        # refused statement leaves that transaction usable.
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(_sql(), params)
            return dict(cur.fetchall()).get(game_pk) == len(events)
    with connection.cursor() as cur:  # autocommit: the statement is its own transaction
        cur.execute(_sql(), params)
        return dict(cur.fetchall()).get(game_pk) == len(events)


# One connection per event loop (a process has one; tests run several in turn).
_async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, psycopg.AsyncConnection] = (
    weakref.WeakKeyDictionary())


async def _async_connection() -> psycopg.AsyncConnection:
    loop = asyncio.get_running_loop()
    conn = _async.get(loop)
    if conn is not None and not conn.closed and not conn.broken:
        return conn
    # Django's own connection parameters (the test database under tests), minus its
    # Django-specific cursor class and adapters.
    params = {k: v for k, v in connections["default"].get_connection_params().items()
              if k not in ("cursor_factory", "context", "prepare_threshold")}
    conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    _async[loop] = conn
    return conn


@dataclass(eq=False, slots=True)
class _Step:
    """A step waiting for the writer, and its caller's answer."""

    game_pk: int
    from_version: int
    events: Sequence[NewEvent]
    stgn: str | None
    future: asyncio.Future[bool] = field(repr=False)

    def row(self) -> StepRow:
        return self.game_pk, self.from_version, self.events, self.stgn

    def answer(self, stored: dict[int, int]) -> None:
        if not self.future.done():  # done: its caller was cancelled; nobody to tell
            self.future.set_result(stored.get(self.game_pk) == len(self.events))

    def fail(self, err: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(err)


async def _execute(conn: psycopg.AsyncConnection, steps: Sequence[_Step]) -> dict[int, int]:
    """Run the statement for ``steps``: how many events it stored per game pk."""
    async with conn.cursor() as cur:
        await cur.execute(_sql(), _params(s.row() for s in steps))
        return dict(await cur.fetchall())


class _Writer:
    """One event loop's queue of steps and the task that writes them, one batch at a time.

    The task exists only while there is something to write: a step that finds none starts it
    (its batch is that step alone, plus whatever arrived before the task first ran), and it
    ends when the queue is empty.
    """

    def __init__(self) -> None:
        self.queue: list[_Step] = []
        self.task: asyncio.Task[None] | None = None

    def submit(self, step: _Step) -> None:
        self.queue.append(step)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(),
                                                               name="steplog writer")

    def _take(self) -> list[_Step]:
        """The next batch: up to ``BATCH_MAX`` steps in arrival order, never two of one game
        (the later waits for the next statement, which then sees the first one stored). A step
        whose caller was cancelled while it waited is dropped, not written."""
        batch: list[_Step] = []
        later: list[_Step] = []
        games: set[int] = set()
        for step in self.queue:
            if step.future.done():
                continue
            if len(batch) < BATCH_MAX and step.game_pk not in games:
                games.add(step.game_pk)
                batch.append(step)
            else:
                later.append(step)
        self.queue = later
        # In game order, two processes' batches over the same games tend to lock their rows
        # in the same order (the order the plan visits them). A deadlock PostgreSQL breaks
        # anyway is an error of one batch, whose steps are then written alone.
        batch.sort(key=lambda s: s.game_pk)
        return batch

    async def _run(self) -> None:
        batch: list[_Step] = []
        try:
            while self.queue:
                batch = self._take()
                if batch:
                    await self._write(batch)
        except BaseException as err:
            # Cancelled (the loop is closing) or a bug of this module: no caller is left
            # waiting. Their steps may or may not be stored; an error sends them to the
            # locked path, which tells a stored step (its seq) from one that is not.
            if not isinstance(err, asyncio.CancelledError):
                log.exception("the step writer failed")
            failure = psycopg.OperationalError(f"the step writer stopped ({err!r})")
            for step in [*batch, *self.queue]:
                step.fail(failure)
            self.queue = []
            if not isinstance(err, Exception):
                raise  # cancellation ends the task as cancelled; an error is logged above
        finally:
            self.task = None

    async def _write(self, batch: list[_Step]) -> None:
        """Write ``batch`` as one statement; if it raises, each of its steps alone."""
        try:
            stored = await _execute(await _async_connection(), batch)
        except Exception as err:
            if not isinstance(err, psycopg.Error):
                log.exception("unexpected error writing %d steps", len(batch))
            if len(batch) == 1:
                batch[0].fail(err)
                return
            log.info("a statement of %d steps failed (%s); writing each alone", len(batch), err)
            await self._write_alone(batch)
            return
        for step in batch:
            step.answer(stored)

    async def _write_alone(self, batch: list[_Step]) -> None:
        for n, step in enumerate(batch):
            try:
                conn = await _async_connection()  # reopened if the batch broke it
            except Exception as err:  # no database: the rest fail alike, without n retries
                for rest in batch[n:]:
                    rest.fail(err)
                return
            try:
                stored = await _execute(conn, [step])
            except Exception as err:
                if not isinstance(err, psycopg.Error):
                    log.exception("unexpected error writing a step")
                step.fail(err)
            else:
                step.answer(stored)


_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Writer] = (
    weakref.WeakKeyDictionary())


async def append_async(game_pk: int, from_version: int, events: Sequence[NewEvent],
                       stgn: str | None) -> bool:
    """``append`` from an event loop, on this loop's own connection (reopened when broken),
    grouped with the steps of other games that arrive while a write is in flight.

    True when stored, False when the game had moved or ended. Raises psycopg's errors; the
    caller then takes the locked path, which answers a duplicate ``seq`` and retries a lost
    connection on its own. Nothing of this step was written then, except when the connection
    was lost (or the writer cancelled) after the statement was sent: the step may have been
    stored, and the locked path finds it by its ``seq``. A caller cancelled while its
    step waits is not written; once its statement is sent, the step is stored or not as the
    statement goes.
    """
    loop = asyncio.get_running_loop()
    writer = _writers.get(loop)
    if writer is None:
        writer = _writers[loop] = _Writer()
    future: asyncio.Future[bool] = loop.create_future()
    writer.submit(_Step(game_pk, from_version, events, stgn, future))
    return await future


async def close_async() -> None:
    """Close this loop's connection, after any write in flight (tests; a process's is closed
    with it)."""
    loop = asyncio.get_running_loop()
    writer = _writers.pop(loop, None)
    if writer is not None and writer.task is not None:
        await asyncio.wait([writer.task])
    conn = _async.pop(loop, None)
    if conn is not None:
        await conn.close()
