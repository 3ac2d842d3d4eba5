"""Whole tafl games for the site's end-to-end tests, found by seeded random walks (the same
game every run): the steps as the wire sends them, with the seat that sends each."""

from __future__ import annotations

import random

from play.games.tafl import Rules, TaflGame, decode

Steps = list[tuple[str, dict[str, str]]]


def _enclosing(g: TaflGame) -> list[int]:
    """The moves of the side to move that leave a T8 removal to choose."""
    pos, out = g.pos, []
    for move in pos.legal_moves():
        pos.push(move)
        if pos.pending:
            out.append(move)
        pos.pop()
    return out


def walk(game: str, n: int, seed: int, max_plies: int = 400,
         removal: bool = False) -> tuple[Steps, TaflGame]:
    """One seeded random game of ``game`` on ``n``x``n`` (``removal``: the walk plays a move
    that leaves a T8 choice whenever one is there, until one is made)."""
    rng = random.Random(seed)
    g = TaflGame(Rules(game, n))
    steps: Steps = []
    chose = False
    while g.result is None and g.pos.plies < max_plies:
        side = ("attackers", "defenders")[g.pos.to_move]
        enclosing = _enclosing(g) if removal and not chose else []
        frm, to = decode(rng.choice(enclosing or g.pos.legal_moves()))
        steps.append((side, {"move": f"{g.geo.name(frm)}-{g.geo.name(to)}"}))
        g.move(frm, to)
        while g.pos.pending:
            sq = rng.choice(g.pos.removal_choices())
            steps.append((side, {"remove": g.geo.name(sq)}))
            chose = True
            g.remove(sq)
    return steps, g


def finished_game(game: str, n: int, max_plies: int = 400, removal: bool = False,
                  decisive: bool = True) -> tuple[Steps, TaflGame]:
    """The first seeded walk that ends on the board (won, when ``decisive``; with a T8
    choice made, when ``removal``)."""
    for seed in range(500):
        steps, g = walk(game, n, seed, max_plies, removal)
        if g.result is None or (decisive and g.result[0] is None):
            continue
        if removal and not any("remove" in s for _, s in steps):
            continue
        return steps, g
    raise AssertionError(f"no such {game} {n}x{n} game")  # pragma: no cover
