"""The computer's levels 1-8: how wide and deep it looks, its node budget, its randomness.

A *node* is one step state the search visits (a step applied to a copy of a turn in progress)
or one exact R10 check; the node budget is the search's real limit (deterministic, so a test
can hold a level to it). ``seconds`` are CPU seconds of the searching thread, a cap for a slow
or busy machine (a level searches as much under load, only more slowly); the search stops at
whichever comes first, and its real time has a cap of its own (``wall_seconds``). The budgets
were chosen so that on one core of a 2020s laptop (about 40-60 thousand nodes a second,
BENCHMARKS.md) level 8 answers in a few seconds in the standard variant; the larger boards
spend the same nodes and see less of the tree.

The ladder is spaced by design, as lichess spaces its levels (Stockfish's skill, depth and
time): each level pairs a *search* (depth, beams, nodes, leaf wins, the evaluation's weights)
with a *slip*, the chance that a turn is not searched at all but walked at random, step by
step, like a beginner's. The top two weigh with the evaluation's weights fitted to self-play
(``tuned``, ``evaluate.TUNED`` and ``REFITTED``, issue 25): level 7 is level 6's search (the
widest that measured stronger with the hand-set weights) with the first round of them, which
scored 74 % of 100 games against level 6, and level 8 a wider search (32/12 beams, 400 000
nodes) with the second round (``REFITTED``: refitted to games of level 5's fitted search
against itself, so between equal players). With the first round the wider search was only a
little stronger than level 7 (58 % of 200 games); with the second it scored 74 % of the same
200. Two searches with the same weights and width shuffle without ever invading (so did 24/8
with more nodes and leaf wins against 24/8, in a scout of 8 games); against a narrower one the
wider does not, though the refitted level 8 defends longer (17 of its 200 games against level 7
reached the ladder's 200-turn limit, a draw there).
Levels 1-3 were re-spaced first (level 1 never searches, only wins at hand and the honor rule;
levels 2-3 slip less): rungs 2-4 measured 71, 69 and 72 % of 100 games. Level 4's search
without its slip was no rung above it (53 %), so level 5 is the next wider search (14/6) and
level 6 the 24/8 one; the 18/8 search between them split that 85 % rung into two short ones
(66, 62 %). Rungs, measured (BENCHMARKS.md): level 1 against a random mover 99 %, rungs 2-8 71,
69, 72, 75, 79, 74 % of 100 games each, and rung 8 74 % of 200 (76 % on the ladder's seeds, 72.5 %
on the next hundred).

| level | search: depth | beam root/inner | nodes | noise | leaf wins | weights | slip | CPU s cap |
|---|---|---|---|---|---|---|---|---|
| 1 | 1          | 4 / -   | 3 000   | 250 | -   | hand   | 100 % | 1 |
| 2 | 1          | 4 / -   | 3 000   | 250 | -   | hand   | 60 %  | 1 |
| 3 | 1 + safety | 8 / -   | 6 000   | 45  | -   | hand   | 45 %  | 1 |
| 4 | 2          | 10 / 4  | 25 000  | 6   | 150 | hand   | 25 %  | 3 |
| 5 | 2          | 14 / 6  | 50 000  | 2   | 200 | hand   | -     | 4 |
| 6 | 2          | 24 / 8  | 180 000 | 0   | 300 | hand   | -     | 8 |
| 7 | 2          | 24 / 8  | 180 000 | 0   | 300 | fitted | -     | 8 |
| 8 | 2          | 32 / 12 | 400 000 | 0   | 300 | refitted | -   | 12 |

Level 1 is a beginner who moves at random but never misses a win at hand and always answers
the honor rule (its slip is every turn; a walk that would be a second pass running is
searched instead, R12); level 2 searches its own turn (noisily) two turns in five; level 3 a
little more than half the time, with safety (no turn after which the reply wins at once);
level 4 is the first to search two turns (its own and every reply), with the leaf wins (a
two-turn search without them measured no better than level 3), and slips a turn in four;
level 5 looks wider and never slips; level 6 widens it further (24/8, the widest that
measured stronger with the hand-set weights); level 7 is level 6's search with the fitted
weights, and level 8 looks wider still with the refitted ones, which hold the home row and the
row before it (R10's defenders) far more. The fitted weights are the standard
variant's: in the 6-step variants (dynamic, grand master) levels 7 and 8 weigh by hand
(``evaluate.weights``), so there level 7 plays as level 6. On one core of an earlier machine, with
the project's tests running beside it, level 8 took about 1 s a turn (21 s for a game of
about 19 turns against level 7): its search usually ends before its node budget. With the
refitted weights its games against level 7 are longer (78 turns on average, 25 s a game, both
sides' thinking, on this session's quiet machine), not its turns.

A slip is never made under the honor rule (R10: the search answers it whenever it can), never
instead of a win at hand (looked for first, below), and never a turn that would count as a pass
a second time running (R12). A slip costs almost nothing, so the lower levels also answer
sooner. A search three turns deep measured weaker than two turns with wider beams
(BENCHMARKS.md), so the top levels look wider, not deeper.

*Leaf wins* (levels 4-8): each leaf of the tree (a reply of the opponent) is also checked for
the mover's immediate win next turn (``find_win`` with that many nodes, ``Search.loses_at_once``)
before its static score is believed: an invasion race is decided by a walk to the goal row
through a gap the reply left, which a static score only guesses at. It is the third turn looked
at, but only for a win at once, so it is not optimistic the way a full third turn was (below).

Why not deeper: a search of three turns (own, reply, own) ends on the mover's own turn and is
optimistic (the last reply unseen): with 10/4 beams it lost 7 of 8 games to the two-turn
search of 10/4 beams with leaf wins (BENCHMARKS.md), so the top levels look wider, not deeper.
With the leaf check as well (16/6 beams, 300 nodes a leaf) a three-turn search still won only
1 of 6 games against the two-turn search of 18/8 beams.

*Safety* (level 3): the one-turn search also rejects a turn after
which the opponent has an immediate win (``find_win`` on the reply). From level 4 on, every
node of the tree first looks for the side to move's immediate win (``INNER_WIN_NODES``), which
the beam could miss.

Every level first spends up to ``WIN_NODES`` (or a tenth of its budget, if more) looking for a turn
that wins at once (``turns.find_win``): a beginner misjudges, but never misses a win at hand.
An honor turn gets at least ``HONOR_NODES`` nodes at every level (below).

*On a clock* (R36) a level's ``seconds`` is only the ceiling: ``clock_seconds`` gives a turn at
most ``1/CLOCK_SHARE`` of the time the computer has left beyond ``CLOCK_RESERVE`` (kept back for
the delivery of its steps and a loaded machine), plus most of the increment, and never more than
a quarter of it. So at 3+2 level 8 may think about 7 s a turn early on (its node budget usually
ends the search sooner) and less as its clock runs down, and its real time is capped at a third
of what is left beyond the reserve (``wall_seconds``): the computer does not lose on time in
normal play, even when the pool's processes (``SCHED_IDLE``) are starved by a busy machine.

``noise`` is the spread (in hundredths of a piece) of a random amount added to each candidate
turn's score at the root: a beginner's misjudgement (level 1's 250 picks nearly at random among
the turns its beam found). Levels 5-8 resign a lost position (R15 ``decision``) when the
search proves a loss or sees itself ``resign_margin`` pieces down.
"""

from __future__ import annotations

from dataclasses import dataclass

# The computer on a clock (R36), the same for every game's search: re-exported for talu's.
from play.games.thinking import CLOCK_RESERVE, MIN_THINK, wall_seconds  # noqa: F401
from play.games.thinking import clock_seconds as budget_seconds


@dataclass(frozen=True)
class Level:
    number: int
    depth: int  # turns looked ahead: 1 = own turn only, 2 = and every reply, 3 = and own again
    root_width: int  # beam of partial turns kept per step at the root
    inner_width: int  # the same below the root
    nodes: int  # the node budget
    noise: int  # random spread added to root scores (centipieces)
    seconds: float  # cap on the search's CPU seconds (its real time: ``wall_seconds``)
    safety: bool = False  # depth 1 only: reject turns that allow an immediate win
    resigns: bool = False
    resign_margin: int = 600  # centipieces down (after search) at which a resigning level gives up
    leaf_wins: int = 0  # nodes per leaf for the next mover's immediate win (0: not looked for)
    tuned: int = 0  # the evaluation's fitted weights: 0 hand-set, 1 ``TUNED``, 2 ``REFITTED``
    slip: float = 0.0  # chance that a turn is picked at random among the sane ones (a slip)


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 1, 4, 4, 3_000, 250, 1.0, slip=1.0),
        Level(2, 1, 4, 4, 3_000, 250, 1.0, slip=0.6),
        Level(3, 1, 8, 4, 6_000, 45, 1.0, safety=True, slip=0.45),
        Level(4, 2, 10, 4, 25_000, 6, 3.0, leaf_wins=150, slip=0.25),
        Level(5, 2, 14, 6, 50_000, 2, 4.0, resigns=True, leaf_wins=200),
        Level(6, 2, 24, 8, 180_000, 0, 8.0, resigns=True, leaf_wins=300),
        Level(7, 2, 24, 8, 180_000, 0, 8.0, resigns=True, leaf_wins=300, tuned=1),
        Level(8, 2, 32, 12, 400_000, 0, 12.0, resigns=True, leaf_wins=300, tuned=2),
    )
}

DEFAULT_LEVEL = 4

# An honor turn (R10: the opponent's invaders stand on the mover's home row, and every turn that
# leaves one standing loses) gets at least this many nodes, whatever the level: a beginner may
# misjudge, but losing because the budget ran out before the exhaustive honor search found the
# answer is never right. The search usually finds it in a few hundred.
HONOR_NODES = 5_000
WIN_NODES = 2_000


def clock_seconds(level: Level, left: float, increment: float = 0.0,
                  reserve: float = CLOCK_RESERVE) -> float:
    """CPU seconds a move may think with ``left`` seconds on the clock
    (``play.games.thinking.clock_seconds``, the level's seconds the ceiling)."""
    return budget_seconds(level.seconds, left, increment, reserve)


def get_level(number: int) -> Level:
    """The level ``number`` (1-8); ValueError with words a person understands otherwise."""
    try:
        return LEVELS[int(number)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"the computer's level is a number from 1 to 8, not {number!r}") from None
