"""The static evaluation: how good a board is for the side whose turn just ended.

Built only from the game's own terms (book ch. 4, R4-R10), in hundredths of a piece:

- material: 100 a piece;
- *hanging* pieces: a piece in the opponent's overlap (R4, threatened) with a free square next to
  it can be taken at once, since a capture needs an exit (R6; book 4.7.4: a piece with no free
  exit square is *defended*). The side to move takes up to as many as its steps allow;
- defended pieces (in their own side's overlap, R4): a little;
- distance to the goal row: each rank of progress, and more for a piece within one turn's steps
  of the goal row (an invasion threat, R10);
- invaders standing on the goal row that the opponent must now remove (the honor rule, R10).

The terminal checks (elimination, honor failure, unanswerable invasion: R11) are ``judge``.
"""

from __future__ import annotations

from functools import lru_cache

from ..invasion import can_remove_all_invaders
from ..turn import TurnState
from ..variants import Geometry, Variant, get_variant

WIN = 1_000_000  # a won position; a win in fewer turns scores higher (WIN - plies)
PIECE = 100
HANG_FIRST = 80  # the first hanging piece is all but lost
HANG_MORE = 45  # the next ones as far as the opponent's steps reach
MY_THREAT = 12  # an opponent piece I threaten, for after the opponent's turn
DEFENDED = 6
RANK = 4
NEAR_GOAL_MOVER = 10  # per step of margin, a piece of the side that just moved
NEAR_GOAL_TO_MOVE = 30  # per step of margin, a piece of the side about to move
INVADER = 40  # an invader the opponent must remove now (R10)
ANSWER_LIMIT = 60  # states the R10 check may visit in the search before it assumes "answerable"

_PROGRESS: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}


def progress_masks(g: Geometry, side: int) -> tuple[tuple[int, int], ...]:
    """(rank mask, ranks still to go to the goal row) for ``side``, computed once per board."""
    key = (g.files, g.ranks, side)
    try:
        return _PROGRESS[key]
    except KeyError:
        last = g.ranks - 1
        table = tuple((m, (last - r) if side == 0 else r) for r, m in enumerate(g.rank_masks))
        _PROGRESS[key] = table
        return table


def _advance(g: Geometry, bits: int, side: int, steps: int, near_weight: int) -> int:
    score = 0
    last = g.ranks - 1
    for mask, togo in progress_masks(g, side):
        c = (bits & mask).bit_count()
        if c:
            score += c * (last - togo) * RANK
            if 0 < togo <= steps:
                score += c * (steps - togo + 1) * near_weight
    return score


def evaluate(v: Variant, me: int, op: int, side: int) -> int:
    """The score of the board for ``side`` (owning ``me``) whose turn has just ended."""
    g = v.geometry
    over_me, over_op = g.overlap(me), g.overlap(op)
    empty = g.all & ~(me | op)
    exits = g.range_of(empty)  # squares with a free neighbour: an attack there can exit
    score = PIECE * (me.bit_count() - op.bit_count())
    max_caps = max(1, (v.steps - 1) // max(1, v.attack_cost - 1))
    if v.max_chain is not None:
        max_caps = min(max_caps, v.max_chain * max(1, v.steps // (v.attack_cost + 1)))
    hanging = (me & over_op & exits).bit_count()
    if hanging:
        score -= HANG_FIRST + HANG_MORE * (min(hanging, max_caps) - 1)
    score += MY_THREAT * (op & over_me & exits).bit_count()
    score += DEFENDED * ((me & over_me).bit_count() - (op & over_op).bit_count())
    score += _advance(g, me, side, v.steps, NEAR_GOAL_MOVER)
    score -= _advance(g, op, 1 - side, v.steps, NEAR_GOAL_TO_MOVE)
    score += INVADER * (me & g.goal_row(side)).bit_count()
    return score


def judge(v: Variant, me: int, op: int, side: int) -> int | None:
    """R11 after ``side``'s turn ends on (``me``, ``op``): +WIN, -WIN, or None (play on)."""
    g = v.geometry
    if not op:
        return WIN  # (1) elimination
    if op & g.home_row(side):
        return -WIN  # (2) honor failure: the opponent's invaders were not all removed
    invaders = me & g.goal_row(side)
    if invaders and not _answerable(v.name, me, op, side, invaders):
        return WIN  # (3) invasion the opponent cannot answer
    return None


@lru_cache(maxsize=1 << 16)
def _answerable(variant: str, me: int, op: int, side: int, invaders: int) -> bool:
    """Can the opponent remove every invader next turn (R10)? The exact search of the rules
    core, behind a shortcut for the common case: one invader already standing in the
    defender's overlap is taken by an honor capture, which needs no exit (R8). Cached: the
    same boards come back through iterative deepening and from one turn to the next."""
    v = get_variant(variant)
    if invaders & (invaders - 1) == 0 and invaders & v.geometry.overlap(op) and (
            v.steps >= v.attack_cost):
        return True
    return can_remove_all_invaders(TurnState(v, 1 - side, op, me), ANSWER_LIMIT)
