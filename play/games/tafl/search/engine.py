"""Alpha-beta over tafl moves: iterative deepening, a transposition table on the position's
Zobrist hash, move ordering (the table's move, captures, king moves, killers, history) and a
node budget (``budget.Budget``).

A move is one ``Position.push`` and, when it encloses enemy groups in tafl (T8), the mover's
removal choices, made as part of the move: the search picks, for each pending group, the piece
whose removal leaves the best position for the mover (``best_removals``), so a node's
children are whole turns. A finished game scores a win sooner higher (``WIN - ply``); a leaf
is scored by ``evaluate`` (which sees a win at hand for the side to move).
"""

from __future__ import annotations

import random

from play.games.searching import Budget, BudgetExhausted, RootResult, interrupted

from ..board import ATTACKERS, KING
from ..position import OWNER, Position
from .evaluate import WIN, evaluate
from .levels import Level

INF = 10 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 400_000  # entries before the table is cleared (memory of a long search)
MAX_PLY = 64


def terminal(pos: Position, ply: int) -> int:
    """A finished game's worth for the side to move: a win sooner scores higher."""
    assert pos.result is not None
    winner = pos.result[0]
    if winner is None:
        return 0
    return WIN - ply if winner == pos.to_move else -(WIN - ply)


def best_removals(pos: Position) -> list[int]:
    """Make the mover's T8 removal choices of the turn in progress (pushed on ``pos``): for
    each pending group in turn, the choice that leaves the mover best off by ``evaluate`` (a
    removal is rare, so a static look at each is cheap). Returns the squares removed."""
    chosen: list[int] = []
    mover = pos.to_move
    while pos.pending:
        best, best_sq = -INF - 1, -1
        for sq in pos.pending[0]:
            pos.push_removal(sq)
            depth = 1
            while pos.pending:  # later groups: their first choice, for this look only
                pos.push_removal(pos.pending[0][0])
                depth += 1
            score = terminal(pos, 0) if pos.result is not None else evaluate(pos)
            if pos.to_move != mover:
                score = -score
            for _ in range(depth):
                pos.pop()
            if score > best:
                best, best_sq = score, sq
        pos.push_removal(best_sq)
        chosen.append(best_sq)
    return chosen


class Search:
    """One search of one position: its table, killers and history live as long as it."""

    def __init__(self, level: Level, rng: random.Random, budget: Budget) -> None:
        self.level = level
        self.rng = rng
        self.budget = budget
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.history: dict[int, int] = {}

    # --- making moves ---------------------------------------------------------------------
    def make(self, pos: Position, move: int) -> int:
        """Push ``move`` and its removal choices; the number of pushes to pop."""
        self.budget.spend()
        pos.push(move)
        if pos.pending:
            return 1 + len(best_removals(pos))
        return 1

    def ordered(self, pos: Position, tt_move: int, ply: int) -> list[int]:
        """The legal moves, the likeliest best first: the table's move, captures (the king's
        first), killers, the king's moves and attackers closing on him, then by history.
        Ties by the move's number, so the order is the same however the position was
        reached (a seed repeats a search)."""
        board, geo = pos.board, pos.geo
        pairs = geo.pairs
        me = pos.to_move
        k = pos.king
        near = geo.adjacent[k] if k >= 0 and me == ATTACKERS else ()
        k1, k2 = self.killers[ply] if ply <= MAX_PLY else (0, 0)
        hist = self.history
        scored = []
        for m in pos.legal_moves():
            if m == tt_move:
                scored.append((1 << 40, m))
                continue
            frm, to = m >> 9, m & 511
            sc = hist.get(m, 0)
            for adj, beyond in pairs[to]:
                q = board[adj]
                if q and OWNER[q] != me and beyond >= 0 and beyond != frm:
                    b = board[beyond]
                    if b and OWNER[b] == me:
                        sc += 4_000_000 if q == KING else 1_000_000
            if m in (k1, k2):
                sc += 500_000
            if frm == k or to in near:
                sc += 200_000
            scored.append((sc, m))
        scored.sort(reverse=True)
        return [m for _, m in scored]

    # --- the tree -------------------------------------------------------------------------
    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        if pos.result is not None:
            return terminal(pos, ply)
        if depth <= 0 or ply >= MAX_PLY:
            return evaluate(pos, ply)
        key = pos.hash
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            d, flag, score, tt_move = entry
            if d >= depth:
                if flag == EXACT:
                    return score
                if flag == LOWER and score > alpha:
                    alpha = score
                elif flag == UPPER and score < beta:
                    beta = score
                if alpha >= beta:
                    return score
        alpha0 = alpha
        best, best_move = -INF, 0
        for m in self.ordered(pos, tt_move, ply):
            pushes = self.make(pos, m)
            score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            for _ in range(pushes):
                pos.pop()
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._cutoff(m, depth, ply, pos)
                        break
        if best == -INF:  # no move: not reached (the rules end such a game, T4)
            return evaluate(pos, ply)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if len(self.tt) >= TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def _cutoff(self, move: int, depth: int, ply: int, pos: Position) -> None:
        """A move that refuted its node: a killer of its ply, and history."""
        if ply <= MAX_PLY:
            k = self.killers[ply]
            if k[0] != move:
                k[1], k[0] = k[0], move
        self.history[move] = self.history.get(move, 0) + depth * depth

    # --- the root -------------------------------------------------------------------------
    def root(self, pos: Position, moves: list[int]) -> RootResult:
        """Iterative deepening over ``moves`` (legal, at least one) to the level's depth or
        the budget: the deepest completed iteration's best move, or the best the interrupted
        one reached beyond it. The level's noise is added to each move's score once."""
        lv = self.level
        jitter = {m: self.rng.randint(-lv.noise, lv.noise) if lv.noise else 0 for m in moves}

        def judged(m: int) -> tuple[int, int]:
            # the noise blurs judgement, never a proven result (a win, or a loss later)
            sc = scores[m]
            return (sc if abs(sc) >= WIN // 2 else sc + jitter[m], -order.index(m))

        order = list(moves)
        done: RootResult | None = None
        for depth in range(1, lv.depth + 1):
            scores: dict[int, int] = {}
            alpha = -INF
            try:
                for m in order:
                    pushes = self.make(pos, m)
                    # with noise a move's score is exact down to twice the noise below the
                    # best (the noise may pick any of those); without, alpha-beta's bounds
                    lo = alpha - 2 * lv.noise if alpha > -INF else alpha
                    score = -self.negamax(pos, depth - 1, -INF, -lo, 1)
                    for _ in range(pushes):
                        pos.pop()
                    scores[m] = score
                    if score > alpha:
                        alpha = score
            except BudgetExhausted:
                return interrupted(done, scores, judged, depth)
            best = max(order, key=judged)
            done = RootResult(best, scores[best], depth, scores)
            order.sort(key=lambda m: -scores[m])  # stable: ties keep their order
            if abs(scores[best]) >= WIN // 2 and not lv.noise:
                break  # a proven result: deeper looks change nothing
        assert done is not None
        return done
