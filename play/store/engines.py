"""The states of the games this process holds, so a command is decided without replaying a log.

A game's state is the fold of its log (``play.games``); rebuilding it for every command was most
of a step's cost before issue 7. So each process keeps the states of the games it served last
(LRU, ``CACHE_SIZE``) with the version they are at, and the unchanging columns of those live
games (``Game`` rows without their changing fields), by uuid, for the command path's fast road,
which touches no database.

A state is *taken out* of the cache while in use (``take``, ``take_at``) and put back when its
user is done (``put``): no two threads ever fold events into one state, and a reader never sees
a state between two events. A state whose events were not stored (the append found the game
moved) is simply not put back (``drop``): the next user replays from the log.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from play import games
from play.games.clock import ms
from play.games.protocol import Event, GameOptions, State
from play.models import Game

log = logging.getLogger(__name__)

CACHE_SIZE = 256

_states: OrderedDict[int, State] = OrderedDict()
_rows: OrderedDict[str, Game] = OrderedDict()
_lock = threading.Lock()


def options_of(game: Game) -> GameOptions:
    """The options a game's state is built with: its arbiter policy, the game's own options,
    its time control, the moment its first clock started (the row's creation, R36),
    whether it is an event's (R41) and whether it is casual (takebacks, issue 39)."""
    started = ms(game.created) if game.created is not None else None
    return GameOptions(auto_warn=game.auto_warn, extra=dict(game.options or {}),
                       time_control=game.time_control, started=started,
                       in_event=game.in_event, takebacks=not game.rated and not game.in_event)


def _events(game: Game, after: int, upto: int) -> list[Event]:
    """The stored events of ``game`` with ``after < version <= upto``, in order. Plain rows,
    not model instances: an instance from ``game.events`` reads its ``game_id`` back with one
    query per event (Django's known-related-object check), which made replaying a long game
    hundreds of queries (BENCHMARKS.md)."""
    rows = (game.events.filter(version__gt=after, version__lte=upto).order_by("version")
            .values_list("kind", "side", "data", "text", "actor", "visibility"))
    return [Event(*row) for row in rows]


def replay(game: Game, upto: int | None = None) -> State:
    """The state of ``game`` rebuilt from its log (up to version ``upto``, by default all)."""
    state = games.new_state(game.variant_key, options_of(game))
    if upto == 0:  # a game nobody has moved in: no log to read (a game's end opens four
        return state  # sockets on a new game, issue 7)
    upto = game.version if upto is None else upto
    for event in _events(game, 0, upto):
        games.evolve(state, event)
    return state


def take(game: Game) -> State:
    """The state of ``game`` at ``game.version`` (the row as read), taken out of the cache: the
    cached one brought forward with only the events it lacks (with two processes a game's
    players often sit on different ones), else the log replayed up to that version (a step
    committed since must not slip into a state used as this version)."""
    with _lock:
        state = _states.pop(game.pk, None)
    if state is not None and state.version <= game.version:
        if state.version < game.version:
            try:
                for event in _events(game, state.version, game.version):
                    games.evolve(state, event)
            except ValueError:  # pragma: no cover - the log only holds applied events
                log.exception("the log of game %s does not fold onto its cached state", game.pk)
                return replay(game, upto=game.version)
        return state
    return replay(game, upto=game.version)


def take_at(game_uuid: Any, version: int) -> tuple[Game, State] | None:
    """The cached row and state of a live game this process holds at exactly ``version``,
    taken out of the cache; None when it holds none at that version. No database."""
    with _lock:
        row = _rows.get(str(game_uuid))
        state = _states.get(row.pk) if row is not None else None
        if state is None or state.version != version:
            return None
        del _states[row.pk]
    return row, state


def row_of(game_uuid: Any) -> Game | None:
    """The cached columns of a live game this process holds, or None."""
    with _lock:
        return _rows.get(str(game_uuid))


def put(game: Game, state: State) -> None:
    """Keep ``state`` as the game's; its row's unchanging columns too while it is live."""
    with _lock:
        _states[game.pk] = state
        _states.move_to_end(game.pk)
        while len(_states) > CACHE_SIZE:
            _states.popitem(last=False)
        key = str(game.uuid)
        if state.result is None and key not in _rows:
            _rows[key] = Game(pk=game.pk, uuid=game.uuid, game=game.game,
                              variant=game.variant, options=game.options,
                              rated=game.rated, auto_warn=game.auto_warn,
                              time_control=game.time_control, created=game.created,
                              in_event=game.in_event,
                              player_i_id=game.player_i_id, player_o_id=game.player_o_id,
                              rating_i=game.rating_i, rating_o=game.rating_o,
                              status=Game.LIVE)
            while len(_rows) > CACHE_SIZE:
                _rows.popitem(last=False)


def drop(game_pk: int) -> None:
    """Forget the state of game ``game_pk`` (it may hold events the log does not)."""
    with _lock:
        _states.pop(game_pk, None)


def held_version(game_uuid: Any) -> int | None:
    """The version of this process's state of the game, or None when it holds none."""
    with _lock:
        row = _rows.get(str(game_uuid))
        state = _states.get(row.pk) if row is not None else None
    return None if state is None else state.version


def advance(game_uuid: Any, from_version: int, messages: list[dict[str, Any]]) -> None:
    """Fold the events of a broadcast (stored events, as clients get them) into this process's
    state of the game when it is at ``from_version``: the next command on this process is then
    decided on it instead of catching up from the log, which otherwise happened once per turn
    for a player whose opponent sits on another process."""
    taken = take_at(game_uuid, from_version)
    if taken is None or not messages:
        if taken is not None:
            put(*taken)
        return
    row, state = taken
    try:
        for m in messages:
            games.evolve(state, Event(m["kind"], m.get("side") or "", m["data"], m["text"],
                                      m.get("actor") or "player", m.get("visibility") or "all"))
    except (ValueError, KeyError, TypeError):  # pragma: no cover - broadcasts are of the log
        log.exception("a broadcast of game %s does not fold onto its held state", game_uuid)
        return  # dropped: the next command replays from the log
    if state.result is None:  # a finished game is not played on
        put(row, state)


def forget() -> None:
    """Drop every cached state and row (tests, and a process that wants to prove replay
    works)."""
    with _lock:
        _states.clear()
        _rows.clear()
