"""The computer player's search for Talat (issue 37; A1-A12): pure (no Django, ever; it runs in
the worker's pool like talu's and tafl's), for the three-seat game and the two-seat game with
Zihin (A11).

``choose_action(pos, level)`` gives the computer's action for the seat to act of a
``Position`` (not changed): a placement (``placement.py``, A3), else a move or capture
(``engine.py``, a paranoid alpha-beta search), or the pass when it is the only action (A4).
See ``levels.py`` for what each level spends, ``evaluate.py`` for the evaluation.
"""

from __future__ import annotations

import pickle
import random
import time
from dataclasses import dataclass

from play.games.searching import Budget, BudgetExhausted

from ..position import PASS, PLACEMENT, Position
from .engine import Search
from .evaluate import WIN, evaluate
from .levels import DEFAULT_LEVEL, LEVELS, Level, clock_seconds, get_level
from .placement import choose_placement

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "Level", "choose_action", "clock_seconds",
           "get_level"]


@dataclass(frozen=True)
class Choice:
    """The computer's decision: one ``action`` (``Position``'s int) and what it cost."""

    action: int
    score: int  # the seat's lead as the search saw it, hundredths of a point; ~WIN: won
    nodes: int
    depth: int
    seconds: float
    cpu: float
    level: int


def _win_at_hand(pos: Position, actions: list[int]) -> int | None:
    """An action that ends the game with the seat to act first alone (A8), the first."""
    seat = pos.to_move
    for a in actions:
        pos.push(a)
        try:
            if pos.finished and evaluate(pos, seat) >= WIN:
                return a
        finally:
            pos.pop()
    return None


def choose_action(pos: Position, level: int | Level = DEFAULT_LEVEL, seed: int | None = None,
                  nodes: int | None = None, seconds: float | None = None,
                  wall: float | None = None) -> Choice:
    """The computer's action at ``level`` for the seat to act in ``pos`` (not changed).

    ``seed`` makes the levels' randomness repeatable; ``nodes`` and ``seconds`` (CPU seconds
    of the searching thread; 0: no cap) override the level's budget (tests, benchmarks);
    ``wall`` caps real seconds too (a clock, R36). ValueError when the game is over."""
    lv = level if isinstance(level, Level) else get_level(level)
    if pos.finished:
        raise ValueError("the game is over: there is no action to take")
    started, cpu = time.perf_counter(), time.thread_time()
    work: Position = pickle.loads(pickle.dumps(pos, protocol=pickle.HIGHEST_PROTOCOL))
    budget = Budget(nodes or lv.nodes, lv.seconds if seconds is None else seconds, wall)
    rng = random.Random(seed)

    def done(action: int, score: int, depth: int) -> Choice:
        return Choice(action, score, budget.nodes, depth, time.perf_counter() - started,
                      time.thread_time() - cpu, lv.number)

    actions = work.legal()
    if actions == [PASS]:  # A4: nothing else to do
        return done(PASS, 0, 0)
    if work.phase == PLACEMENT:
        if lv.slip and rng.random() < lv.slip:
            return done(rng.choice(actions), 0, 0)
        action, score = choose_placement(work, lv.noise, rng, budget)
        return done(action, score, 1)
    win = _win_at_hand(work, actions)
    if win is not None:
        return done(win, WIN, 1)
    if lv.slip and rng.random() < lv.slip:
        return done(rng.choice(actions), 0, 0)
    search = Search(work.to_move, lv, rng, budget)
    try:
        result = search.root(work, actions)
        return done(result.choice, result.score, result.depth)
    except BudgetExhausted:  # not even one action searched: the first in order
        return done(search.ordered(work, actions)[0], 0, 0)
