"""The computer and the rules that end games: it wins at once when it can (elimination,
invasion: R10, R11), and answers the honor rule whenever some turn answers it (R8, R10), in
the book's positions (4.7.5) and in positions that random play walks into."""

from __future__ import annotations

import random

import pytest

from play.games.talu import Side, TaluGame, Termination
from play.games.talu.invasion import can_remove_all_invaders
from play.games.talu.search import choose_turn
from play.games.talu.search.levels import WIN_NODES
from play.games.talu.search.turns import Budget, find_win

from .test_search_legal import _random_turn


def _play_choice(game: TaluGame, level: int, seed: int = 0, nodes: int | None = None) -> list:
    choice = choose_turn(game, level, seed=seed, nodes=nodes, seconds=0)
    for step in choice.steps:
        game.play(step)
    return choice.steps


@pytest.mark.parametrize("level", range(1, 9))
def test_book_4_7_5_2_invasion_that_cannot_be_answered_is_played_at_once(level: int) -> None:
    # Book 4.7.5.2: light cannot bring two pieces next to H1 and still capture.
    game = TaluGame.from_position({"I": ["A5", "B5", "C5", "D5"], "O": ["H2", "H8"]}, "O")
    _play_choice(game, level, seed=level)
    assert game.outcome.winner is Side.O and game.outcome.reason is Termination.INVASION


@pytest.mark.parametrize("level", range(1, 9))
def test_book_4_7_5_1_elimination_is_played_at_once(level: int) -> None:
    game = TaluGame.from_position({"I": ["D4"], "O": ["C4", "E4", "H8"]}, "O")
    _play_choice(game, level, seed=level)
    assert game.outcome.winner is Side.O and game.outcome.reason is Termination.ELIMINATION


@pytest.mark.parametrize("variant,board,side", [
    # Elimination in a chain of two captures (R7) in dynamic talu.
    ("dynamic", {"I": ["D3", "C4", "E5", "A1"], "O": ["D4", "D5"]}, "I"),
    # A walk of five steps onto the goal row where no defender can reach (grand-master: 6 steps).
    ("grand-master", {"I": ["A7", "B7", "L2", "L1"], "O": ["H12", "J12", "C2", "C3"]}, "I"),
])
def test_immediate_wins_in_the_other_variants(variant: str, board: dict, side: str) -> None:
    game = TaluGame.from_position(board, side, variant)
    _play_choice(game, 1, seed=3)
    assert game.outcome is not None and game.outcome.winner is Side(side)


@pytest.mark.parametrize("level", range(1, 9))
def test_book_4_7_5_3_the_honor_rule_is_answered(level: int) -> None:
    # Book 4.7.5.3: dark invaded D1; light can relocate two pieces and still capture (R8).
    game = TaluGame.from_position({"I": ["B1", "E2", "A4"], "O": ["D1", "H8"]}, "I")
    assert game.honor_targets() == ["D1"]
    _play_choice(game, level, seed=level)
    assert game.outcome is None and "D1" not in game.board()["O"]


def _honor_positions(variant: str, count: int) -> list[TaluGame]:
    """Positions where the side to move must answer an invasion it can answer (R10)."""
    found: list[TaluGame] = []
    rng = random.Random(variant)
    while len(found) < count:
        game = TaluGame(variant)
        while game.outcome is None:
            t = game.turn
            if t.honor & t.op and can_remove_all_invaders(t.copy()):
                found.append(game)
                break
            _random_turn(game, rng)
    return found


@pytest.mark.parametrize("variant", ["standard", "dynamic", "grand-master"])
def test_honor_turns_from_random_play_are_answered_at_every_level(variant: str) -> None:
    positions = _honor_positions(variant, 8)
    for n, game in enumerate(positions):
        level = 1 + n % 8
        side = game.side_to_move
        steps = _play_choice(game, level, seed=n, nodes=300)
        assert game.outcome is None or game.outcome.winner is side, (level, steps, game.board())


def _positions_with_a_win(variant: str, count: int) -> list[TaluGame]:
    """Positions from random play where the side to move can win at once: every level's own
    win search is at least this wide (WIN_NODES), so it must take the win."""
    found: list[TaluGame] = []
    rng = random.Random(f"win-{variant}")
    while len(found) < count:
        game = TaluGame(variant)
        while game.outcome is None:
            if find_win(game.turn.copy(), Budget(WIN_NODES), WIN_NODES) is not None:
                found.append(game)
                break
            _random_turn(game, rng)
    return found


@pytest.mark.parametrize("variant", ["standard", "dynamic", "grand-master"])
def test_every_level_takes_a_win_at_hand(variant: str) -> None:
    for n, game in enumerate(_positions_with_a_win(variant, 8)):
        level = 1 + n % 8
        side = game.side_to_move
        steps = _play_choice(game, level, seed=n)
        assert game.outcome is not None and game.outcome.winner is side, (level, steps)
