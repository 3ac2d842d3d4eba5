"""Talu's computer opponent as the site plays it (``play.games.protocol.parts.ComputerPlayer``).

Pure, like the search behind it (``search/``, levels 1-8, docs/computer.md): the worker's pool
runs ``think`` in a child process that never imports Django (``play.computer.think``), on a
pickled copy of the engine the worker holds or on the game's stored events replayed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from play.games.thinking import LevelledComputer, budget

from .game import TaluGame
from .protocol import apply_event
from .search import LEVELS, choose_turn, get_level
from .variants import get_variant


class TaluComputer(LevelledComputer):
    """The search's levels, budgets and turns behind the site's computer contract."""

    levels: tuple[int, ...] = tuple(sorted(LEVELS))
    get_level = staticmethod(get_level)

    def turn_moves(self, variant: str) -> int:
        return get_variant(variant).steps

    def replay(self, variant: str, events: Iterable[tuple[str, dict[str, Any]]]) -> TaluGame:
        """The rules engine after the game's stored events (R40: the log is the truth)."""
        game = TaluGame(variant)
        for kind, data in events:
            apply_event(game, kind, data)
        return game

    def think(self, engine: TaluGame, level: int, *, seconds: float | None = None,
              seed: int | None = None, deadline: int | None = None, increment: float = 0.0,
              reserve: float | None = None, nodes: int | None = None) -> dict[str, Any]:
        """The turn of the side to move: ``seconds`` (or the level's) are CPU seconds of the
        search, so a level thinks as much on a busy machine as on a quiet one, where the
        pool's processes get only the CPU nobody else wants; real time is capped too
        (``wall_seconds``). On a clock (R36) the thinking time is the clock's share
        (``clock_seconds``, with ``seconds`` or the level's as the ceiling) of what is left
        *now*, when the pool starts the search, so a wait in the pool's queue is paid from
        the share, not from the clock, and the real time is capped by what is left."""
        to_move = engine.side_to_move
        if engine.outcome is not None or to_move is None:
            return {"steps": [], "resign": False, "nodes": 0, "side": None, "score": 0}
        side = to_move.value
        lv = get_level(level)
        thinking, wall = budget(lv.seconds, seconds, deadline, increment, reserve)  # R36
        choice = choose_turn(engine, level, seed=seed, nodes=nodes, seconds=thinking, wall=wall)
        return {"steps": [s.to_dict() for s in choice.steps], "resign": choice.resign,
                "nodes": choice.nodes, "side": side, "score": choice.score,
                "seconds": choice.seconds, "cpu": choice.cpu, "wall": wall}


COMPUTER = TaluComputer()
