"""Talat's computer player as the site plays it (``play.games.protocol.parts.ComputerPlayer``),
for the three-seat game and the two-seat game with Zihin (A11), levels 1-4.

Pure, like the search behind it (``search/``): the worker's pool runs ``think`` in a child
process that never imports Django (``play.computer.think``), on a pickled copy of the engine
the worker holds (a ``protocol.TalatState``) or on the game's stored events replayed. A turn
is one action, sent as the wire's one step (``protocol.TalatRules.decide_move``):
``{"action": "@23:c5 M6"}``, ``{"action": "12:b2-c3"}`` or ``{"action": "31:d4xd5"}``. A
seat with no move or capture is passed for by the rules at once (A4, ``follow_up``), so the
computer answers ``pass`` only when the engine it is given waits for that pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from play.games.protocol import Result
from play.games.protocol.parts import ComputerPlayer
from play.games.thinking import LevelledComputer, budget

from .game import TalatGame
from .notation import write_action
from .position import Position
from .protocol import TURN, TalatState
from .search import LEVELS, choose_action, get_level

#: The match's events that matter to a replay (``play.games.match``): a seat that leaves
#: (A8) keeps its towers and takes no more turns; a decision ends the game.
LEAVE, FORFEIT = "leave", "forfeit"
ENDS = ("decide", "abort", "null")


def position_of(engine: Any) -> tuple[Position, bool]:
    """The position of a Talat engine (a ``TalatState``, a ``TalatGame`` or a ``Position``)
    and whether the game is over (on the board, or decided off it)."""
    if isinstance(engine, TalatState):
        return engine.game.pos, engine.game.finished or engine.decision is not None
    if isinstance(engine, TalatGame):
        return engine.pos, engine.finished
    if isinstance(engine, Position):
        return engine, engine.finished
    raise TypeError(f"not a Talat engine: {type(engine).__name__}")


class TalatComputer(LevelledComputer):
    """The search's levels, budgets and actions behind the site's computer contract."""

    levels: tuple[int, ...] = tuple(sorted(LEVELS))
    get_level = staticmethod(get_level)

    def turn_moves(self, variant: str) -> int:
        """One action a turn (A3, A4)."""
        return 1

    def replay(self, variant: str, events: Iterable[tuple[str, dict[str, Any]]]
               ) -> TalatState:
        """The engine after the game's stored events (R40): its turns in order (each by the
        seat to act then: a turn's data holds only its action), the seats that left (A8)
        and a decision off the board. A takeback's events are not told apart here (they
        need the log's versions): the worker thinks on its own engine's snapshot."""
        state = TalatState(TalatGame(variant))
        g = state.game
        for kind, data in events:
            if kind == TURN:
                mover = g.to_move()
                if mover is None:
                    raise ValueError(f"{data.get('action')!r} after the game's end")
                g.act(mover, str(data["action"]))
            elif kind == LEAVE or (kind == FORFEIT and g.pos.players > 2):
                g.leave(str(data.get("seat") or data["side"]))
            elif kind in ENDS or kind == FORFEIT:
                state.decision = Result({}, "decision", str(data.get("detail") or kind))
        return state

    def think(self, engine: Any, level: int, *, seconds: float | None = None,
              seed: int | None = None, deadline: int | None = None, increment: float = 0.0,
              reserve: float | None = None, nodes: int | None = None) -> dict[str, Any]:
        """The turn of the seat to act (``engine`` not changed): ``seconds`` (or the level's)
        are CPU seconds of the search, real time capped too; on a clock the share of what is
        left *now* (R36, ``play.games.thinking``)."""
        pos, over = position_of(engine)
        if over:
            return {"steps": [], "resign": False, "nodes": 0, "side": None, "score": 0}
        lv = get_level(level)
        thinking, wall = budget(lv.seconds, seconds, deadline, increment, reserve)  # R36
        choice = choose_action(pos, lv, seed=seed, nodes=nodes, seconds=thinking, wall=wall)
        return {"steps": [{"action": write_action(pos, choice.action)}], "resign": False,
                "nodes": choice.nodes, "side": pos.seats[pos.to_move], "score": choice.score,
                "seconds": choice.seconds, "cpu": choice.cpu, "wall": wall,
                "depth": choice.depth}


TALAT_COMPUTER = TalatComputer()
COMPUTER: ComputerPlayer = TALAT_COMPUTER  # mypy checks the contract here (tests/test_types.py)
