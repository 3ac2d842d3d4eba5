"""Group commit of the one append (``play.store.log``) from an event loop: ``append_async``.

The websocket consumer stores from its event loop (``append_async``) on a psycopg
``AsyncConnection`` of its own, one per process and loop, in autocommit mode (the statement is
its own transaction, committed before anyone is told). Group commit: the batches of one loop go
through one writer (``_Writer``); a batch that finds no write in flight is sent at once (no
timer, no added latency when idle); batches that arrive while one is in flight are written
together, as ONE statement, as soon as the connection is free (up to ``BATCH_MAX``), so they
form only under load. The statement is the same text whatever the number of batches, so
PostgreSQL prepares and plans it once per connection. If a statement of several batches raises
(a resent ``seq``, a lost connection), nothing of it was written and each batch is written again
alone, so only the batch that really fails raises to its caller.

SQLite: ``append_async`` runs ``append`` on a thread.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

import psycopg
from asgiref.sync import sync_to_async
from django.db import connections

from play.store.log import Batch, append, on_postgresql, statement

log = logging.getLogger(__name__)

# Batches per statement at most: enough to take a burst in one commit, small enough that no
# statement holds many games' rows locked for long.
BATCH_MAX = 64


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
class _Waiting:
    """A batch waiting for the writer, and its caller's answer."""

    batch: Batch
    future: asyncio.Future[bool] = field(repr=False)

    def answer(self, stored: dict[int, int]) -> None:
        if not self.future.done():  # done: its caller was cancelled; nobody to tell
            self.future.set_result(stored.get(self.batch.game_pk) == len(self.batch.events))

    def fail(self, err: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(err)


async def _execute(conn: psycopg.AsyncConnection, waiting: Sequence[_Waiting]
                   ) -> dict[int, int]:
    """Run the statement for ``waiting``: how many events it stored per game pk."""
    async with conn.cursor() as cur:
        await cur.execute(*statement(w.batch for w in waiting))
        return dict(await cur.fetchall())


class _Writer:
    """One event loop's queue of batches and the task that writes them, one statement at a
    time.

    The task exists only while there is something to write: a batch that finds none starts it
    (its statement is that batch alone, plus whatever arrived before the task first ran), and
    it ends when the queue is empty.
    """

    def __init__(self) -> None:
        self.queue: list[_Waiting] = []
        self.task: asyncio.Task[None] | None = None

    def submit(self, item: _Waiting) -> None:
        self.queue.append(item)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(),
                                                               name="event log writer")

    def _take(self) -> list[_Waiting]:
        """The next statement's batches: up to ``BATCH_MAX`` in arrival order, never two of one
        game (the later waits for the next statement, which then sees the first one stored). A
        batch whose caller was cancelled while it waited is dropped, not written."""
        batch: list[_Waiting] = []
        later: list[_Waiting] = []
        games: set[int] = set()
        for item in self.queue:
            if item.future.done():
                continue
            if len(batch) < BATCH_MAX and item.batch.game_pk not in games:
                games.add(item.batch.game_pk)
                batch.append(item)
            else:
                later.append(item)
        self.queue = later
        # In game order, two processes' batches over the same games tend to lock their rows
        # in the same order (the order the plan visits them). A deadlock PostgreSQL breaks
        # anyway is an error of one batch, whose steps are then written alone.
        batch.sort(key=lambda s: s.batch.game_pk)
        return batch

    async def _run(self) -> None:
        batch: list[_Waiting] = []
        try:
            while self.queue:
                batch = self._take()
                if batch:
                    await self._write(batch)
        except BaseException as err:
            # Cancelled (the loop is closing) or a bug of this module: no caller is left
            # waiting. Their batches may or may not be stored; an error sends each caller to
            # the command path's slow road, which tells a stored command (its seq) from one
            # that is not.
            if not isinstance(err, asyncio.CancelledError):
                log.exception("the event log writer failed")
            failure = psycopg.OperationalError(f"the event log writer stopped ({err!r})")
            for item in [*batch, *self.queue]:
                item.fail(failure)
            self.queue = []
            if not isinstance(err, Exception):
                raise  # cancellation ends the task as cancelled; an error is logged above
        finally:
            self.task = None

    async def _write(self, batch: list[_Waiting]) -> None:
        """Write ``batch`` as one statement; if it raises, each of its batches alone."""
        try:
            stored = await _execute(await _async_connection(), batch)
        except Exception as err:
            if not isinstance(err, psycopg.Error):
                log.exception("unexpected error writing %d batches", len(batch))
            if len(batch) == 1:
                batch[0].fail(err)
                return
            log.info("a statement of %d batches failed (%s); writing each alone", len(batch), err)
            await self._write_alone(batch)
            return
        for item in batch:
            item.answer(stored)

    async def _write_alone(self, batch: list[_Waiting]) -> None:
        for n, item in enumerate(batch):
            try:
                conn = await _async_connection()  # reopened if the batch broke it
            except Exception as err:  # no database: the rest fail alike, without n retries
                for rest in batch[n:]:
                    rest.fail(err)
                return
            try:
                stored = await _execute(conn, [item])
            except Exception as err:
                if not isinstance(err, psycopg.Error):
                    log.exception("unexpected error writing a item")
                item.fail(err)
            else:
                item.answer(stored)


_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Writer] = (
    weakref.WeakKeyDictionary())


async def append_async(batch: Batch) -> bool:
    """``append`` from an event loop. On PostgreSQL on this loop's own connection (reopened
    when broken), grouped with the batches of other games that arrive while a write is in
    flight; elsewhere ``append`` on a thread.

    True when stored, False when the game had moved or ended. Raises the database's errors;
    nothing of the batch was written then, except when the connection was lost (or the writer
    cancelled) after the statement was sent: the batch may have been stored, and the command
    path finds it by its ``seq``. A caller cancelled while its batch waits is not written; once
    its statement is sent, the batch is stored or not as the statement goes.
    """
    if not on_postgresql():
        return await sync_to_async(append, thread_sensitive=False)(batch)
    loop = asyncio.get_running_loop()
    writer = _writers.get(loop)
    if writer is None:
        writer = _writers[loop] = _Writer()
    future: asyncio.Future[bool] = loop.create_future()
    writer.submit(_Waiting(batch, future))
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
