"""Deterministic random games for the rules benchmark (talu and the python-chess baseline).

Talu games are played through the public step API only (``TaluGame.legal_steps`` then
``TaluGame.play``), so every generated game is legal by construction and its notation
replays. A uniformly random step walk rarely finishes a game of talu, so the walk is biased the
way a weak but purposeful player is:

* a legal capture is taken with probability ``p_capture`` (an honor capture of an invader on our
  home row almost always, since leaving it loses the game, R8/R11);
* with a chain open, it is continued by another capture half the time, else closed (exit/stay);
* otherwise a forward move (towards the goal row) is preferred with probability ``p_forward``,
  else any move; the turn is ended early with probability ``p_end`` per step once a step has been
  spent, and passed outright with probability ``p_pass``;
* a game stops at the rules' decision or after ``max_rounds`` rounds (left undecided).

Chess games and positions use python-chess's own move generator with a fixed seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from play.games.talu import Step, TaluGame
from play.games.talu.steps import CAPTURE, END, EXIT, MOVE, PASS, STAY

BOARD_KINDS = (MOVE, CAPTURE, EXIT, STAY)  # the kinds counted as "steps" in throughput figures


@dataclass
class GeneratedGame:
    variant: str
    game: TaluGame
    played: list[Step]  # every step sent to TaluGame.play, in order (ends and passes included)
    samples: list[int] = field(default_factory=list)  # prefixes of ``played``: sampled positions

    @property
    def text(self) -> str:
        return self.game.stgn()


def _rank(square: str) -> int:
    return int(square[1:])


def random_talu_game(
    variant: str,
    rng: random.Random,
    *,
    max_rounds: int = 150,
    p_capture: float = 0.7,
    p_forward: float = 0.2,
    p_end: float = 0.1,
    p_pass: float = 0.01,
    sample_rounds: tuple[int, int] = (5, 30),
    samples_per_game: int = 2,
) -> GeneratedGame:
    """Play one biased random game; remember up to ``samples_per_game`` middlegame positions.

    A sampled position is the state just before some step of a round in ``sample_rounds``: at
    the start of a turn or in the middle of one (chain open or not), as the server sees it.
    """
    game = TaluGame(variant)
    played: list[Step] = []
    candidates: list[int] = []
    lo, hi = sample_rounds
    while game.outcome is None and game.round <= max_rounds:
        if lo <= game.round <= hi:
            candidates.append(len(played))
        steps = game.legal_steps()
        turn = game.turn
        forward_sign = 1 if turn.side == 0 else -1
        captures = [s for s in steps if s.kind == CAPTURE]
        step: Step | None = None
        if captures:
            honor = set(game.honor_targets())
            honor_caps = [s for s in captures if s.to in honor]
            if honor_caps and rng.random() < 0.95:
                step = rng.choice(honor_caps)
            elif rng.random() < (0.5 if turn.chain >= 0 else p_capture):
                step = rng.choice(captures)
        if step is None:
            if turn.chain >= 0:
                closers = [s for s in steps if s.kind in (EXIT, STAY)]
                step = rng.choice(closers or steps)
            elif turn.used and rng.random() < p_end:
                step = Step(END)
            elif not turn.used and rng.random() < p_pass:
                step = Step(PASS)
            else:
                moves = [s for s in steps if s.kind == MOVE]
                fwd = [s for s in moves if (_rank(s.to) - _rank(s.frm)) * forward_sign > 0]
                if fwd and rng.random() < p_forward:
                    step = rng.choice(fwd)
                elif moves:
                    step = rng.choice(moves)
                else:
                    step = rng.choice(steps)
        game.play(step)
        played.append(step)
    k = min(samples_per_game, len(candidates))
    return GeneratedGame(variant, game, played, sorted(rng.sample(candidates, k)))


def talu_games(variant: str, n: int, seed: int, **kw) -> list[GeneratedGame]:
    rng = random.Random(f"talu:{variant}:{seed}")
    return [random_talu_game(variant, rng, **kw) for _ in range(n)]


def rebuild(variant: str, steps: list[Step]) -> TaluGame:
    """A TaluGame in the state reached by ``steps`` (a turn in progress included)."""
    game = TaluGame(variant)
    for s in steps:
        game.play(s)
    return game


def step_counts(game: TaluGame) -> dict[str, int]:
    """Steps of the finished turns by kind (the written record, ends and passes included)."""
    counts: dict[str, int] = {}
    for t in game.turns:
        for s in t.steps:
            counts[s.kind] = counts.get(s.kind, 0) + 1
    return counts


# --- python-chess --------------------------------------------------------------------------
def random_chess_san_game(rng: random.Random, min_plies: int = 60, max_plies: int = 120,
                          p_capture: float = 0.5) -> list[str]:
    """SAN of a random game of ``min_plies``..``max_plies`` plies (fewer if it ends first).

    Captures are preferred half the time so material comes off the board as in real games.
    """
    import chess

    board = chess.Board()
    sans: list[str] = []
    for _ in range(rng.randint(min_plies, max_plies)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            break
        caps = [m for m in moves if board.is_capture(m)]
        m = rng.choice(caps) if caps and rng.random() < p_capture else rng.choice(moves)
        sans.append(board.san(m))
        board.push(m)
    return sans


def chess_san_games(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(f"chess-games:{seed}")
    return [random_chess_san_game(rng) for _ in range(n)]


def chess_middlegames(n: int, seed: int, plies: tuple[int, int] = (20, 40)):
    """``n`` boards reached by 20-40 uniformly random plies from the start, still in play."""
    import chess

    rng = random.Random(f"chess-positions:{seed}")
    out = []
    while len(out) < n:
        board = chess.Board()
        for _ in range(rng.randint(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over(claim_draw=False):
            out.append(chess.Board(board.fen()))  # a fresh board: no move stack to carry
    return out
