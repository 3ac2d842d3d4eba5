"""Positions for the Talat tests: towers put straight on the boards, play under way."""

from __future__ import annotations

import random

from play.games.talat import TalatGame
from play.games.talat.setup import game, position

__all__ = ["game", "position", "random_game"]


def random_game(seed: int, variant: str, turns: int | None = None) -> TalatGame:
    """A game of random legal actions, to the end or ``turns`` turns."""
    rng = random.Random(seed)
    g = TalatGame(variant)
    while not g.finished and (turns is None or len(g.lines) < turns):
        g.play(rng.choice(g.pos.legal()))
    return g
