"""A Talat position in play set up from its towers (``{"12:c3": "1:M6"}``): the lessons'
positions (``lessons.py``) and the tests'. Every tower not named is out of its seat's hand,
as if placed off the boards, so nobody places again; the frozen boards are judged (A7) as
the first move of a game would judge them."""

from __future__ import annotations

from collections.abc import Mapping

from .board import board_names, kind_of, parse_square
from .game import TalatGame
from .position import Position


def position(towers: Mapping[str, str], to_move: str = "1", variant: str = "three") -> Position:
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


def game(towers: Mapping[str, str], to_move: str = "1", variant: str = "three") -> TalatGame:
    g = TalatGame(variant)
    g.pos = position(towers, to_move, variant)
    return g
