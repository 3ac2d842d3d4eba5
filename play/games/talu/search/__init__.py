"""The computer opponent's search: pure, for all three variants (no Django, ever).

``choose_turn(game, level)`` gives the computer's turn for the side to move of a ``TaluGame``
(a fresh turn, or the rest of a turn in progress) as the steps to play one by one, each legal
by the very rules core that will check it. See ``levels.py`` for what each level 1-8 spends,
``turns.py`` for the turn generation, ``engine.py`` for the alpha-beta, ``evaluate.py`` for
the evaluation.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..game import TaluGame
from ..steps import Step
from .engine import History, Result, Search
from .evaluate import WIN
from .levels import DEFAULT_LEVEL, HONOR_NODES, LEVELS, Level, clock_seconds, get_level
from .turns import Budget

__all__ = ["DEFAULT_LEVEL", "HONOR_NODES", "LEVELS", "Choice", "Level", "choose_turn",
           "clock_seconds", "get_level", "history_of"]


@dataclass(frozen=True)
class Choice:
    """The computer's decision: the steps of its turn, or to resign (``resign``)."""

    steps: list[Step]
    score: int  # for the mover, in hundredths of a piece; +-WIN-ish for a proven result
    nodes: int
    depth: int
    seconds: float
    level: int
    resign: bool = False
    turns: int = 0  # whole turns (distinct end positions) the search generated
    cpu: float = 0.0  # CPU seconds of the searching thread (``seconds`` is real time)

    @property
    def proven_win(self) -> bool:
        return self.score >= WIN // 2


def history_of(game: TaluGame) -> History:
    """What the root must know of the game's past for the passing conventions (R12-R14)."""
    side = game.turn.side
    turns = game.turns

    def run(seq) -> int:
        n = 0
        for t in seq:
            if not t.counts_as_pass:
                break
            n += 1
        return n

    before_io = turns[-1].after if turns else game._origin
    before = before_io if side == 0 else (before_io[1], before_io[0])
    return History(
        seen=frozenset(game._seen),
        own_passes=run(turns[-2::-2]),
        game_passes=run(reversed(turns)),
        warned=any(s.index == side for s in game.warned),
        before=before,
    )


def choose_turn(game: TaluGame, level: int | Level = DEFAULT_LEVEL, seed: int | None = None,
                nodes: int | None = None, seconds: float | None = None,
                wall: float | None = None) -> Choice:
    """The computer's turn at ``level`` for the side to move of ``game`` (not changed).

    ``seed`` makes the lower levels' randomness repeatable; ``nodes`` and ``seconds`` (CPU
    seconds of the searching thread) override the level's budget (tests, benchmarks;
    ``seconds=0``: no CPU cap); ``wall``: a cap in real seconds as well (a clock's hard limit,
    R36). Under the honor rule the budget is at least ``HONOR_NODES``. Raises ValueError when
    the game is over.
    """
    lv = level if isinstance(level, Level) else get_level(level)
    if game.outcome is not None:
        raise ValueError("the game is over: there is no turn to play")
    started, cpu = time.perf_counter(), time.thread_time()
    limit = nodes or lv.nodes
    if game.turn.honor & game.turn.op:
        limit = max(limit, HONOR_NODES)
    budget = Budget(limit, seconds if seconds is not None else lv.seconds, wall)
    rng = random.Random(seed)
    result: Result = Search(lv, rng, budget).run(game.turn.copy(), history_of(game))
    steps = [game._to_step(s) for s in result.steps]
    resign = lv.resigns and (result.score <= -WIN // 2 or result.score <= -lv.resign_margin)
    return Choice(steps, result.score, result.nodes, result.depth,
                  time.perf_counter() - started, lv.number, resign, budget.turns,
                  time.thread_time() - cpu)
