"""The tafl computer's levels 1-8 (issue 42), as talu's (``play.games.talu.search.levels``):
a node budget (the search's real, deterministic limit), a cap in CPU seconds of the searching
thread (a busy machine searches as much, only more slowly) and the randomness of the lower
levels.

| level | depth | nodes   | noise | slip  | CPU s cap |
|---|---|---|---|---|---|
| 1 | 1 | 1 500   | 400 | 50 % | 1 |
| 2 | 1 | 3 000   | 150 | 25 % | 1 |
| 3 | 2 | 6 000   | 60  | 10 % | 1 |
| 4 | 2 | 12 000  | 25  | -    | 2 |
| 5 | 3 | 25 000  | 10  | -    | 3 |
| 6 | 4 | 50 000  | 0   | -    | 4 |
| 7 | 5 | 80 000  | 0   | -    | 4 |
| 8 | 6 | 150 000 | 0   | -    | 5 |

``depth`` is the deepest iteration of the iterative deepening (plies, one move each); the
budget usually ends the deeper ones on the big boards, where level 8 spends its few CPU seconds
(BENCHMARKS.md). Every level first takes a win at hand (an escape, T9, or the king's capture,
T7). A *slip* is a move picked at random among the legal ones (after that look for a win), a
beginner's move; ``noise`` (hundredths of a soldier) is added to each root move's score, a
misjudgement (never added to a proven result). Levels 5-8 resign when the search proves the
game lost.

Measured (BENCHMARKS.md): level 8 won 140 of 140 games against level 1 (tafl 7x7 to 11x11 and
Tablut, sides alternated); scouts of 20 games: level 2 scored 80 % against level 1, level 4
100 % against level 2, level 6 87.5 % against level 4.
"""

from __future__ import annotations

from dataclasses import dataclass

# The computer on a clock (R36), as talu's: one budget for every game's search.
from play.games.thinking import CLOCK_RESERVE, wall_seconds  # noqa: F401
from play.games.thinking import clock_seconds as budget_seconds


@dataclass(frozen=True)
class Level:
    number: int
    depth: int  # plies of the deepest iteration
    nodes: int  # the node budget (moves made in the search)
    noise: int  # random spread added to each root move's score
    seconds: float  # cap on the search's CPU seconds
    slip: float = 0.0  # chance that the move is picked at random (after a win at hand)
    resigns: bool = False


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 1, 1_500, 400, 1.0, slip=0.5),
        Level(2, 1, 3_000, 150, 1.0, slip=0.25),
        Level(3, 2, 6_000, 60, 1.0, slip=0.1),
        Level(4, 2, 12_000, 25, 2.0),
        Level(5, 3, 25_000, 10, 3.0, resigns=True),
        Level(6, 4, 50_000, 0, 4.0, resigns=True),
        Level(7, 5, 80_000, 0, 4.0, resigns=True),
        Level(8, 6, 150_000, 0, 5.0, resigns=True),
    )
}
DEFAULT_LEVEL = 4



def get_level(number: object) -> Level:
    """The level ``number`` (1-8); ValueError in words otherwise."""
    try:
        return LEVELS[int(number)]  # type: ignore[call-overload]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"the computer's level is a number from 1 to 8, not {number!r}") \
            from None


def clock_seconds(level: Level, left: float, increment: float = 0.0,
                  reserve: float = CLOCK_RESERVE) -> float:
    """CPU seconds a move may think with ``left`` seconds on the clock
    (``play.games.thinking.clock_seconds``, the level's seconds the ceiling, R36)."""
    return budget_seconds(level.seconds, left, increment, reserve)
