"""The computer's levels 1-8: how wide and deep it looks, its node budget, its randomness.

A *node* is one step state the search visits (a step applied to a copy of a turn in progress)
or one exact R10 check; the node budget is the search's real limit (deterministic, so a test
can hold a level to it). ``seconds`` is a safety cap for a loaded machine: the search stops at
whichever comes first. The budgets below were chosen so that on one core of a 2020s laptop
(about 60-90 thousand nodes a second, BENCHMARKS.md) level 8 answers in a few seconds in the
standard variant; the larger boards spend the same nodes and see less of the tree.

| level | depth (own turns + replies) | beam root/inner | nodes | noise | seconds |
|---|---|---|---|---|---|
| 1 | 1          | 4 / -   | 3 000   | 90 | 1 |
| 2 | 1 + safety | 8 / -   | 6 000   | 45 | 1 |
| 3 | 2 | 6 / 3   | 12 000  | 20 | 2 |
| 4 | 2 | 10 / 4  | 25 000  | 6  | 3 |
| 5 | 2 | 14 / 6  | 50 000  | 2  | 4 |
| 6 | 2 | 18 / 8  | 100 000 | 0  | 6 |
| 7 | 2 | 24 / 10 | 180 000 | 0  | 8 |
| 8 | 2 | 32 / 12 | 300 000 | 0  | 10 |

Why not deeper: a search of three turns (own, reply, own) ends on the mover's own turn and is
optimistic (the last reply unseen): with 10/4 beams it lost 7 of 8 games to level 5 (depth 2,
BENCHMARKS.md), so the top levels look wider, not deeper.

*Safety* (level 2): the one-turn search also rejects a turn after which the opponent has an
immediate win (``find_win`` on the reply). From level 3 on, every node of the tree first looks
for the side to move's immediate win (``INNER_WIN_NODES``), which the beam could miss.

Every level first spends up to ``WIN_NODES`` (or a tenth of its budget, if more) looking for a turn
that wins at once (``turns.find_win``): a beginner misjudges, but never misses a win at hand.
An honor turn gets at least ``HONOR_NODES`` nodes at every level (below).

``noise`` is the spread (in hundredths of a piece) of a random amount added to each candidate
turn's score at the root: a beginner's misjudgement. Levels 6-8 resign a lost position (R15
``decision``) when the search proves a loss or sees itself ``resign_margin`` pieces down.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    depth: int  # turns looked ahead: 1 = own turn only, 2 = and every reply, 3 = and own again
    root_width: int  # beam of partial turns kept per step at the root
    inner_width: int  # the same below the root
    nodes: int  # the node budget
    noise: int  # random spread added to root scores (centipieces)
    seconds: float  # safety cap on wall-clock time
    safety: bool = False  # depth 1 only: reject turns that allow an immediate win
    resigns: bool = False
    resign_margin: int = 600  # centipieces down (after search) at which a resigning level gives up


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 1, 4, 4, 3_000, 90, 1.0),
        Level(2, 1, 8, 4, 6_000, 45, 1.0, safety=True),
        Level(3, 2, 6, 3, 12_000, 20, 2.0),
        Level(4, 2, 10, 4, 25_000, 6, 3.0),
        Level(5, 2, 14, 6, 50_000, 2, 4.0),
        Level(6, 2, 18, 8, 100_000, 0, 6.0, resigns=True),
        Level(7, 2, 24, 8, 180_000, 0, 8.0, resigns=True),
        Level(8, 2, 32, 12, 300_000, 0, 10.0, resigns=True),
    )
}

DEFAULT_LEVEL = 4

# An honor turn (R10: the opponent's invaders stand on the mover's home row, and every turn that
# leaves one standing loses) gets at least this many nodes, whatever the level: a beginner may
# misjudge, but losing because the budget ran out before the exhaustive honor search found the
# answer is never right. The search usually finds it in a few hundred.
HONOR_NODES = 5_000
WIN_NODES = 2_000


def get_level(number: int) -> Level:
    """The level ``number`` (1-8); ValueError with words a person understands otherwise."""
    try:
        return LEVELS[int(number)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"the computer's level is a number from 1 to 8, not {number!r}") from None
