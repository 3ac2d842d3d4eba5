"""Appending a validated step to a game's log on PostgreSQL in one statement.

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
latency under load (BENCHMARKS.md). The statement is the same; the connection is in autocommit
mode, so the statement is its own transaction, committed before the consumer says anything.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Sequence
from functools import cache

import psycopg
from django.db import connection, connections, transaction

from play.models import Game, GameEvent, NewEvent

log = logging.getLogger(__name__)


@cache
def available() -> bool:
    """Whether the database runs data-modifying ``WITH`` (asked once: on every step it was a
    lookup through Django's per-thread connections)."""
    return connection.vendor == "postgresql"


def _sql(n_events: int, with_stgn: bool) -> str:
    game, event = Game._meta.db_table, GameEvent._meta.db_table
    stgn = ", stgn = %s" if with_stgn else ""
    values = ", ".join(["(%s::integer, %s::varchar, %s::varchar, %s::jsonb, %s::varchar, "
                        "%s::varchar)"] * n_events)
    return (
        f"WITH moved AS (UPDATE {game} SET version = %s{stgn} "
        f"WHERE id = %s AND version = %s AND status = %s RETURNING id) "
        f"INSERT INTO {event} (game_id, version, kind, side, data, text, seq, created) "
        f"SELECT moved.id, e.version, e.kind, e.side, e.data, e.text, e.seq, now() "
        f"FROM moved CROSS JOIN (VALUES {values}) AS e(version, kind, side, data, text, seq) "
        f"RETURNING 1"
    )


def _params(game_pk: int, from_version: int, events: Sequence[NewEvent],
            stgn: str | None) -> list:
    params: list = [events[-1].version]
    if stgn is not None:
        params.append(stgn)
    params += [game_pk, from_version, Game.LIVE]
    for ev in events:
        params += [ev.version, ev.kind, ev.side, json.dumps(ev.data), ev.text, ev.seq]
    return params


def append(game_pk: int, from_version: int, events: Sequence[NewEvent],
           stgn: str | None) -> bool:
    """Store ``events`` (numbered from ``from_version + 1``) if the live game ``game_pk`` is
    still at ``from_version``; True when stored, False when the game had moved or ended.

    Raises the database's errors unchanged (a duplicate ``seq`` is an ``IntegrityError``),
    having written nothing.
    """
    params = _params(game_pk, from_version, events, stgn)
    sql = _sql(len(events), stgn is not None)
    if connection.in_atomic_block:
        # Inside someone's transaction (tests, a caller's atomic block): a savepoint, so a
        # refused statement leaves that transaction usable.
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql, params)
            return len(cur.fetchall()) == len(events)
    with connection.cursor() as cur:  # autocommit: the statement is its own transaction
        cur.execute(sql, params)
        return len(cur.fetchall()) == len(events)


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


async def append_async(game_pk: int, from_version: int, events: Sequence[NewEvent],
                       stgn: str | None) -> bool:
    """``append`` from an event loop, on this loop's own connection (reopened when broken).

    Raises psycopg's errors, having written nothing; the caller then takes the locked path,
    which answers a duplicate ``seq`` and retries a lost connection on its own.
    """
    conn = await _async_connection()
    sql = _sql(len(events), stgn is not None)
    async with conn.cursor() as cur:  # psycopg runs one statement at a time per connection
        await cur.execute(sql, _params(game_pk, from_version, events, stgn))
        return len(await cur.fetchall()) == len(events)


async def close_async() -> None:
    """Close this loop's connection (tests; a process's is closed with it)."""
    conn = _async.pop(asyncio.get_running_loop(), None)
    if conn is not None:
        await conn.close()
