"""A game of Talat between levels of the computer, from the empty boards (the ladder's tests
and ``benchmarks/bench_talat_search.py``): deterministic for a seed, budgets in nodes only."""

from __future__ import annotations

from dataclasses import dataclass

from ..notation import parse_action, write_action
from ..position import Position
from . import choose_action

MAX_TURNS = 400  # never reached: every turn of play moves a tower forward or takes one (A4)


@dataclass(frozen=True)
class Played:
    ranks: dict[int, int]  # by seat index (A8)
    scores: tuple[int, ...]
    reason: str
    turns: int
    nodes: int  # every seat's search nodes
    cpu: float  # every seat's CPU seconds of search


def play(variant: str, levels: tuple[int, ...], seed: int = 0,
         nodes: dict[int, int] | None = None) -> Played:
    """A game with seat ``i`` at level ``levels[i]`` (three levels, or two for the two-seat
    game); ``nodes`` caps a level's node budget (level -> nodes); no CPU cap, so a busy
    machine changes the time, not the game. Each action is checked by the rules' own reader
    (``parse_action``): a search that chose an illegal action fails loudly."""
    pos = Position(variant)
    spent, cpu = 0, 0.0
    nodes = nodes or {}
    while not pos.finished and pos.turns < MAX_TURNS:
        level = levels[pos.to_move]
        choice = choose_action(pos, level, seed=seed * 1000 + pos.turns,
                               nodes=nodes.get(level), seconds=0)
        spent += choice.nodes
        cpu += choice.cpu
        pos.push(parse_action(pos, write_action(pos, choice.action)))
    return Played(pos.ranks(), tuple(pos.scores[:pos.players]), pos.reason or "too_long",
                  pos.turns, spent, cpu)
