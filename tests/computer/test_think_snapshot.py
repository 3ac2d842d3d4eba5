"""The position the worker's pool thinks on (issue 25): a snapshot of the engine the worker holds
(``play.computer.think.snapshot``), not the game's log. If the copy differed from the game in
anything the rules or the search read, the computer would play a wrong or illegal turn; so in
every variant, mid-turn included, the copy must be the game."""

from __future__ import annotations

import random

import pytest

from play.computer.think import position_of, snapshot, think
from play.games.talu import TaluGame
from play.games.talu.game import _STEP_CACHE
from play.games.talu.search import choose_turn

VARIANTS = ("standard", "dynamic", "grand-master")


def _played(variant: str, seed: int, turns: int, extra_steps: int) -> TaluGame:
    """A game of ``turns`` level-1 turns, then ``extra_steps`` steps of the next turn."""
    game = TaluGame(variant)
    rng = random.Random(seed)
    for n in range(turns):
        if game.outcome is not None:
            break
        for step in choose_turn(game, 1, seed=rng.randrange(10**6) + n).steps:
            game.play(step)
    for _ in range(extra_steps):
        legal = [s for s in game.legal_steps() if s.to_dict()["kind"] != "end"]
        if game.outcome is not None or not legal:
            break
        game.play(rng.choice(legal))
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_the_snapshot_is_the_game(variant, seed):
    game = _played(variant, seed, turns=4 + 3 * seed, extra_steps=seed % 3)
    copy = position_of(variant, snapshot(game))
    assert copy is not game
    assert copy.stgn() == game.stgn() and copy.outcome == game.outcome
    assert copy.open_turn() == game.open_turn()
    assert [s.to_dict() for s in copy.legal_steps()] == [s.to_dict() for s in game.legal_steps()]
    if game.outcome is None:
        # the search decides the same turn on the copy as on the game itself
        assert choose_turn(copy, 5, seed=seed).steps == choose_turn(game, 5, seed=seed).steps


def test_the_snapshot_leaves_out_the_shared_step_table():
    """The step values shared by every game of a board size are not pickled with a game; the
    copy uses its own process's table (the same values)."""
    game = _played("standard", 1, turns=10, extra_steps=0)
    data = snapshot(game)
    assert b"_steps" not in data
    assert position_of("standard", data)._steps is _STEP_CACHE[(8, 8)]


def test_think_on_a_snapshot_plays_a_legal_turn_of_the_side_to_move():
    game = _played("dynamic", 3, turns=6, extra_steps=0)
    out = think("dynamic", snapshot(game), 2)
    assert out["side"] == game.side_to_move.value and out["steps"]
    for raw in out["steps"]:
        game.play(next(s for s in game.legal_steps() if s.to_dict() == raw))
