"""The evaluation's weights (issue 25): the hand-set ones, and the ones fitted to self-play
that level 8 uses in the standard variant (``evaluate.TUNED``,
``benchmarks/tune_evaluation.py``). The fitted weights see the invasion race (R10) in terms
the hand-set ones did not have: a runner no opponent piece stands next to, the home row's
squares an invader could be taken on at once (R8)."""

from __future__ import annotations

import pytest

from play.games.talu.search import LEVELS
from play.games.talu.search.evaluate import (
    evaluate,
    feature_names,
    features,
    hand_weights,
    weights,
)
from play.games.talu.variants import get_variant

STANDARD = get_variant("standard")


def _score(board: dict[str, list[str]], tuned: int, side: int = 0) -> int:
    """The score for ``side`` (0 = I) of ``board``, ``side``'s turn just ended."""
    g = STANDARD.geometry
    i, o = g.bits(board["I"]), g.bits(board["O"])
    me, op = (i, o) if side == 0 else (o, i)
    return evaluate(STANDARD, me, op, side, weights(STANDARD, tuned))


def test_the_hand_set_weights_are_the_evaluation_as_it_was() -> None:
    # The levels that keep them (1-4) play exactly as before: I a piece up, one of my pieces
    # two ranks from the goal row (I's goal row is rank 8), nothing threatened.
    board = {"I": ["C6", "A1", "B1"], "O": ["H8", "G8"]}
    assert _score(board, tuned=False) == (
        100  # material
        + 4 * (5 + 0 + 0) - 4 * (0 + 0)  # ranks of progress, mine and theirs
        + 10 * (4 - 2 + 1)  # C6 is within a turn's four steps of rank 8
    )
    assert len(hand_weights(STANDARD)) == len(feature_names(STANDARD))
    assert len(weights(STANDARD, 1)) == len(weights(STANDARD, 2)) == len(feature_names(STANDARD))


def test_a_free_runner_is_worth_more_than_one_an_opponent_piece_stands_beside() -> None:
    # C6 runs for rank 8 (R10). With O's piece on D6 beside it, O can block or take it on its
    # way; on F6 (the same rank: the same progress for O) it runs free. The hand-set weights
    # scored both boards alike; the fitted ones prefer the free runner.
    free = {"I": ["C6", "A1", "B1"], "O": ["F6", "H8"]}
    beside = {"I": ["C6", "A1", "B1"], "O": ["D6", "H8"]}
    assert _score(free, tuned=False) == _score(beside, tuned=False)
    assert _score(free, tuned=True) > _score(beside, tuned=True)


def test_the_opponents_free_runner_weighs_against_the_side_that_just_moved() -> None:
    # O is to move, its piece on C3 two ranks from its goal row (rank 1). With an I piece
    # beside it on D3 it is not free; with that piece on F3 it is. Hand-set: alike.
    free = {"I": ["F3", "H1", "G2"], "O": ["C3", "H8"]}
    beside = {"I": ["D3", "H1", "G2"], "O": ["C3", "H8"]}
    assert _score(free, tuned=False) == _score(beside, tuned=False)
    assert _score(free, tuned=True) < _score(beside, tuned=True)


def test_the_features_are_the_same_for_either_side() -> None:
    # Mirrored boards (I's pieces for O's, ranks reversed) give the same features: the
    # evaluation does not favour a colour.
    g = STANDARD.geometry
    board = {"I": ["C6", "A1", "B2", "E4"], "O": ["F6", "H8", "D5"]}

    def mirror(sq: str) -> str:
        return sq[0] + str(9 - int(sq[1:]))

    i, o = g.bits(board["I"]), g.bits(board["O"])
    mi, mo = g.bits([mirror(s) for s in board["O"]]), g.bits([mirror(s) for s in board["I"]])
    assert features(STANDARD, i, o, 0) == features(STANDARD, mo, mi, 1)


def test_the_refitted_weights_keep_defenders_on_the_home_row() -> None:
    # Level 8's weights (the second round, fitted to games between equal players) hold the
    # home row: an invasion must be answered at once (R10), and a defender two ranks out may
    # be too far. Two of I's pieces on its home row against the same two on rank 3, the rest
    # alike: the first round preferred home by a quarter of a piece, the second by more than a
    # piece.
    home = {"I": ["D1", "E1", "C5", "F5"], "O": ["C8", "F8", "D6", "E6"]}
    out = {"I": ["D3", "E3", "C5", "F5"], "O": ["C8", "F8", "D6", "E6"]}
    first = _score(home, tuned=1) - _score(out, tuned=1)
    second = _score(home, tuned=2) - _score(out, tuned=2)
    assert 0 < first < 50
    assert second > 100


@pytest.mark.parametrize("variant", ["standard", "dynamic", "grand-master"])
def test_which_levels_use_the_fitted_weights(variant: str) -> None:
    v = get_variant(variant)
    assert [n for n, lv in LEVELS.items() if lv.tuned] == [7, 8]
    assert [LEVELS[7].tuned, LEVELS[8].tuned] == [1, 2]
    # Fitted for the standard variant only: the others keep the hand-set weights everywhere.
    assert (weights(v, 1) != weights(v, 0)) is (variant == "standard")
    assert (weights(v, 2) != weights(v, 1)) is (variant == "standard")
    assert weights(v, 2) == weights(v, 0) or variant == "standard"
