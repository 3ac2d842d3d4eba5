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

    Each invader costs ``attack_cost - 1`` to capture plus one closing step for the last.
    Before invader t falls, two *distinct* defenders must stand on two *distinct* squares next
    to it; every relocation of a piece by one square costs at least one step, less whatever
    earlier invader captures moved (at most one square each). Manhattan distances ignore
    obstacles, so the bound never overestimates and the search stays exact.
    """
    g, v = st.g, st.v
    k = invaders.bit_count()
    need = k * (v.attack_cost - 1) + 1
    coords = _coords(g)
    mine = [coords[p] for p in iter_bits(st.me)]
    far = 1 << 30
    worst = 0
    for t in iter_bits(invaders):
        best: list[tuple[int, int, int]] = []  # per neighbour square: (d1, piece of d1, d2)
        for n in iter_bits(g.neighbours[t]):
            nr, nf = coords[n]
            d1 = d2 = far
            p1 = -1
            for i, (pr, pf) in enumerate(mine):
                d = abs(pr - nr) + abs(pf - nf)
                if d < d1:
                    d1, d2, p1 = d, d1, i
                elif d < d2:
                    d2 = d
            best.append((d1, p1, d2))
        pair = far
        for i, (a1, ap, a2) in enumerate(best):
            for b1, bp, b2 in best[i + 1:]:
                cost = a1 + b1 if ap != bp else min(a1 + b2, a2 + b1)
                if cost < pair:
                    pair = cost
        worst = max(worst, pair)
    return need + max(0, worst - (k - 1))


_COORDS: dict[object, list[tuple[int, int]]] = {}


def _coords(g) -> list[tuple[int, int]]:
    """(rank, file) of every square index of a geometry, computed once."""
    key = (g.files, g.ranks)
    try:
        return _COORDS[key]
    except KeyError:
        table = [divmod(i, g.stride) for i in range(len(g.names))]
        _COORDS[key] = table
        return table


class _Undecided(Exception):
    """The search of a caller that set a limit ran out of nodes."""


def can_remove_all_invaders(st: TurnState, limit: int | None = None) -> bool:
    """True when some legal turn from ``st`` (a fresh turn of the defender) takes every invader.

    ``limit`` (the computer's search only, never the rules) caps the states visited; a search
    cut short answers True, "perhaps": the caller then never claims a win it has not proven.
    """
    invaders = st.honor
    if not invaders:
        return True
    seen: set[tuple[int, ...]] = set()
    try:
        return _search(st, invaders, seen, limit)
    except _Undecided:
        return True


def _search(st: TurnState, invaders: int, seen: set[tuple[int, ...]],
            limit: int | None = None) -> bool:
    remaining = st.op & invaders
    if not remaining:
        return True  # a capture is only offered when its chain can be closed (R7)
    if st.v.steps - st.used < _steps_needed(st, remaining):
        return False
    key = (st.me, st.op, st.used, st.chain, st.came, st.links, st.honor_open)
    if key in seen:
        return False
    seen.add(key)
    if limit is not None and len(seen) > limit:
        raise _Undecided
    steps = st.legal()
    steps.sort(key=lambda s: s[0] != CAPTURE)  # captures first: they reach the goal fastest
    for kind, a, b in steps:
        if kind in (END, PASS):
            continue
        child = st.copy()
        child.apply(kind, a, b)
        if _search(child, invaders, seen, limit):
            return True
    return False
