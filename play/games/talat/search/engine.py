"""The paranoid search for Talat's three seats (and the two-seat game's two): every other
seat is taken to play against the searching seat, so a round of turns is one alpha-beta tree
over a single value, the searcher's lead (``evaluate``). Max^n keeps each seat's own aim but
cannot prune; best-reply search needs turns out of order, which the rules' ``push`` does not
make. Paranoid over-fears a coalition, yet with the lead over the *best* other seat as the
value it is close to what a seat in a three-seat game wants: to rank first (A8).

Iterative deepening in turns (one seat's action each) on a node budget (``Budget``), move
ordering (captures first, the most valuable victim by the least valuable capturer, then
arrivals on a start line, A6, then the history of cut-offs), and at the leaves the captures
that follow (``quiesce``), so that a tower left en prise is seen. A forced pass (A4) is made
without spending a turn of depth: it is no choice.
"""

from __future__ import annotations

import random

from play.games.searching import Budget, BudgetExhausted, RootResult, interrupted

from ..board import FAR_ROW
from ..position import PASS, Position
from .evaluate import WIN, evaluate
from .levels import Level

INF = 10 * WIN
QUIESCE = 3  # captures searched beyond the depth
MAX_PLY = 40


def is_capture(pos: Position, action: int) -> bool:
    return action >= 0 and pos.board[action % 75] >= 0


class Search:
    """One search for ``seat`` (the seat to act at the root); its history lives as long."""

    def __init__(self, seat: int, level: Level, rng: random.Random, budget: Budget) -> None:
        self.seat = seat
        self.level = level
        self.rng = rng
        self.budget = budget
        self.history: dict[int, int] = {}

    # --- ordering ---------------------------------------------------------------------------
    def ordered(self, pos: Position, actions: list[int]) -> list[int]:
        """Captures first (victim's kind high, capturer's low: MVV-LVA), then arrivals on an
        opponent's start line (A6), then by history; ties by the action's number, so a seed
        repeats a search."""
        board, hist = pos.board, self.history
        scored = []
        for a in actions:
            frm, to = divmod(a, 75)
            t, victim = board[frm], board[to]
            if victim >= 0:
                sc = 1_000_000 + (victim % 9) * 1000 - (t % 9) * 10
            elif FAR_ROW[t // 9][to] == to % 25 // 5:
                sc = 500_000
            else:
                sc = hist.get(a, 0)
            scored.append((-sc, a))
        scored.sort()
        return [a for _, a in scored]

    def captures(self, pos: Position) -> list[int]:
        acts = pos.legal()
        if acts == [PASS]:
            return []
        return self.ordered(pos, [a for a in acts if pos.board[a % 75] >= 0])

    # --- the tree ---------------------------------------------------------------------------
    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        if pos.finished:
            return evaluate(pos, self.seat)
        if depth <= 0 or ply >= MAX_PLY:
            return self.quiesce(pos, alpha, beta, QUIESCE)
        actions = pos.legal()
        if actions == [PASS]:  # A4: forced, no choice: no depth spent
            self.budget.spend()
            pos.push(PASS)
            try:
                return self.search(pos, depth, alpha, beta, ply + 1)
            finally:
                pos.pop()
        maxing = pos.to_move == self.seat
        best = -INF if maxing else INF
        for a in self.ordered(pos, actions):
            self.budget.spend()
            pos.push(a)
            try:
                score = self.search(pos, depth - 1, alpha, beta, ply + 1)
            finally:
                pos.pop()
            if maxing:
                if score > best:
                    best = score
                    alpha = max(alpha, score)
            elif score < best:
                best = score
                beta = min(beta, score)
            if alpha >= beta:
                if not is_capture(pos, a):
                    self.history[a] = self.history.get(a, 0) + depth * depth
                break
        return best

    def quiesce(self, pos: Position, alpha: int, beta: int, left: int) -> int:
        """The leaf's worth with the captures of the seats to act that follow (each seat may
        also stand pat: a capture is never compulsory, A5)."""
        stand = evaluate(pos, self.seat)
        if pos.finished or left <= 0:
            return stand
        maxing = pos.to_move == self.seat
        if maxing:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
        else:
            if stand <= alpha:
                return stand
            beta = min(beta, stand)
        best = stand
        for a in self.captures(pos):
            self.budget.spend()
            pos.push(a)
            try:
                score = self.quiesce(pos, alpha, beta, left - 1)
            finally:
                pos.pop()
            if maxing:
                if score > best:
                    best = score
                    alpha = max(alpha, score)
            elif score < best:
                best = score
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best

    # --- the root ---------------------------------------------------------------------------
    def root(self, pos: Position, actions: list[int]) -> RootResult:
        """Iterative deepening over ``actions`` (legal, at least one) to the level's depth or
        the budget: the deepest completed iteration's best action, or the best the interrupted
        one found when it beats that. The level's noise is added to each action's score once,
        never to a proven end."""
        lv = self.level
        jitter = {a: self.rng.randint(-lv.noise, lv.noise) if lv.noise else 0
                  for a in actions}
        order = self.ordered(pos, actions)

        def judged(a: int) -> tuple[int, int]:
            sc = scores[a]
            return (sc if abs(sc) >= WIN // 2 else sc + jitter[a], -order.index(a))

        done: RootResult | None = None
        for depth in range(1, lv.depth + 1):
            scores: dict[int, int] = {}
            alpha = -INF
            try:
                for a in order:
                    self.budget.spend()
                    pos.push(a)
                    try:
                        # with noise a score is exact down to twice the noise below the best
                        lo = alpha - 2 * lv.noise if alpha > -INF else alpha
                        score = self.search(pos, depth - 1, lo, INF, 1)
                    finally:
                        pos.pop()
                    scores[a] = score
                    alpha = max(alpha, score)
            except BudgetExhausted:
                return interrupted(done, scores, judged, depth)
            best = max(order, key=judged)
            done = RootResult(best, scores[best], depth, scores)
            order.sort(key=lambda a: -scores[a])  # stable: ties keep their order
            if abs(scores[best]) >= WIN // 2 and not lv.noise:
                break  # a proven end: deeper looks change nothing
        assert done is not None
        return done
