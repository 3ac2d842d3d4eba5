"""The computer plays only legal turns, in every variant, and always completes its turn.

Thousands of computer turns: computer against computer at levels with randomness, and against a
random legal mover (which walks into the invasions, honor turns and chains a careful player
avoids). Every step goes through ``TaluGame.play``, the rules core's validation, which raises on
anything illegal (R5-R9); a turn that leaves a chain open never ends, so "the side to move has
changed" after the computer's steps is the proof that it closed every chain (R7).
"""

from __future__ import annotations

import random

import pytest

from play.games.talu import TaluGame
from play.games.talu.invasion import can_remove_all_invaders
from play.games.talu.search import HONOR_NODES, choose_turn

# Small node budgets keep thousands of turns within seconds; the levels' own budgets are
# exercised in test_search_levels.py.
BUDGET = 250


def _random_turn(game: TaluGame, rng: random.Random) -> None:
    """A random legal turn, leaning forward half the time so that it invades (R10) often."""
    side = game.side_to_move
    forward = 1 if side.value == "I" else -1
    while game.outcome is None and game.side_to_move is side:
        steps = game.legal_steps()
        if len(steps) > 1 and game.steps_used == 0:  # never pass: games would end by R12
            steps = [s for s in steps if s.kind != "pass"]
        ahead = [s for s in steps if s.kind == "move"
                 and (int(s.to[1:]) - int(s.frm[1:])) * forward > 0]
        game.play(rng.choice(ahead if ahead and rng.random() < 0.6 else steps))


def _computer_turn(game: TaluGame, level: int, seed: int) -> bool:
    """Play the computer's turn; True when it was an honor turn that could be answered."""
    side = game.side_to_move
    honor = game.turn.honor & game.turn.op
    answerable = bool(honor) and can_remove_all_invaders(game.turn.copy())
    choice = choose_turn(game, level, seed=seed, nodes=BUDGET, seconds=0)
    assert choice.nodes <= (max(BUDGET, HONOR_NODES) if honor else BUDGET)
    for step in choice.steps:
        assert game.side_to_move is side, f"steps left over after the turn ended: {choice.steps}"
        game.play(step)  # raises IllegalStepError on anything illegal
    assert game.outcome is not None or game.side_to_move is side.other, (
        f"the turn {choice.steps} did not end (a chain left open?)")
    if answerable:  # R10: the honor rule answered whenever some turn answers it
        assert not (game.outcome and game.outcome.detail == "honor"), choice.steps
    return answerable


@pytest.mark.parametrize("variant,target", [
    ("standard", 1000), ("dynamic", 600), ("grand-master", 400)])
def test_thousands_of_computer_turns_are_legal(variant: str, target: int) -> None:
    turns = games = finished = honor_turns = 0
    while turns < target:
        n = games
        rng = random.Random(n)
        game = TaluGame(variant)
        against_random = n % 2 == 0
        computer_side = n % 4 // 2  # the computer plays I in some games, O in others
        level_a, level_b = 1 + n % 3, 1 + (n + 1) % 3
        count = 0
        # Random turns first: diverse, often wild positions, invasions and honor turns.
        prefix = rng.randrange(0, 60 if variant == "grand-master" else 24)
        while game.outcome is None and count < 80:
            side = game.turn.side
            if count < prefix or (against_random and side != computer_side):
                _random_turn(game, rng)
            else:
                honor_turns += _computer_turn(
                    game, level_a if side == 0 else level_b, seed=n * 1000 + count)
                turns += 1
            count += 1
        games += 1
        finished += game.outcome is not None
    assert finished >= games // 2  # the games reach their ends: invasions, eliminations
    assert honor_turns >= {"grand-master": 1}.get(variant, 3), honor_turns  # really put to it
