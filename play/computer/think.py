"""The computer's thinking as the worker's pool runs it: pure, picklable in and out.

A child process of the pool gets the game's variant and its position, and returns the steps of
the computer's turn, so nothing but plain data crosses the process boundary and the child never
imports Django. The position is either the game's stored events (kind and data, as in the log:
tests, and what a caller without a state has) or a ``snapshot`` of the rules engine the worker
already holds: the worker then reads no log for the pool. Reading and decoding a game's whole
log every turn was a fifth of the worker's time during a wave of computer games (issue 25,
BENCHMARKS.md); a pickled engine is a few kilobytes and a tenth of a millisecond each way.
"""

from __future__ import annotations

import pickle
import time
from dataclasses import replace
from typing import Any

from play.games.talu import TaluGame
from play.games.talu.protocol import apply_event
from play.games.talu.search import choose_turn, clock_seconds, get_level
from play.games.talu.search.levels import CLOCK_RESERVE, wall_seconds


def replay(variant: str, events: list[tuple[str, dict[str, Any]]]) -> TaluGame:
    """The rules engine after the game's stored events (R40: the log is the truth)."""
    game = TaluGame(variant)
    for kind, data in events:
        apply_event(game, kind, data)
    return game


Position = bytes | list[tuple[str, dict[str, Any]]]  # a ``snapshot``, or the stored events


def snapshot(engine: TaluGame) -> bytes:
    """The rules engine as bytes for the pool: a copy the search may use as its own (a thread
    pool would otherwise share the worker's object). Only the worker's own bytes are loaded."""
    return pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)


def position_of(variant: str, position: Position) -> TaluGame:
    """The engine of a ``Position``: the snapshot loaded, or the events replayed."""
    if isinstance(position, bytes):
        return pickle.loads(position)  # the worker's own snapshot, never a user's input
    return replay(variant, position)


def think(variant: str, position: Position, level: int,
          seconds: float | None = None, seed: int | None = None, deadline: int | None = None,
          increment: float = 0.0, reserve: float = CLOCK_RESERVE,
          nodes: int | None = None) -> dict[str, Any]:
    """The computer's turn for the side to move in ``position``: the step dicts to send in
    order, whether to resign instead, and what the search spent.

    ``seconds`` (or the level's) are CPU seconds of the search: a level thinks as much on a
    busy machine as on a quiet one, where the pool's processes get only the CPU nobody else
    wants. Real time is capped too (``wall_seconds``). On a clock (R36) ``deadline`` is when
    the computer's time runs out (ms since the epoch, the game row's): the thinking time is
    the clock's share (``clock_seconds``, with ``seconds`` or the level's as the ceiling) of
    what is left *now*, when the pool starts the search, so a wait in the pool's queue is paid
    from the share, not from the clock, and the real time is capped by what is left.
    ``nodes``: a smaller node budget (the worker's quick turn when the pool is late)."""
    game = position_of(variant, position)
    if game.outcome is not None:
        return {"steps": [], "resign": False, "nodes": 0, "side": None, "score": 0}
    side = game.side_to_move.value
    lv = get_level(level)
    left = None
    if deadline is not None:
        ceiling = lv if seconds is None else replace(lv, seconds=seconds)
        left = (deadline - time.time() * 1000) / 1000
        seconds = clock_seconds(ceiling, left, increment, reserve)
    thinking = lv.seconds if seconds is None else seconds
    wall = wall_seconds(thinking, left, reserve) if thinking or left is not None else None
    choice = choose_turn(game, level, seed=seed, nodes=nodes, seconds=thinking, wall=wall)
    return {"steps": [s.to_dict() for s in choice.steps], "resign": choice.resign,
            "nodes": choice.nodes, "side": side, "score": choice.score,
            "seconds": choice.seconds, "cpu": choice.cpu, "wall": wall}
