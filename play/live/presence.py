"""Presence: which sockets are open on which game, shared by every server process.

One ``Watcher`` row per open socket. A row is alive while its socket's heartbeat (``touch``)
keeps ``seen`` fresh; rows of a killed process stop beating, are ignored by counts after
``conf.stale_after()`` seconds and deleted by the next heartbeat of a process with a socket on
their game. Opening a socket is one database trip: its row and its first update together
(``open_socket``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from play import conf, gameview
from play.live import presence_sql
from play.models import Game, Watcher


@cache
def _on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _stale_cutoff():
    return timezone.now() - timedelta(seconds=conf.stale_after())


@dataclass
class Opened:
    """What a socket that just opened needs: its game, side and spectator count, and the
    first update (``sync``) to send it."""

    game_pk: int
    side: str | None
    spectators: int
    update: dict[str, Any]


def open_socket(game_uuid, channel_name: str, user, server: str = "",
                last_version: int | None = None) -> Opened | None:
    """A new socket registered (its presence row) and its first ``sync``, one database trip
    and the game read once (a game's end replaces four sockets; opening one was about ten
    milliseconds of a server's CPU, BENCHMARKS.md, issue 7). None: there is no such game.

    The caller joins the socket's group first, so that a step stored after this read still
    reaches it (it waits in the socket's queue until this update is sent)."""
    try:  # not ``first()``: its ORDER BY was a third of compiling the query; and no join of
        game = Game.objects.get(uuid=game_uuid)  # the accounts: only their ids are read
    except Game.DoesNotExist:
        return None
    side, count = _register(game, channel_name, user, server)
    return Opened(game.pk, side, count, gameview.update_for(game, last_version, side))


def _register(game: Game, channel_name: str, user, server: str) -> tuple[str | None, int]:
    """The socket's presence row (one upsert) and the count: on PostgreSQL one statement
    (``play.live.presence_sql``). Stale rows are swept by the heartbeats (``touch``), not here:
    counts ignore them anyway, and a statement less per socket opened is a few less per
    game's end (BENCHMARKS.md, issue 7)."""
    side = game.side_of(user)
    role = "player" if side else "spectator"
    now = timezone.now()
    if _on_postgresql():
        return side, presence_sql.register(channel_name, game.pk, role, server, now,
                                           now - timedelta(seconds=conf.stale_after()))
    Watcher.objects.bulk_create(
        [Watcher(channel_name=channel_name, game=game, role=role, server=server, seen=now)],
        update_conflicts=True, unique_fields=["channel_name"],
        update_fields=["game", "role", "server", "seen"])
    return side, spectator_count(game.pk)


_IN_CHUNK = 500  # names per IN (...) list: SQLite allows 999 parameters in one statement


def touch(server: str, sockets: list[tuple[str, str, str]]) -> dict[str, tuple[int, int]]:
    """The heartbeat of every socket of one process: ``sockets`` is (channel name, game uuid,
    role) for each. Returns {game uuid: (version, spectator count)} for the games that exist.

    A few queries for the whole process, not two per socket (they were a tenth of a loaded
    process's time, BENCHMARKS.md): refresh the rows, sweep these games' stale rows (a killed
    process's sockets: counts ignore them already), re-create this process's rows that are gone
    (deleted as stale while the process was stalled: a live socket is always counted again at
    its next heartbeat), then read every game's version and count together.
    """
    if not sockets:
        return {}
    now = timezone.now()
    cutoff = _stale_cutoff()
    names = [name for name, _, _ in sockets]
    refreshed = 0
    for i in range(0, len(names), _IN_CHUNK):
        refreshed += Watcher.objects.filter(channel_name__in=names[i:i + _IN_CHUNK]).update(
            seen=now)
    uuids = sorted({game for _, game, _ in sockets})
    live = Q(watchers__role="spectator", watchers__seen__gte=cutoff)
    games: dict[str, tuple[int, int, int]] = {}
    for i in range(0, len(uuids), _IN_CHUNK):
        rows = (Game.objects.filter(uuid__in=uuids[i:i + _IN_CHUNK])
                .annotate(spectators=Count("watchers", filter=live))
                .values_list("uuid", "pk", "version", "spectators"))
        games.update({str(u): (pk, v, n) for u, pk, v, n in rows})
    pks = sorted(pk for pk, _, _ in games.values())
    for i in range(0, len(pks), _IN_CHUNK):
        Watcher.objects.filter(game_id__in=pks[i:i + _IN_CHUNK], seen__lt=cutoff).delete()
    if refreshed < len(names):
        have: set[str] = set()
        for i in range(0, len(names), _IN_CHUNK):
            have.update(Watcher.objects.filter(channel_name__in=names[i:i + _IN_CHUNK])
                        .values_list("channel_name", flat=True))
        lost = [Watcher(channel_name=name, game_id=games[game][0], role=role, server=server,
                        seen=now)
                for name, game, role in sockets if name not in have and game in games]
        Watcher.objects.bulk_create(lost, ignore_conflicts=True)
        for game in {w.game_id for w in lost}:
            uuid = next(u for u, (pk, _, _) in games.items() if pk == game)
            pk, version, _ = games[uuid]
            games[uuid] = (pk, version, spectator_count(pk))
    return {u: (version, count) for u, (_, version, count) in games.items()}


def leave(channel_name: str, game_pk: int, spectator: bool) -> int | None:
    """Unregister a closed socket of game ``game_pk``: the game's new spectator count when a
    spectator left, None when a player did (the count is unchanged, nobody need be told).
    One statement on PostgreSQL (``play.live.presence_sql``)."""
    if _on_postgresql():
        return presence_sql.unregister(channel_name, game_pk,
                                       _stale_cutoff() if spectator else None)
    Watcher.objects.filter(channel_name=channel_name).delete()
    return spectator_count(game_pk) if spectator else None


def spectator_count(game_pk: int) -> int:
    """Spectators with a live socket on game ``game_pk``, on any process."""
    return Watcher.objects.filter(game_id=game_pk, role="spectator",
                                  seen__gte=_stale_cutoff()).count()
