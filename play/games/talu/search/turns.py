"""Whole turns from the step API: a turn is a sequence of steps, so the search works on turns.

Many step orders reach the same turn (moves commute), so every generator keys the states it has
seen by the turn's whole bookkeeping (board, steps used, open chain) and never expands one
twice: the transposition pruning that turns thousands of step orders into hundreds of turns.

- ``generate``: a beam over steps. Each step layer keeps the ``width`` best partial turns by
  the static evaluation; every state whose chain is closed is a turn that may end there (R9).
  The turns found are judged (R11) where the judgment can differ from the evaluation.
- ``honor_states``: when the opponent's invaders stand on the mover's home row (R10), an
  exhaustive, pruned search (the bound of ``invasion.py``) for the partial turns that have
  removed them all; the beam continues from those, so the honor rule is answered whenever any
  legal turn answers it, not only when the beam happens to see it.
- ``find_win``: a pruned depth-first search for a turn that wins at once, by elimination or by
  an invasion the opponent cannot answer (R10, R11).

Every state visited is counted on a ``Budget``; inner searches stop when it runs out.
"""

from __future__ import annotations

import time

from ..invasion import _steps_needed
from ..steps import CAPTURE, END, MOVE, PASS, STAY
from ..turn import IStep, TurnState, iter_bits
from .evaluate import WIN, evaluate, judge, progress_masks

HONOR_PENALTY = 5_000  # per invader still standing: a turn ending so loses (R10, R11 (2))
# An exact R10 check (can the opponent remove every invader?) visits up to ``ANSWER_LIMIT``
# states of its own, each dearer than a step: it is counted as this many nodes.
JUDGE_NODES = 25

Candidate = tuple[int, TurnState]  # (score for the mover, final state of the turn)


class BudgetExhausted(Exception):
    """The search has spent its node budget or its time."""


class Budget:
    """Nodes spent, against a limit and two time caps checked every 512 nodes: ``seconds`` of
    the thread's own CPU (a level thinks as much on a busy machine as on a quiet one, only
    more slowly: the pool's processes get the CPU nobody else wants) and ``wall`` seconds of
    real time (the clock's hard limit, R36: however starved, the search stops by then)."""

    __slots__ = ("cpu_deadline", "deadline", "limit", "nodes", "turns")

    def __init__(self, limit: int, seconds: float | None = None,
                 wall: float | None = None) -> None:
        self.limit = limit
        self.nodes = 0
        self.turns = 0  # whole turns generated (distinct end positions), for the benchmarks
        self.cpu_deadline = time.thread_time() + seconds if seconds else None
        self.deadline = time.monotonic() + wall if wall else None

    def _late(self) -> bool:
        return ((self.cpu_deadline is not None and time.thread_time() > self.cpu_deadline)
                or (self.deadline is not None and time.monotonic() > self.deadline))

    @property
    def exhausted(self) -> bool:
        if self.nodes >= self.limit:
            return True
        if not self.nodes & 511:
            return self._late()
        return False

    def afford(self, n: int) -> bool:
        """Count ``n`` nodes if the budget has them; False (counting none) otherwise."""
        if self.nodes + n > self.limit:
            return False
        self.nodes += n
        return True

    def spend(self, n: int = 1) -> None:
        """Count ``n`` nodes, or raise BudgetExhausted (counting none) when they would go
        beyond the budget or the time is up: the count never exceeds the limit."""
        if self.nodes + n > self.limit or (not self.nodes & 511 and self._late()):
            raise BudgetExhausted
        self.nodes += n


def _key(st: TurnState) -> tuple[int, ...]:
    return (st.me, st.op, st.used, st.chain, st.came, st.links, st.honor_open)


def _partial_score(st: TurnState, side: int, honor: int, w: tuple[int, ...] | None) -> int:
    return evaluate(st.v, st.me, st.op, side, w) - HONOR_PENALTY * (st.op & honor).bit_count()


def generate(st0: TurnState, width: int, budget: Budget, soft: bool = False,
             w: tuple[int, ...] | None = None) -> list[Candidate]:
    """The turns the beam finds from ``st0`` (a turn of its side, fresh or in progress),
    best first, each scored for the mover (terminal turns as +-WIN).

    ``soft``: stop quietly when the budget runs out (the root must always have an answer);
    otherwise raise ``BudgetExhausted``. ``w``: the evaluation's weights (default: hand-set).
    """
    v = st0.v
    side = st0.side
    honor = st0.honor
    seen: set[tuple[int, ...]] = {_key(st0)}
    finals: dict[tuple[int, int], Candidate] = {}
    if st0.used and st0.chain < 0:
        finals[(st0.me, st0.op)] = (_partial_score(st0, side, honor, w), st0)
    frontier = [st0]
    if honor & st0.op:
        # Every turn that leaves an invader standing loses (R10, R11 (2)): continue only from
        # the partial turns that removed them all, each also closed at once where its last
        # capture was an honor capture (``stay``, R8), so a found answer is always a turn.
        answers = honor_states(st0, min(8, max(4, width)), budget, seen, soft)
        for st in list(answers):
            if st.honor_open:
                closed = st.copy()
                closed.apply(STAY, -1, -1)
                answers.append(closed)
        for st in answers:
            if st.chain < 0:
                finals.setdefault((st.me, st.op), (_partial_score(st, side, honor, w), st))
        if answers:
            frontier = answers
    try:
        while frontier:
            children: list[Candidate] = []
            for st in frontier:
                for kind, a, b in st.legal():
                    if kind in (END, PASS):
                        continue
                    budget.spend()
                    c = st.copy()
                    c.apply(kind, a, b)
                    k = _key(c)
                    if k in seen:
                        continue
                    seen.add(k)
                    sc = _partial_score(c, side, honor, w)
                    if c.chain < 0:
                        board = (c.me, c.op)
                        if board not in finals:
                            finals[board] = (sc, c)
                    if c.used < v.steps or c.chain >= 0:
                        children.append((sc, c))
            children.sort(key=lambda x: -x[0])
            frontier = [c for _, c in children[:width]]
    except BudgetExhausted:
        if not soft:
            raise
    return _judged(st0, finals, budget)


def _judged(st0: TurnState, finals: dict[tuple[int, int], Candidate],
            budget: Budget) -> list[Candidate]:
    """The turns found, judged by R11 where that can differ from the evaluation; an invasion
    is judged while the budget affords it (else it keeps its evaluation: never a false win)."""
    v, g, side = st0.v, st0.g, st0.side
    goal = g.goal_row(side)
    out: list[Candidate] = []
    budget.turns += len(finals)
    for (me, op), (sc, st) in finals.items():
        if not op or op & st0.honor:
            sc = judge(v, me, op, side) or sc
        elif me & goal and budget.afford(JUDGE_NODES):
            verdict = judge(v, me, op, side)
            if verdict is not None:
                sc = verdict
        out.append((sc, st))
    out.sort(key=lambda x: -x[0])
    return out


def honor_states(st0: TurnState, limit: int, budget: Budget, seen: set[tuple[int, ...]],
                 soft: bool) -> list[TurnState]:
    """Up to ``limit`` partial turns from ``st0`` in which every invader on the mover's home
    row has been captured (R10), found by an exhaustive search pruned by the admissible bound of
    ``invasion.py`` and by transpositions."""
    invaders = st0.honor & st0.op
    found: list[TurnState] = []
    visited: set[tuple[int, ...]] = set()

    def search(st: TurnState) -> None:
        if len(found) >= limit:
            return
        if not st.op & invaders:
            k = _key(st)
            if k not in seen:
                seen.add(k)
                found.append(st)
            return
        if st.v.steps - st.used < _steps_needed(st, st.op & invaders):
            return
        k = _key(st)
        if k in visited:
            return
        visited.add(k)
        steps = st.legal()
        steps.sort(key=lambda s: s[0] != CAPTURE)
        for kind, a, b in steps:
            if kind in (END, PASS):
                continue
            budget.spend()
            c = st.copy()
            c.apply(kind, a, b)
            search(c)
            if len(found) >= limit:
                return

    try:
        search(st0)
    except BudgetExhausted:
        if not soft:
            raise
    return found


def find_win(st0: TurnState, budget: Budget, cap: int) -> TurnState | None:
    """A turn from ``st0`` that wins at once (elimination, or an invasion the opponent cannot
    answer: R10, R11), or None when none exists within ``cap`` nodes.

    First, for each piece within the turn's steps of the goal row (nearest first), the turns in
    which only that piece steps (moving, capturing its way through): most invasions are such a
    walk, found in a few dozen nodes. Then every turn, pruned by two bounds that never cut a
    win: elimination needs ``attack_cost - 1`` steps per remaining piece and a closing step; an
    invasion needs a piece no farther from the goal row than the steps left.
    """
    v, g, side = st0.v, st0.g, st0.side
    goal = g.goal_row(side)
    near = sorted(progress_masks(g, side), key=lambda m: m[1])
    togo_of: dict[int, int] = {}
    for mask, togo in near:
        for i in range(len(g.names)):
            if mask >> i & 1:
                togo_of[i] = togo
    per_capture = max(1, v.attack_cost - 1)
    stop = budget.nodes + cap

    def nearest(me: int) -> int:
        for mask, togo in near:
            if me & mask:
                return togo
        return g.ranks

    def order(s: IStep) -> tuple[int, int]:
        kind, _a, b = s
        return (0 if kind == CAPTURE else 1, togo_of.get(b, 0))

    def won(st: TurnState) -> bool:
        if st.chain >= 0 or not st.used:
            return False
        if not st.op:
            return True
        # The exact R10 check is the costly part: made when a piece has just reached the
        # goal row, or when the turn's steps are all spent with an invader standing.
        if st.me & goal and (st.used >= v.steps or goal >> st.steps[-1][2] & 1):
            budget.spend(JUDGE_NODES)
            return judge(v, st.me, st.op, side) == WIN
        return False

    def search(st: TurnState, visited: set, piece: int) -> TurnState | None:
        """Depth first; ``piece`` >= 0: only the piece on that square steps."""
        if won(st):
            return st
        left = v.steps - st.used
        if left <= 0 and st.chain < 0:
            return None
        if piece >= 0:
            if st.chain < 0 and togo_of.get(piece, 0) > left:
                return None
        elif st.op.bit_count() * per_capture + 1 > left and nearest(st.me) > left:
            return None
        k = _key(st)
        if k in visited or budget.nodes >= stop:
            return None
        visited.add(k)
        steps = st.legal()
        steps.sort(key=order)
        for kind, a, b in steps:
            if kind in (END, PASS):
                continue
            if piece >= 0 and kind in (MOVE, CAPTURE) and a != piece:
                continue
            budget.spend()
            c = st.copy()
            c.apply(kind, a, b)
            follow = -1 if piece < 0 else (c.chain if c.chain >= 0 else b if kind != STAY
                                           else piece)
            hit = search(c, visited, follow)
            if hit is not None:
                return hit
        return None

    try:
        walkers = sorted((togo_of[p], p) for p in iter_bits(st0.me)
                         if 0 < togo_of[p] <= v.steps - st0.used)
        if st0.chain < 0:
            for _, p in walkers:
                hit = search(st0, set(), p)
                if hit is not None:
                    return hit
        return search(st0, set(), -1)
    except BudgetExhausted:
        return None
