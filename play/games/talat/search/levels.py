"""Talat's computer levels 1-4 (issue 37), shaped as tafl's and talu's: a node budget (the
search's real, deterministic limit), a cap in CPU seconds of the searching thread, and the
lower levels' randomness.

| level | depth | nodes  | noise | slip  | CPU s cap | placement          |
|---|---|---|---|---|---|---|
| 1 | 1 | 300    | 250 | 30 % | 0.5 | greedy, noise 250  |
| 2 | 2 | 2 000  | 100 | 10 % | 0.5 | greedy, noise 100  |
| 3 | 3 | 6 000  | 30  | -    | 0.4 | greedy, noise 30   |
| 4 | 5 | 20 000 | 0   | -    | 0.4 | greedy, no noise   |

``depth`` is the deepest iteration in turns (a turn is one seat's action: three turns are a
round of the three-seat game). ``noise`` (hundredths of a point) is added once to each root
action's score, a misjudgement, never to a proven end; a *slip* is an action picked at random
among the legal ones, a beginner's lapse. Level 1 still looks one turn ahead with the
captures that follow (``engine.quiesce``), so it takes a free capture and runs from a threat
more often than not: weak, not random (against two random movers it ranks first in nearly
every game). Every level first takes an action that ends the game with it first alone (A8).

Measured (``benchmarks/bench_talat_search.py``, node budgets, seats rotated): level 4 ranked
first alone in 117 of 120 three-seat games against two level-1 seats (games 0-119: 97.5 %,
95 % interval 93-99 %; the issue's target 90 %) and in 40 of 40 two-seat games against
level 1; a level against two seats of the level below, 30 games each, ranked first alone in
57 % (2 over 1), 63 % (3 over 2) and 67 % (4 over 3) of them (a third is
even). Three level-4 seats play a whole game in about 12 s of CPU (the target: under 30 s).
"""

from __future__ import annotations

from dataclasses import dataclass

# The computer on a clock (R36): the one budget for every game's search.
from play.games.thinking import CLOCK_RESERVE
from play.games.thinking import clock_seconds as budget_seconds


@dataclass(frozen=True)
class Level:
    number: int
    depth: int  # turns of the deepest iteration
    nodes: int  # the node budget (actions made in the search)
    noise: int  # random spread added to each root action's score (hundredths of a point)
    seconds: float  # cap on the search's CPU seconds
    slip: float = 0.0  # chance that the action is picked at random


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 1, 300, 250, 0.5, slip=0.3),
        Level(2, 2, 2_000, 100, 0.5, slip=0.1),
        Level(3, 3, 6_000, 30, 0.4),
        Level(4, 5, 20_000, 0, 0.4),
    )
}
DEFAULT_LEVEL = 3


def get_level(number: object) -> Level:
    """The level ``number`` (1-4); ValueError in words otherwise."""
    try:
        return LEVELS[int(number)]  # type: ignore[call-overload]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"Talat's computer levels are 1 to {max(LEVELS)}, not {number!r}") \
            from None


def clock_seconds(level: Level, left: float, increment: float = 0.0,
                  reserve: float = CLOCK_RESERVE) -> float:
    """CPU seconds a turn may think with ``left`` seconds on the clock
    (``play.games.thinking.clock_seconds``, the level's seconds the ceiling, R36)."""
    return budget_seconds(level.seconds, left, increment, reserve)
