"""R10: can the side to move remove every invader in one turn?

An exhaustive search over the defender's turns, made with the same ``TurnState`` the players use
(one code path for the rules), pruned by an admissible bound on the steps still needed and by a
transposition set (moves commute, so many step orders reach the same state). Every invader stands
on the defender's home row, so each can be taken by an honor capture that needs no exit (R8).
"""

from __future__ import annotations

from .steps import CAPTURE, END, PASS
from .turn import TurnState, iter_bits


def _steps_needed(st: TurnState, invaders: int) -> int:
    """A lower bound on the steps needed to capture every remaining invader and close.

    Each invader costs ``attack_cost - 1`` to capture plus one closing step for the last; before
    invader t can be captured two defenders must stand next to it, and every relocation of a
    piece by one square costs at least one step, less whatever earlier invader captures moved.
    """
    g, v = st.g, st.v
    k = invaders.bit_count()
    need = k * (v.attack_cost - 1) + 1
    stride = g.stride
    mine = list(iter_bits(st.me))
    worst = 0
    for t in iter_bits(invaders):
        tr, tf = divmod(t, stride)
        d1 = d2 = 1 << 30
        for p in mine:
            pr, pf = divmod(p, stride)
            d = abs(pr - tr) + abs(pf - tf) - 1
            if d < d1:
                d1, d2 = d, d1
            elif d < d2:
                d2 = d
        worst = max(worst, d1 + d2)
    return need + max(0, worst - (k - 1))


def can_remove_all_invaders(st: TurnState) -> bool:
    """True when some legal turn from ``st`` (a fresh turn of the defender) takes every invader."""
    invaders = st.honor
    if not invaders:
        return True
    seen: set[tuple[int, ...]] = set()
    return _search(st, invaders, seen)


def _search(st: TurnState, invaders: int, seen: set[tuple[int, ...]]) -> bool:
    remaining = st.op & invaders
    if not remaining:
        return True  # a capture is only offered when its chain can be closed (R7)
    if st.v.steps - st.used < _steps_needed(st, remaining):
        return False
    key = (st.me, st.op, st.used, st.chain, st.came, st.links, st.honor_open)
    if key in seen:
        return False
    seen.add(key)
    steps = st.legal()
    steps.sort(key=lambda s: s[0] != CAPTURE)  # captures first: they reach the goal fastest
    for kind, a, b in steps:
        if kind in (END, PASS):
            continue
        child = st.copy()
        child.apply(kind, a, b)
        if _search(child, invaders, seen):
            return True
    return False
