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
from django.db.models import Count, Max, Q
from django.utils import timezone

from play import conf, gameview
from play.games import clock
from play.live import presence_sql
from play.models import Game, Seat, Watcher


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
    #: The viewer's account (None: a visitor): its notices reach this socket too (issue 39).
    user_id: int | None = None


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
    account = user.pk if user is not None and user.is_authenticated else None
    return Opened(game.pk, side, count, gameview.update_for(game, last_version, side), account)


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
                                           now - timedelta(seconds=conf.stale_after()),
                                           side or "")
    Watcher.objects.bulk_create(
        [Watcher(channel_name=channel_name, game=game, role=role, side=side or "",
                 server=server, seen=now)],
        update_conflicts=True, unique_fields=["channel_name"],
        update_fields=["game", "role", "side", "server", "seen"])
    return side, spectator_count(game.pk)


_IN_CHUNK = 500  # names per IN (...) list: SQLite allows 999 parameters in one statement


def touch(server: str, sockets: list[tuple[str, ...]]) -> dict[str, tuple[int, int]]:
    """The heartbeat of every socket of one process: ``sockets`` is (channel name, game uuid,
    role[, side]) for each. Returns {game uuid: (version, spectator count)} for the games that
    exist.

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
    names = [s[0] for s in sockets]
    refreshed = 0
    for i in range(0, len(names), _IN_CHUNK):
        refreshed += Watcher.objects.filter(channel_name__in=names[i:i + _IN_CHUNK]).update(
            seen=now)
    uuids = sorted({s[1] for s in sockets})
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
        lost = [Watcher(channel_name=s[0], game_id=games[s[1]][0], role=s[2],
                        side=(s[3] if len(s) > 3 else "") or "", server=server, seen=now)
                for s in sockets if s[0] not in have and s[1] in games]
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


# --- absence (R37) ----------------------------------------------------------------------------

def _present(game_pk: int, side: str) -> bool:
    """Whether a socket of seat ``side``'s player on the game is alive (any process)."""
    return Watcher.objects.filter(game_id=game_pk, side=side,
                                  seen__gte=_stale_cutoff()).exists()


def player_arrived(game_pk: int, side: str
                   ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Seat ``side``'s player has a socket again: its absence ends. Returns the ``absence``
    message ending it (None: it was not away) and one of another seat's absence, if another
    player is away (for the arriving socket; the first in seat order).

    One query when nobody is away, which is every arrival at a new game (a game's end replaces
    its players' sockets): the seats marked away are read first, and only then the mark is
    cleared and the game read (issue 36: three queries had made an arrival half as dear again
    as before the seat table, ``benchmarks/bench_seam.py``)."""
    marked = list(Seat.objects.filter(game_id=game_pk, away__isnull=False).order_by("order")
                  .values_list("seat", "away"))
    if not marked:
        return None, None
    back = 0
    if any(seat == side for seat, _ in marked):
        back = Seat.objects.filter(game_id=game_pk, seat=side, away__isnull=False).update(
            away=None)
    row = Game.objects.filter(pk=game_pk).values_list("status", "time_control").first()
    if row is None or _limit(row[1]) is None:
        return None, None
    status, time_control = row
    away = None
    if status == Game.LIVE:
        other = next(((seat, since) for seat, since in marked if seat != side), None)
        if other is not None:
            away = absence_message(other[0], other[1], time_control)
    return (absence_message(side, None, time_control) if back else None), away


def player_left(game_pk: int, side: str) -> dict[str, Any] | None:
    """A socket of seat ``side``'s player closed: when it was the last, its absence starts
    now (kept if it had started already). The ``absence`` message for the game's sockets
    (docs/protocol.md), or None (still connected, or the game is not live).

    The game is read first: when it is not live (its end is what closes most players'
    sockets) that is the only query; the mark itself is still set only while the game is
    live, in the one conditional update (issue 36, ``benchmarks/bench_seam.py``)."""
    time_control = Game.objects.filter(pk=game_pk, status=Game.LIVE).values_list(
        "time_control", flat=True).first()
    if time_control is None or _present(game_pk, side):
        return None
    now = timezone.now()
    marked = Seat.objects.filter(game_id=game_pk, seat=side, away__isnull=True,
                                 game__status=Game.LIVE).update(away=now)
    since = now if marked else Seat.objects.filter(
        game_id=game_pk, seat=side, game__status=Game.LIVE).values_list(
        "away", flat=True).first()
    if since is None or _limit(time_control) is None:
        return None  # nobody is told of an absence that can never be claimed
    return absence_message(side, since, time_control)


def _limit(time_control: str) -> int | None:
    try:
        return clock.parse(time_control).absence_ms
    except clock.TimeControlError:
        return None


def absence_message(side: str, since, time_control: str) -> dict[str, Any]:
    """``{"type": "absence", "side", "since", "limit"}``: ``side``'s player is away since
    ``since`` (ms; None: back), and may be claimed against ``limit`` ms later (None: never,
    R37: untimed and correspondence games have no absence limit)."""
    return {"type": "absence", "side": side,
            "since": None if since is None else int(since.timestamp() * 1000),
            "limit": _limit(time_control)}


def away_since(game: Game, side: str):
    """Since when every connection of seat ``side``'s player has been gone, or None
    (connected). A process killed with the player's sockets leaves stale rows and no ``away``
    mark: the absence then counts from their last heartbeat; a player who never connected,
    from the game's start."""
    return away_sides([game])[game.pk].get(side)


def away_sides(games: list[Game]) -> dict[int, dict[str, Any]]:
    """``away_since`` of every played seat of every game in ``games`` (by the game's pk), in
    at most three queries whatever their number: the arbiter's console shows each game's
    absences (R37) and refreshes them every few seconds."""
    pks = [g.pk for g in games]
    seats: dict[int, list[tuple[str, Any]]] = {pk: [] for pk in pks}
    for game_id, seat, away in Seat.objects.filter(game_id__in=pks).exclude(
            kind=Seat.NEUTRAL).order_by("game_id", "order").values_list("game_id", "seat",
                                                                       "away"):
        seats[game_id].append((seat, away))
    present = set(Watcher.objects.filter(game_id__in=pks, seen__gte=_stale_cutoff())
                  .exclude(side="").values_list("game_id", "side"))
    out: dict[int, dict[str, Any]] = {}
    unmarked: list[tuple[Game, str]] = []
    for g in games:
        out[g.pk] = {}
        for side, away in seats[g.pk]:
            mark = None if (g.pk, side) in present else away
            out[g.pk][side] = mark
            if mark is None and (g.pk, side) not in present:
                unmarked.append((g, side))
    if unmarked:
        last = {(row["game_id"], row["side"]): row["last"] for row in
                Watcher.objects.filter(game_id__in={g.pk for g, _ in unmarked})
                .exclude(side="").values("game_id", "side").annotate(last=Max("seen"))}
        for g, side in unmarked:
            out[g.pk][side] = last.get((g.pk, side)) or g.created
    return out
