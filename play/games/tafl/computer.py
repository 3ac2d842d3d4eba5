"""The tafl games' computer opponent as the site plays it
(``play.games.protocol.parts.ComputerPlayer``), levels 1-8.

Pure, like the search behind it (``search/``): the worker's pool runs ``think`` in a child
process that never imports Django (``play.computer.think``), on a pickled copy of the engine the
worker holds (a ``protocol.TaflState``) or on the game's stored events replayed. A turn is one
move, then the T8 removal choices of the same turn (tafl), sent as the wire's steps
(``protocol.TaflRules.decide_move``): ``{"move": "e4-e7"}``, then ``{"remove": "f7"}`` for
each enclosed group. A turn the worker left half played (its removals still pending) gets
only its removals.

The parts are given a variant's name (``9x9``), which both games have, so each game has its
own computer: ``TAFL_COMPUTER`` and ``TABLUT_COMPUTER`` (``COMPUTERS`` by game key).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from play.games.protocol.parts import ComputerPlayer
from play.games.thinking import LevelledComputer, budget

from .board import SIDE_NAMES
from .game import TaflGame
from .position import Position, Rules
from .protocol import MOVE, REMOVE, TaflState
from .search import LEVELS, choose_move, get_level


def position_of(engine: Any) -> tuple[Position, bool]:
    """The position of a tafl engine (a ``TaflState``, a ``TaflGame`` or a ``Position``) and
    whether the match has ended the game off the board."""
    if isinstance(engine, TaflState):
        return engine.game.pos, engine.over or engine.game.result is not None
    if isinstance(engine, TaflGame):
        return engine.pos, engine.result is not None
    if isinstance(engine, Position):
        return engine, engine.result is not None
    raise TypeError(f"not a tafl engine: {type(engine).__name__}")


class TaflComputer(LevelledComputer):
    """The search's levels, budgets and moves behind the site's computer contract, for one
    of the two games (``game``: ``tafl`` or ``tablut``)."""

    levels: tuple[int, ...] = tuple(sorted(LEVELS))
    get_level = staticmethod(get_level)

    def __init__(self, game: str = "tafl") -> None:
        self.game = game

    def turn_moves(self, variant: str) -> int:
        """A move and, rarely, a removal or two (T8): the animation's pauses."""
        return 1 if self.game == "tablut" else 3

    def replay(self, variant: str, events: Iterable[tuple[str, dict[str, Any]]]) -> TaflState:
        """The engine after the game's stored events (R40): its moves and removals (the
        match's own events change nothing here). The events do not say the ``immunity``
        option (T6), so a replayed game is without it; the worker thinks on its own engine's
        snapshot, which has it."""
        n = int(variant.split("x")[0])
        state = TaflState(TaflGame(Rules(self.game, n)))
        g = state.game
        for kind, data in events:
            if kind == MOVE:
                g.move(g.geo.square(data["from"]), g.geo.square(data["to"]))
            elif kind == REMOVE:
                g.remove(g.geo.square(data["square"]))
        return state

    def think(self, engine: Any, level: int, *, seconds: float | None = None,
              seed: int | None = None, deadline: int | None = None, increment: float = 0.0,
              reserve: float | None = None, nodes: int | None = None) -> dict[str, Any]:
        """The turn of the side to move (``engine`` not changed): ``seconds`` (or the
        level's) are CPU seconds of the search, real time capped too; on a clock (R36) the
        share of what is left *now* (``clock_seconds``)."""
        pos, over = position_of(engine)
        if over:
            return {"steps": [], "resign": False, "nodes": 0, "side": None, "score": 0}
        lv = get_level(level)
        thinking, wall = budget(lv.seconds, seconds, deadline, increment, reserve)  # R36
        choice = choose_move(pos, lv, seed=seed, nodes=nodes, seconds=thinking, wall=wall)
        name = pos.geo.name
        steps: list[dict[str, str]] = []
        if choice.move is not None:
            steps.append({MOVE: f"{name(choice.move >> 9)}-{name(choice.move & 511)}"})
        steps += [{REMOVE: name(sq)} for sq in choice.removals]
        return {"steps": steps, "resign": choice.resign, "nodes": choice.nodes,
                "side": SIDE_NAMES[pos.to_move], "score": choice.score,
                "seconds": choice.seconds, "cpu": choice.cpu, "wall": wall,
                "depth": choice.depth}


TAFL_COMPUTER = TaflComputer("tafl")
TABLUT_COMPUTER = TaflComputer("tablut")
COMPUTERS = {"tafl": TAFL_COMPUTER, "tablut": TABLUT_COMPUTER}
#: The generic tafl computer by its usual name (Tablut's is ``TABLUT_COMPUTER``).
COMPUTER: ComputerPlayer = TAFL_COMPUTER
_: ComputerPlayer = TABLUT_COMPUTER  # mypy checks the contract here (tests/test_types.py)
