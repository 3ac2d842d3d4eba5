"""What a client is shown of a game: its state, its metadata and the events it missed.

Read side only: the command path (``play.commands``) writes, this reads the log and the cached
states (``play.store.engines``) and answers ``update`` messages (docs/protocol.md) for sockets
that open, resync or fall behind, and for the game page's first paint.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from functools import cache
from typing import Any

from play import games, ports
from play.computer.account import mark_computer
from play.games.protocol import ARBITERS, EVERYONE, viewer_state
from play.games.registry import variant_of
from play.models import Game
from play.store import engines

_PLAYERS_CACHE_SIZE = 1024
_players: OrderedDict[int, dict[str, dict[str, Any]]] = OrderedDict()
_players_lock = threading.Lock()


def players_block(game: Game) -> dict[str, dict[str, Any]]:
    """Both players as clients show them (``ports.directory().players``), the computer
    marked (``"computer": {"level": N}``, ``play.computer.account.mark_computer``).

    Cached per live game: nothing in it changes while the game is live but the players'
    current ratings, which only the end of some game can move; a finished game reads afresh.
    """
    if game.is_live:
        with _players_lock:
            hit = _players.get(game.pk)
        if hit is not None:
            return {side: dict(p) for side, p in hit.items()}
    players = ports.directory().players(game)
    mark_computer(game, players)
    if game.is_live:
        with _players_lock:
            _players[game.pk] = players
            while len(_players) > _PLAYERS_CACHE_SIZE:
                _players.popitem(last=False)
        return {side: dict(p) for side, p in players.items()}
    return players


def cached_players(game_pk: int) -> dict[str, dict[str, Any]] | None:
    """The cached players block of a live game, or None (no database: the fast road)."""
    with _players_lock:
        hit = _players.get(game_pk)
    return None if hit is None else {side: dict(p) for side, p in hit.items()}


def forget() -> None:
    with _players_lock:
        _players.clear()


def game_meta(game: Game, players: dict[str, dict[str, Any]] | None = None,
              version: int | None = None, archive_pending: bool = False) -> dict[str, Any]:
    """What a client shows besides the board: players, result, records, rating changes (at
    ``version``, by default the row's). A finished game's records and rating changes come
    from its archiving, after the game's end (``archived`` false until then: the client hears
    a ``game`` message when they are written); ``archive_pending``: the game has just ended
    and they cannot be there yet (not asked: the fast road reads no database)."""
    if players is None:
        players = players_block(game)
    status, key = game.status, game.variant_key
    meta: dict[str, Any] = {
        "id": str(game.uuid),
        "game": game.game,
        "variant": game.variant,
        "variant_key": key,
        "seats": seat_specs(key),
        # what the players may offer each other besides adjournment ("null", "draw"): the
        # page shows only the offers the variant allows (Variant.offers), and a takeback in
        # a casual game (issue 39: not rated, not an event's)
        "offers": list(_offers(key, not game.rated and not game.in_event)),
        "rated": game.rated,
        "time_control": game.time_control,
        "status": status,
        "version": game.version if version is None else version,
        "players": players,
        "result": None,
        "records": [],
        "rating_changes": {},
        "archived": False,
    }
    if status != Game.LIVE:
        meta["result"] = {"winner": game.winner or None, "reason": game.reason,
                          "cause": game.cause, "detail": game.detail, "ranks": game.ranks}
        if archive_pending:
            return meta
        archive = ports.directory().archive(game)
        meta["records"] = archive["records"]
        meta["rating_changes"] = archive["rating_changes"]
        # an aborted game has no result to record (R37): nothing is awaited from the archive
        meta["archived"] = bool(archive.get("archived", archive["records"])) or \
            game.reason == "aborted"
    return meta


def seat_specs(variant_key: str) -> list[dict[str, str]]:
    """The seats of a game of ``variant_key`` as its variant names them, in playing order
    (``players`` says who holds each): ``{"seat", "label", "kind"}`` (kind ``person`` or
    ``neutral``)."""
    return [dict(spec) for spec in _seat_specs(variant_key)]


# Both below are in every step's update (``game_meta``): a variant's seats and offers never
# change while the server runs, so they are worked out once per variant (issue 36's load
# benchmark counts the server's CPU per step).
@cache
def _seat_specs(variant_key: str) -> tuple[dict[str, str], ...]:
    return tuple({"seat": s.id, "label": s.label, "kind": s.kind}
                 for s in variant_of(variant_key).seats)


@cache
def _offers(variant_key: str, casual: bool) -> tuple[str, ...]:
    return (*variant_of(variant_key).offers, *(("takeback",) if casual else ()))


def server_time() -> int:
    """The server's time (ms since the epoch) a frame is sent at: with a clock's ``since``
    and ``remaining`` a client draws a countdown without trusting its own clock (R36)."""
    return int(time.time() * 1000)


def snapshot_for(game: Game) -> dict[str, Any]:
    """The state of ``game`` at the version read, from the cached state when there is one
    (read while it is out of the cache: no command folds into it meanwhile)."""
    state = engines.take(game)
    try:
        return games.snapshot(state)
    finally:
        engines.put(game, state)


def visible(message: dict[str, Any], side: str | None, arbiter: bool = False) -> dict[str, Any]:
    """An event message as a viewer playing ``side`` (None: a spectator) may see it: itself,
    or, when it is not theirs to see (a sealed turn, R38; an arbiters' note), a placeholder
    that keeps the numbering."""
    v = message.get("visibility", EVERYONE)
    if v == EVERYONE or arbiter or (side is not None and v == side):
        return message
    if v == ARBITERS or v != EVERYONE:  # the arbiters' or one seat's
        return {"version": message["version"], "kind": "hidden", "side": None, "data": {},
                "text": "", "actor": message.get("actor"), "visibility": v}
    return message


def events_since(game: Game, version: int, side: str | None = None) -> list[dict[str, Any]]:
    """The events after ``version`` up to the game's version as read: a command committed
    since is not part of this answer (it arrives in its own update), so no socket is told an
    update stops at a version while holding a later event (which would then be delivered
    twice)."""
    rows = (game.events.filter(version__gt=version, version__lte=game.version)
            .order_by("version")
            .values_list("version", "kind", "side", "data", "text", "actor", "visibility"))
    out = []
    for v, kind, ev_side, data, text, actor, visibility in rows:
        msg = {"version": v, "kind": kind, "side": ev_side or None, "data": data, "text": text,
               "actor": actor}
        if visibility != EVERYONE:
            msg["visibility"] = visibility
        out.append(visible(msg, side))
    return out


def update_for(game: Game, last_version: int | None, side: str | None = None
               ) -> dict[str, Any]:
    """The ``update`` for a (re)connecting client: the events after ``last_version`` (none
    without it: a fresh client draws from ``state``) and the full current state."""
    if last_version is None or last_version < 0 or last_version > game.version:
        from_version = game.version
        events: list[dict[str, Any]] = []
    else:
        from_version = last_version
        events = events_since(game, last_version, side)
    return {"type": "update", "from_version": from_version, "version": game.version,
            "events": events, "state": viewer_state(snapshot_for(game), side),
            "game": game_meta(game),
            "server_time": server_time()}


def sync(game_uuid: Any, last_version: int | None = None, side: str | None = None
         ) -> dict[str, Any] | None:
    """``update_for`` the game with this uuid, or None when there is none."""
    game = Game.objects.filter(uuid=game_uuid).first()
    if game is None:
        return None
    return update_for(game, last_version, side)


def live_games(limit: int = 50):
    return (Game.objects.filter(status=Game.LIVE).select_related("player_i", "player_o")
            .order_by("-created")[:limit])
