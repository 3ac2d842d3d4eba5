"""The computer's thinking as the worker's pool runs it: pure, picklable in and out.

A child process of the pool gets the game's variant and its position, and returns the steps of
the computer's turn, so nothing but plain data crosses the process boundary and the child never
imports Django. The position is either the game's stored events (kind and data, as in the log:
tests, and what a caller without a state has) or a ``snapshot`` of the rules engine the worker
already holds: the worker then reads no log for the pool. Reading and decoding a game's whole
log every turn was a fifth of the worker's time during a wave of computer games (issue 25,
BENCHMARKS.md); a pickled engine is a few kilobytes and a tenth of a millisecond each way.

The search is the game's own (its ``ComputerPlayer``, ``play.games.protocol.parts``), found in
the catalogue by the variant (``play.games.registry.computer_for``): this module names no game.
"""

from __future__ import annotations

import pickle
from typing import Any

from play.games.protocol.parts import ComputerPlayer
from play.games.registry import computer_for, variant_of


def player_for(variant: str) -> ComputerPlayer:
    """The computer of ``variant``'s game (a key, or a talu bare name); ``ValueError`` when
    the variant is unknown or its game has no computer."""
    try:
        player = computer_for(variant)
    except KeyError as err:
        raise ValueError(str(err.args[0])) from None
    if player is None:
        raise ValueError(f"the computer does not play {variant_of(variant).title}")
    return player


def replay(variant: str, events: list[tuple[str, dict[str, Any]]]) -> Any:
    """The rules engine after the game's stored events (R40: the log is the truth)."""
    return player_for(variant).replay(variant_of(variant).name, events)


Position = bytes | list[tuple[str, dict[str, Any]]]  # a ``snapshot``, or the stored events


def snapshot(engine: Any) -> bytes:
    """The rules engine as bytes for the pool: a copy the search may use as its own (a thread
    pool would otherwise share the worker's object). Only the worker's own bytes are loaded."""
    return pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)


def position_of(variant: str, position: Position) -> Any:
    """The engine of a ``Position``: the snapshot loaded, or the events replayed."""
    if isinstance(position, bytes):
        return pickle.loads(position)  # the worker's own snapshot, never a user's input
    return replay(variant, position)


def think(variant: str, position: Position, level: int,
          seconds: float | None = None, seed: int | None = None, deadline: int | None = None,
          increment: float = 0.0, reserve: float | None = None,
          nodes: int | None = None) -> dict[str, Any]:
    """The computer's turn for the side to move in ``position``: the step dicts to send in
    order, whether to resign instead, and what the search spent (``ComputerPlayer.think``).

    ``seconds`` (or the level's) are CPU seconds of the search; real time is capped too. On a
    clock (R36) ``deadline`` is when the computer's time runs out (ms since the epoch, the
    game row's), ``increment`` what a turn gives back and ``reserve`` the seconds never
    thought away (the game's own by default). ``nodes``: a smaller node budget (the worker's
    quick turn when the pool is late)."""
    player = player_for(variant)
    return player.think(position_of(variant, position), level, seconds=seconds, seed=seed,
                        deadline=deadline, increment=increment, reserve=reserve, nodes=nodes)
