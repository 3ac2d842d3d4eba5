"""Positions for the Talat tests: towers put straight on the boards, play under way."""

from __future__ import annotations

import random

from play.games.talat import Position, TalatGame
from play.games.talat.board import board_names, kind_of, parse_square


def position(towers: dict[str, str], to_move: str = "1", variant: str = "three") -> Position:
    """A position in play with ``towers`` ({"12:c3": "1:M6"}) on the boards and every other
    tower placed off them (so nobody places again), frozen boards judged (A7)."""
    pos = Position(variant)
    boards = board_names(variant)
    for hand in pos.hand:
        hand[:] = [False] * 9
    for square, tower in towers.items():
        seat, kind = tower.split(":")
        t = pos.seats.index(seat) * 9 + kind_of(kind)
        sq = parse_square(square, boards)
        pos.board[sq], pos.where[t] = t, sq
    pos.placed = 26 if variant == "two" else 27
    pos._start_play(pos.seats.index(to_move))
    return pos


def game(towers: dict[str, str], to_move: str = "1", variant: str = "three") -> TalatGame:
    g = TalatGame(variant)
    g.pos = position(towers, to_move, variant)
    return g


def random_game(seed: int, variant: str, turns: int | None = None) -> TalatGame:
    """A game of random legal actions, to the end or ``turns`` turns."""
    rng = random.Random(seed)
    g = TalatGame(variant)
    while not g.finished and (turns is None or len(g.lines) < turns):
        g.play(rng.choice(g.pos.legal()))
    return g
