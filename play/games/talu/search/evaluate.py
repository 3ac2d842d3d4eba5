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


def features(v: Variant, me: int, op: int, side: int) -> list[int]:
    """The evaluation's terms for ``side`` (owning ``me``) whose turn has just ended, as
    counts; ``evaluate`` weighs them (``weights``). In order (``feature_names``): material, a first
    hanging piece (0/1) and the next ones the opponent's steps reach, opponent pieces I
    threaten, defended pieces (mine less theirs), ranks of progress (mine, theirs), pieces on
    the goal row (invaders, R10), then for k = 1..steps my pieces and the opponent's k ranks
    from their goal rows (the invasion race: the opponent is to move, so its runners weigh
    more), then the pieces on each side's home row and the row before it (the honor rule's
    defenders, R10), the runners within a turn of the goal row with no opponent piece next to
    them (mine, theirs), and the squares of each side's home row in its own overlap (where an
    invader is taken by an honor capture at once, R8)."""
    g = v.geometry
    (ranks, max_caps, goal, home_me, home_op, second_me, second_op, zone_me,
     zone_op) = _constants(v, side)
    over_me, over_op = g.overlap(me), g.overlap(op)
    exits = g.range_of(g.all & ~(me | op))  # squares with a free neighbour: an attack can exit
    hanging = (me & over_op & exits).bit_count()
    steps = v.steps
    near_me = [0] * steps
    near_op = [0] * steps
    adv_me = adv_op = 0
    for mask, prog_me, near_i, prog_op, near_j in ranks:
        c = (me & mask).bit_count()
        if c:
            adv_me += c * prog_me
            if near_i >= 0:
                near_me[near_i] += c
        c = (op & mask).bit_count()
        if c:
            adv_op += c * prog_op
            if near_j >= 0:
                near_op[near_j] += c
    return [
        me.bit_count() - op.bit_count(),
        1 if hanging else 0,
        min(hanging, max_caps) - 1 if hanging else 0,
        (op & over_me & exits).bit_count(),
        (me & over_me).bit_count() - (op & over_op).bit_count(),
        adv_me,
        adv_op,
        (me & goal).bit_count(),
        *near_me,
        *near_op,
        (me & home_me).bit_count(),
        (op & home_op).bit_count(),
        (me & second_me).bit_count(),
        (op & second_op).bit_count(),
        (me & zone_me & ~g.range_of(op)).bit_count(),
        (op & zone_op & ~g.range_of(me)).bit_count(),
        (over_me & home_me).bit_count(),
        (over_op & home_op).bit_count(),
    ]


_CONSTANTS: dict[tuple[str, int], tuple] = {}


def _constants(v: Variant, side: int) -> tuple:
    """What ``features`` needs of the board for ``side`` (just moved), computed once: per rank
    (mask, its progress for ``side``, the index of its ``near_me`` count or -1, the same for
    the opponent), the captures a turn reaches, the goal row, both home rows and the rows
    before them, and both zones within a turn's steps of the goal row (``_zone``)."""
    key = (v.name, side)
    try:
        return _CONSTANTS[key]
    except KeyError:
        pass
    g = v.geometry
    last = g.ranks - 1
    ranks = []
    for r, mask in enumerate(g.rank_masks):
        togo_me = (last - r) if side == 0 else r
        togo_op = r if side == 0 else (last - r)
        ranks.append((mask, last - togo_me, togo_me - 1 if 0 < togo_me <= v.steps else -1,
                      last - togo_op, togo_op - 1 if 0 < togo_op <= v.steps else -1))
    max_caps = max(1, (v.steps - 1) // max(1, v.attack_cost - 1))
    if v.max_chain is not None:
        max_caps = min(max_caps, v.max_chain * max(1, v.steps // (v.attack_cost + 1)))
    masks = g.rank_masks
    out = (tuple(ranks), max_caps, g.goal_row(side), g.home_row(side), g.home_row(1 - side),
           masks[1] if side == 0 else masks[-2], masks[-2] if side == 0 else masks[1],
           _zone(g, v.steps, side), _zone(g, v.steps, 1 - side))
    _CONSTANTS[key] = out
    return out


_ZONES: dict[tuple[int, int, int, int], int] = {}


def _zone(g: Geometry, steps: int, side: int) -> int:
    """The squares from which ``side`` reaches its goal row within one turn's steps (not on
    it), computed once per board."""
    key = (g.files, g.ranks, steps, side)
    try:
        return _ZONES[key]
    except KeyError:
        zone = 0
        for mask, togo in progress_masks(g, side):
            if 0 < togo <= steps:
                zone |= mask
        _ZONES[key] = zone
        return zone


def feature_names(v: Variant) -> list[str]:
    return (["material", "hang_first", "hang_more", "my_threat", "defended", "adv_me",
             "adv_op", "invaders"] + [f"near_me_{k}" for k in range(1, v.steps + 1)]
            + [f"near_op_{k}" for k in range(1, v.steps + 1)]
            + ["home_me", "home_op", "second_me", "second_op", "free_runners_me",
               "free_runners_op", "home_cover_me", "home_cover_op"])


def hand_weights(v: Variant) -> tuple[int, ...]:
    """The hand-set weights (the evaluation before issue 25's tuning), as a weight vector."""
    s = v.steps
    return (PIECE, -HANG_FIRST, -HANG_MORE, MY_THREAT, DEFENDED, RANK, -RANK, INVADER,
            *(NEAR_GOAL_MOVER * (s - k + 1) for k in range(1, s + 1)),
            *(-NEAR_GOAL_TO_MOVE * (s - k + 1) for k in range(1, s + 1)),
            0, 0, 0, 0, 0, 0, 0, 0)


# Weights fitted to self-play (``benchmarks/tune_evaluation.py``: a logistic regression of 138
# games' results between levels 3-5 on these features, ridge towards the hand-set weights;
# BENCHMARKS.md, issue 25) for the levels with ``Level.tuned``. Standard only: the 6-step
# variants have other features (near_*_5, near_*_6) and no games of their own yet, so they
# keep the hand-set weights at every level.
TUNED: dict[str, tuple[int, ...]] = {
    "standard": (100, -88, -39, 17, -12, 0, 2, 27, 45, 40, 0, 9, -116, -72, -22, -33, 13, -7,
                 16, -14, 37, -22, -3, 4),
}
# The second round (level 8): refitted to 153 games of level 5's search with these weights
# against itself (noise 20, a slip in twenty turns; ``tune_evaluation.py games --games 153
# --levels 5 --tuned --noise 20 --slip 0.05 --seed-base 300000``, then ``fit --l2 100 --hold
# material --prior fitted --holdout``), the ridge pulling towards ``TUNED``. Games between
# *equal* players: a refit to games of unequal levels learns the stronger level's style, not
# what wins (it played 6 of 31 against level 7). It weighs the home row's and the next row's
# defenders far more (R10: an invasion must be answered next turn) and the free runners less.
REFITTED: dict[str, tuple[int, ...]] = {
    "standard": (100, -96, -36, 4, -21, -2, -1, 27, 38, 13, 5, 21, -114, -45, -27, -13, 85, -78,
                 68, -60, 11, -15, 9, -16),
}
FITTED = {1: TUNED, 2: REFITTED}  # ``Level.tuned``: which round of fitted weights
_HAND: dict[str, tuple[int, ...]] = {}


def weights(v: Variant, tuned: int = 0) -> tuple[int, ...]:
    """The weights of ``features`` for ``v``: round ``tuned`` of the fitted ones (1: ``TUNED``,
    2: ``REFITTED``) where asked for and fitted, the hand-set ones otherwise."""
    fitted = FITTED.get(int(tuned), {})
    if v.name in fitted:
        return fitted[v.name]
    try:
        return _HAND[v.name]
    except KeyError:
        w = _HAND[v.name] = hand_weights(v)
        return w


def evaluate(v: Variant, me: int, op: int, side: int,
             w: tuple[int, ...] | None = None) -> int:
    """The score of the board for ``side`` (owning ``me``) whose turn has just ended, weighed
    by ``w`` (default: the hand-set weights of ``v``)."""
    return sum(map(int.__mul__, w or weights(v), features(v, me, op, side)))


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
