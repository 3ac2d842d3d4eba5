"""Where to place a tower (A3, A11), by a one-turn look with the evaluation rather than a
search: a placement changes nothing until play starts, so what counts is whom each tower will
face. ``evaluate`` rewards a tower placed on the board where it beats the opposing towers
already there and is beaten by few (pairs that can meet, A7's test), material by kind
(``STRENGTH``), and Zihin's towers (A11) on the board where they play for the placer. A
small preference for the middle files (more diagonal paths, A4) settles ties, so the first
placements, with nobody to face yet, spread over the start lines rather than crowd a corner.
"""

from __future__ import annotations

import random

from play.games.searching import Budget, BudgetExhausted

from ..position import PLACE, Position
from .evaluate import evaluate

MIDDLE = 12  # hundredths of a point for each file nearer the middle


def placement_scores(pos: Position, budget: Budget) -> dict[int, int]:
    """Each legal placement's worth for the seat placing (``pos`` unchanged), each one a node
    of ``budget``: those looked at before it ran out."""
    seat = pos.to_move
    out: dict[int, int] = {}
    for a in pos.legal():
        sq = (a - PLACE) // 9
        try:
            budget.spend()
        except BudgetExhausted:
            break
        pos.push(a)
        try:
            out[a] = evaluate(pos, seat) - MIDDLE * abs(sq % 5 - 2)
        finally:
            pos.pop()
    return out


def choose_placement(pos: Position, noise: int, rng: random.Random,
                     budget: Budget) -> tuple[int, int]:
    """The best placement (with ``noise``, a level's misjudgement) and its worth; with no
    node left to look, the first legal one."""
    scores = placement_scores(pos, budget)
    if not scores:
        return pos.legal()[0], 0
    order = sorted(scores)
    jitter = {a: rng.randint(-noise, noise) if noise else 0 for a in order}
    best = max(order, key=lambda a: (scores[a] + jitter[a], -order.index(a)))
    return best, scores[best]
