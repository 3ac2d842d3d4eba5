"""A socket's presence row and its game's spectator count in one statement each, on PostgreSQL.

Opening a socket wrote its ``Watcher`` row and then counted the game's spectators, and closing
one deleted the row and counted again: two statements, each through Django's query compiler, in
a socket's every opening and closing. A game's end replaces all its sockets (its players go on
to their next game, its spectators with them), so under load these were a good part of what a
game's end cost the machine (BENCHMARKS.md, issue 7). Here each is one data-modifying ``WITH``
(PostgreSQL only; ``play.live.presence`` keeps the two ORM statements elsewhere, e.g. SQLite).

The count is the one ``presence.spectator_count`` gives: spectator rows of the game seen since
``cutoff``. In one statement the outer query sees the table as it was before the ``WITH``'s
change, so the socket's own row is left out of that part and counted from what the change
returned.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import connection

from play.models import Watcher


@cache
def _register_sql() -> str:
    table = Watcher._meta.db_table
    return (
        f"WITH mine AS ("
        f"INSERT INTO {table} (channel_name, game_id, role, side, server, seen, created) "
        f"VALUES (%(name)s, %(game)s, %(role)s, %(side)s, %(server)s, %(now)s, %(now)s) "
        f"ON CONFLICT (channel_name) DO UPDATE SET game_id = EXCLUDED.game_id, "
        f"role = EXCLUDED.role, side = EXCLUDED.side, server = EXCLUDED.server, "
        f"seen = EXCLUDED.seen "
        f"RETURNING role) "
        f"SELECT (SELECT count(*) FROM {table} WHERE game_id = %(game)s "
        f"AND role = 'spectator' AND seen >= %(cutoff)s AND channel_name <> %(name)s) "
        f"+ (SELECT count(*) FROM mine WHERE role = 'spectator')"
    )


@cache
def _unregister_sql() -> str:
    table = Watcher._meta.db_table
    return (
        f"WITH gone AS (DELETE FROM {table} WHERE channel_name = %(name)s RETURNING 1) "
        f"SELECT count(*) FROM {table} WHERE game_id = %(game)s AND role = 'spectator' "
        f"AND seen >= %(cutoff)s AND channel_name <> %(name)s"
    )


def register(channel_name: str, game_pk: int, role: str, server: str, now: datetime,
             cutoff: datetime, side: str = "") -> int:
    """Write the socket's row (a new one, or its own again) and return the game's spectator
    count with it."""
    with connection.cursor() as cur:
        cur.execute(_register_sql(), {"name": channel_name, "game": game_pk, "role": role,
                                      "side": side, "server": server, "now": now, "cutoff": cutoff})
        return int(cur.fetchone()[0])


def unregister(channel_name: str, game_pk: int, cutoff: datetime | None) -> int | None:
    """Delete the socket's row; with ``cutoff`` (a spectator's socket) return the game's
    spectator count without it, else nothing (a player leaving changes no count)."""
    with connection.cursor() as cur:
        if cutoff is None:
            cur.execute(f"DELETE FROM {Watcher._meta.db_table} WHERE channel_name = %s",
                        [channel_name])
            return None
        cur.execute(_unregister_sql(), {"name": channel_name, "game": game_pk,
                                        "cutoff": cutoff})
        return int(cur.fetchone()[0])
