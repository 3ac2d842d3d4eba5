"""Alpha-beta over whole turns, with iterative deepening and a node budget.

The tree's nodes are turns, not steps: each node's children are the turns ``turns.generate``
finds for the side to move (a beam over steps with transposition pruning), best first, so the
alpha-beta cuts early. A leaf is scored by the static evaluation of the board after the last
turn (``evaluate``), a finished game by ``judge`` (R11), a win sooner scoring higher.

At the root the search also looks for an immediate win first (``find_win``), weighs the
passing conventions the game's history makes dangerous (R12-R14: a turn that repeats a
position or, for a warned player, engages nothing counts as a pass; a third one forfeits or
nulls the game), and adds the level's noise. At the levels that slip, a turn is now and then
walked at random instead of searched (``Level.slip``, after the look for a win at hand).
When the budget runs out mid-iteration, the last completed iteration's choice stands, or the
best of the candidates the interrupted one reached.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..steps import END, PASS
from ..turn import IStep, TurnState
from .evaluate import WIN, evaluate, weights
from .levels import WIN_NODES, Level
from .turns import Budget, BudgetExhausted, Candidate, find_win, generate

PASS_RISK = 60  # a turn that counts as a pass but ends nothing (R12)
INNER_WIN_NODES = 300  # the search for the side to move's immediate win below the root
WIN_SEARCH_SHARE = 10  # the root's immediate-win search: a tenth of the budget, or WIN_NODES


@dataclass
class History:
    """What the root needs of the game so far for the passing conventions (R12-R14)."""

    seen: frozenset[tuple[int, int, int]] = frozenset()  # (I bits, O bits, side to move)
    own_passes: int = 0  # the mover's last own turns counting as passes, in a row (max 2 used)
    game_passes: int = 0  # the game's last turns counting as passes, in a row
    warned: bool = False  # the mover is warned (R14): non-engaging turns count as passes
    before: tuple[int, int] = (0, 0)  # the mover's (me, op) when the turn began


@dataclass
class Result:
    steps: list[IStep]
    score: int
    nodes: int
    depth: int  # the deepest completed iteration
    candidates: int = 0
    scores: list[tuple[int, list[IStep]]] = field(default_factory=list)


def counts_as_pass(st: TurnState, history: History) -> bool:
    """Would the turn ending in ``st`` count as a pass (R12: R13 stalling, R14 if warned)?"""
    me, op = st.me, st.op
    side = st.side
    if st.used == 0:
        return True
    i_bits, o_bits = (me, op) if side == 0 else (op, me)
    if (me, op) == history.before or (i_bits, o_bits, 1 - side) in history.seen:
        return True
    if history.warned and not st.captures:
        g = st.g
        my0, op0 = history.before
        threat0 = op0 & g.overlap(my0)
        threat1 = op & g.overlap(me)
        if not (threat1 & ~threat0) and g.distance_sum(me, side) >= g.distance_sum(my0, side):
            return True
    return False


def _pass_penalty(st: TurnState, history: History) -> int | None:
    """The root's view of a turn that counts as a pass: a loss, a null, or a small cost."""
    if not counts_as_pass(st, history):
        return None
    if history.own_passes >= 2:
        return -WIN // 2  # R12: a third own pass forfeits
    if history.game_passes >= 2:
        return 0  # R12: three in a row of the game: null
    return -PASS_RISK


class Search:
    """One search for the turn of ``root`` at ``level``."""

    def __init__(self, level: Level, rng: random.Random, budget: Budget) -> None:
        self.level = level
        self.rng = rng
        self.budget = budget
        self.weights: tuple[int, ...] | None = None  # the evaluation's, set by ``run``

    # --- the tree below the root ---------------------------------------------------------
    def negamax(self, st: TurnState, depth: int, alpha: int, beta: int, ply: int) -> int:
        if not st.honor & st.op and find_win(st.copy(), self.budget, INNER_WIN_NODES):
            return WIN - ply  # the beam may miss a walk to the goal row; this does not
        cands = generate(st, self.level.inner_width, self.budget, w=self.weights)
        if not cands:  # no step at all: the pass is the only turn
            after = TurnState(st.v, 1 - st.side, st.op, st.me)
            if depth <= 1:
                return evaluate(st.v, st.me, st.op, st.side, self.weights)
            return -self.negamax(after, depth - 1, -beta, -alpha, ply + 1)
        best = -WIN * 2
        for sc, fin in cands[: self.level.inner_width]:
            if sc >= WIN or sc <= -WIN:
                val = sc - ply if sc > 0 else sc + ply
            elif depth <= 1:
                val = sc
                if self.level.leaf_wins and self.loses_at_once(fin):
                    val = -(WIN - ply - 1)
            else:
                child = TurnState(st.v, 1 - st.side, fin.op, fin.me)
                val = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if val > best:
                best = val
            if val > alpha:
                alpha = val
            if alpha >= beta:
                break
        return best

    def loses_at_once(self, fin: TurnState) -> bool:
        """After the turn ending in ``fin``, does the opponent win at once (an invasion it
        cannot be answered, R10, or an elimination)? The leaf's one look further: a static
        score cannot see a walk to the goal row through a gap the turn left open, and an
        invasion race is lost or won by exactly that (levels with ``leaf_wins``)."""
        reply = TurnState(fin.v, 1 - fin.side, fin.op, fin.me)
        if reply.honor & reply.op:  # the reply must answer the honor rule first (R10)
            return False
        return find_win(reply, self.budget, self.level.leaf_wins) is not None

    # --- the root ------------------------------------------------------------------------
    def run(self, root: TurnState, history: History) -> Result:
        lv = self.level
        start = len(root.steps)
        self.weights = weights(root.v, lv.tuned)
        if not root.honor & root.op:
            # Under the honor rule (R10) the removal of the invaders comes first: the budget
            # goes to ``generate``, whose honor search runs before anything else.
            win = find_win(root.copy(), self.budget, max(WIN_NODES, lv.nodes // WIN_SEARCH_SHARE))
            if win is not None:
                return Result(_turn_steps(win, start), WIN, self.budget.nodes, 1, 1)
        if lv.slip and not root.honor & root.op and self.rng.random() < lv.slip:
            # The level's slip (levels.py): this turn is not searched but walked at random,
            # step by step among the legal steps, like a beginner's; a win at hand was
            # already taken above, and the honor rule (R10) is always answered by the search.
            # Not a turn that would count as a pass for the second time running (R12).
            fin = _random_walk(root.copy(), self.rng)
            if fin.used and not (history.own_passes and counts_as_pass(fin, history)):
                self.budget.afford(len(fin.steps) - start)  # the states the walk visited
                return Result(_turn_steps(fin, start), 0, self.budget.nodes, 0, 0)
        cands = generate(root.copy(), lv.root_width, self.budget, soft=True, w=self.weights)
        if not cands:
            steps: list[IStep] = [(PASS, -1, -1)] if root.used == 0 else [(END, -1, -1)]
            return Result(steps, 0, self.budget.nodes, 0, 0)
        adjusted: list[Candidate] = []
        for sc, fin in cands:
            if -WIN < sc < WIN:
                pen = _pass_penalty(fin, history)
                if pen is not None:
                    sc = pen if pen in (0, -WIN // 2) else sc + pen
            adjusted.append((sc, fin))
        adjusted.sort(key=lambda x: -x[0])
        noise = [self.rng.randint(-lv.noise, lv.noise) if lv.noise else 0 for _ in adjusted]
        # Depth 1 is the generation itself: every candidate is scored.
        best_scores = {id(fin): sc for sc, fin in adjusted}
        depth_done = 1
        top = adjusted[: lv.root_width]
        for depth in range(2, lv.depth + 1):
            scores: dict[int, int] = {}
            alpha = -WIN * 2
            try:
                for sc, fin in top:
                    settled = sc >= WIN or sc <= -WIN // 2
                    if settled or (sc == 0 and _is_terminal_null(fin, history)):
                        val = sc
                    else:
                        child = TurnState(fin.v, 1 - fin.side, fin.op, fin.me)
                        val = -self.negamax(child, depth - 1, -WIN * 2, -alpha + lv.noise, 1)
                        pen = _pass_penalty(fin, history)
                        if pen is not None and pen not in (0, -WIN // 2):
                            val += pen
                    scores[id(fin)] = val
                    alpha = max(alpha, val)
            except BudgetExhausted:
                # The candidates this iteration did reach (the best first, by the last
                # ordering) are judged deeper than the rest: play among them, unless every
                # one of them is a proven loss.
                if scores and max(scores.values()) > -WIN // 2:
                    best_scores.update(scores)
                    depth_done = depth
                    top = [c for c in top if id(c[1]) in scores]
                break
            best_scores.update(scores)
            depth_done = depth
            top.sort(key=lambda x: -best_scores[id(x[1])])
        if depth_done == 1 and lv.safety:
            # A look at the reply for the levels that search one turn deep: a turn after
            # which the opponent wins at once (an unanswerable invasion, R10) is a loss.
            try:
                for sc, fin in top:
                    if -WIN < sc < WIN:
                        reply = TurnState(fin.v, 1 - fin.side, fin.op, fin.me)
                        if not reply.honor & reply.op and find_win(
                                reply, self.budget, INNER_WIN_NODES):
                            best_scores[id(fin)] = -WIN + 1
            except BudgetExhausted:
                pass
            pool = top
        else:
            pool = top if depth_done > 1 else adjusted
        ranked = sorted(
            ((best_scores[id(fin)] + noise[i], i, fin) for i, (_, fin) in enumerate(pool)),
            key=lambda x: (-x[0], x[1]))
        _score, _, fin = ranked[0]
        return Result(_turn_steps(fin, start), best_scores[id(fin)], self.budget.nodes,
                      depth_done, len(cands),
                      [(s, _turn_steps(f, start)) for s, _, f in ranked[:5]])


def _is_terminal_null(fin: TurnState, history: History) -> bool:
    return history.game_passes >= 2 and counts_as_pass(fin, history)


def _random_walk(st: TurnState, rng: random.Random) -> TurnState:
    """A random legal turn from ``st``: random steps (never a pass, R12) until it ends."""
    while True:
        steps = [s for s in st.legal() if s[0] not in (END, PASS)]
        if st.chain < 0 and st.used:
            steps.append((END, -1, -1))
        if not steps:
            return st
        kind, a, b = rng.choice(steps)
        if kind == END:
            return st
        st.apply(kind, a, b)
        if st.used >= st.v.steps and st.chain < 0:
            return st


def _turn_steps(fin: TurnState, start: int) -> list[IStep]:
    """The steps the turn adds from the root on, with ``end`` when steps remain (R9)."""
    steps = list(fin.steps[start:])
    if fin.used < fin.v.steps:
        steps.append((END, -1, -1))
    return steps
