"""A game between two levels of the computer, from the opening (the level ladder's tests and
``benchmarks/bench_tafl_search.py``): deterministic for a seed, budgets in nodes only."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import ATTACKERS
from ..position import Position, Rules
from . import choose_move

MAX_PLIES = 300  # a game this long counts as a draw here (T10 usually ends it sooner)


@dataclass(frozen=True)
class Played:
    winner: int | None  # the side that won, None for a draw
    reason: str
    plies: int
    nodes: int  # both sides' search nodes


def play(rules: Rules, attackers: int, defenders: int, seed: int = 0,
         nodes: dict[int, int] | None = None) -> Played:
    """Level ``attackers`` against level ``defenders``; ``nodes`` caps a level's node budget
    (level -> nodes); no CPU cap, so a busy machine changes the time, not the game."""
    pos = Position(rules)
    spent = 0
    nodes = nodes or {}
    while pos.result is None and pos.plies < MAX_PLIES:
        level = attackers if pos.to_move == ATTACKERS else defenders
        choice = choose_move(pos, level, seed=seed * 1000 + pos.plies,
                             nodes=nodes.get(level), seconds=0)
        spent += choice.nodes
        if choice.resign:
            return Played(1 - pos.to_move, "resigned", pos.plies, spent)
        assert choice.move is not None
        pos.play(choice.move >> 9, choice.move & 511)  # checked: a search bug fails loudly
        for sq in choice.removals:
            pos.remove(sq)
    if pos.result is None:
        return Played(None, "too_long", pos.plies, spent)
    return Played(pos.result[0], pos.result[1], pos.plies, spent)
