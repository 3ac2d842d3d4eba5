"""Positions for the tafl rulings' tests, written as pieces on squares."""

from __future__ import annotations

from play.games.tafl import Position, Rules, geometry
from play.games.tafl.board import PIECES, SIDE_NAMES


def setup(pieces: str, n: int = 7, game: str = "tafl", to_move: str = "attackers",
          immunity: bool = False) -> Position:
    """A position from "t: a1 b2, T: c3, K: d4" (OTN letters: t attacker, T defender, K king)."""
    geo = geometry(n, game == "tablut")
    board = bytearray(n * n)
    for part in pieces.split(","):
        letter, squares = part.split(":")
        for sq in squares.split():
            board[geo.square(sq)] = PIECES[letter.strip()]
    return Position(Rules(game, n, immunity), board, SIDE_NAMES.index(to_move))


def play(pos: Position, move: str) -> list[str]:
    """Play "e4-e7" (checked) and return the squares its turn removed so far."""
    geo = pos.geo
    frm, to = (geo.square(s) for s in move.lstrip("K").split("-"))
    pos.play(frm, to)
    caps = pos.history[-1].captured if not pos.pending else pos.turn_caps
    return [geo.name(sq) for sq, _ in caps]


def piece(pos: Position, sq: str) -> str:
    return ".tTK"[pos.board[pos.geo.square(sq)]]


def names(pos: Position, squares: list[int]) -> list[str]:
    return [pos.geo.name(s) for s in squares]


def moves_from(pos: Position, sq: str) -> list[str]:
    s = pos.geo.square(sq)
    return sorted(pos.geo.name(m & 511) for m in pos.legal_moves() if m >> 9 == s)
