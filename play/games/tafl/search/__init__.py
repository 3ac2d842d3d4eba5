"""The computer opponent's search for the tafl games (issue 42): pure, for generic tafl on every
board and Tablut (no Django, ever; it runs in the worker's pool like talu's).

``choose_move(pos, level)`` gives the computer's move for the side to move of a ``Position``
(not changed): the move and the T8 removals of the same turn (tafl), or, when a turn is in
progress (removals pending), only the removals. See ``levels.py`` for what each level 1-8
spends, ``engine.py`` for the alpha-beta, ``evaluate.py`` for the evaluation.
"""

from __future__ import annotations

import pickle
import random
import time
from dataclasses import dataclass

from play.games.searching import Budget, BudgetExhausted
from play.games.thinking import wall_seconds

from ..position import Position
from .engine import Search, best_removals
from .evaluate import WIN
from .levels import DEFAULT_LEVEL, LEVELS, Level, clock_seconds, get_level

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "Level", "choose_move", "clock_seconds",
           "get_level", "wall_seconds"]


@dataclass(frozen=True)
class Choice:
    """The computer's decision: ``move`` (``from << 9 | to``; None when the turn in progress
    only lacks its removals) and the T8 ``removals`` of the same turn, in order."""

    move: int | None
    removals: tuple[int, ...]
    score: int  # for the mover, in hundredths of an attacker; about +-WIN when proven
    nodes: int
    depth: int
    seconds: float
    cpu: float
    level: int
    resign: bool = False

    @property
    def proven_win(self) -> bool:
        return self.score >= WIN // 2


def _win_at_hand(pos: Position, moves: list[int]) -> int | None:
    """A move that wins at once (T7 the king's capture, T9 an escape), the first in order."""
    mover = pos.to_move
    for m in moves:
        pos.push(m)
        won = pos.win is not None and pos.win[0] == mover
        pos.pop()
        if won:
            return m
    return None


def choose_move(pos: Position, level: int | Level = DEFAULT_LEVEL, seed: int | None = None,
                nodes: int | None = None, seconds: float | None = None,
                wall: float | None = None) -> Choice:
    """The computer's move at ``level`` for the side to move of ``pos`` (not changed).

    ``seed`` makes the lower levels' randomness repeatable; ``nodes`` and ``seconds`` (CPU
    seconds of the searching thread; 0: no cap) override the level's budget (tests,
    benchmarks); ``wall`` caps real seconds too (a clock, R36). ValueError when the game is
    over."""
    lv = level if isinstance(level, Level) else get_level(level)
    if pos.result is not None:
        raise ValueError("the game is over: there is no move to play")
    started, cpu = time.perf_counter(), time.thread_time()
    work: Position = pickle.loads(pickle.dumps(pos, protocol=pickle.HIGHEST_PROTOCOL))
    budget = Budget(nodes or lv.nodes, lv.seconds if seconds is None else seconds, wall)
    rng = random.Random(seed)

    def done(move: int | None, removals: list[int], score: int, depth: int) -> Choice:
        resign = lv.resigns and score <= -WIN // 2
        return Choice(move, tuple(removals), score, budget.nodes, depth,
                      time.perf_counter() - started, time.thread_time() - cpu, lv.number,
                      resign)

    if work.pending:  # a turn in progress (T8): only its removals are left to choose
        return done(None, best_removals(work), 0, 0)
    moves = sorted(work.legal_moves())
    win = _win_at_hand(work, moves)
    if win is not None:
        work.push(win)
        return done(win, best_removals(work) if work.pending else [], WIN - 1, 1)
    if lv.slip and rng.random() < lv.slip:
        move = rng.choice(moves)
        work.push(move)
        removals = []
        while work.pending:  # a beginner's choice too (T8)
            sq = rng.choice(work.pending[0])
            work.push_removal(sq)
            removals.append(sq)
        return done(move, removals, 0, 0)
    search = Search(lv, rng, budget)
    try:
        result = search.root(work, moves)
        move, score, depth = result.choice, result.score, result.depth
    except BudgetExhausted:  # not even one move searched: the first in order
        move, score, depth = moves[0], 0, 0
    work = pickle.loads(pickle.dumps(pos, protocol=pickle.HIGHEST_PROTOCOL))
    work.push(move)
    return done(move, best_removals(work) if work.pending else [], score, depth)

