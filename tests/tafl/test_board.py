"""T1-T3: the boards, the squares' OTN names and the opening position of every size."""

from __future__ import annotations

import pytest

from play.games.tafl import Position, Rules, geometry, parse_position, write_position
from play.games.tafl.board import ATTACKER, DEFENDER, KING, opening


def test_squares_are_named_from_a1_bottom_left_and_the_centre_is_the_middle():  # T1
    geo = geometry(11)
    assert geo.name(0) == "a1" and geo.name(10) == "k1" and geo.name(120) == "k11"
    assert geo.name(geo.centre) == "f6" and geometry(9).name(geometry(9).centre) == "e5"
    assert geo.square("f6") == geo.centre
    with pytest.raises(ValueError, match="not a square of the 11x11 board"):
        geo.square("l1")
    assert geo.edge[geo.square("a5")] and not geo.edge[geo.square("b5")]


@pytest.mark.parametrize("text", [
    "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "/3ttttt3/5t5/5T5/t4T4t/t4T4t/ttTTTKTTTtt/t4T4t/t4T4t/5T5/5t5/3ttttt3/",
])
def test_the_openings_of_the_ruling(text):  # T3's three records, computed from n
    board, n = parse_position(text)
    assert opening(n) == board and write_position(opening(n), n) == text


@pytest.mark.parametrize("n", [7, 9, 11, 13, 15, 17, 19])
def test_every_size_has_the_rulings_counts(n):  # T3: 4(k-2) defenders, 8(k-2) attackers
    k = (n - 1) // 2
    board = opening(n)
    assert board.count(DEFENDER) == 4 * (k - 2) and board.count(ATTACKER) == 8 * (k - 2)
    assert board.count(KING) == 1 and board[n * n // 2] == KING
    if n in (7, 17):  # the seed: squares minus the king's equal four times the soldiers
        assert n * n - 1 == 4 * (12 * (k - 2))


def test_tablut_starts_as_tafl_9x9_with_the_defenders_first():  # T2, T3
    tablut, tafl = Position(Rules("tablut", 9)), Position(Rules("tafl", 9))
    assert tablut.board == tafl.board
    assert (tablut.to_move, tafl.to_move) == (1, 0)


def test_tablut_camps_are_the_attackers_opening_squares():  # T5
    geo = geometry(9, True)
    camps = sorted(geo.name(s) for s in range(81) if geo.camp[s])
    assert camps == sorted(["d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5",
                            "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"])
    assert geo.name(geo.throne) == "e5" and geometry(9).throne == -1


def test_bad_positions_and_rules_are_refused():
    with pytest.raises(ValueError, match="not 8"):
        parse_position("/8/8/8/8/8/8/8/8/")
    with pytest.raises(ValueError, match="rank 7 has 8 squares"):
        parse_position("/3t4/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    with pytest.raises(ValueError, match="9x9 only"):
        Rules("tablut", 11)
    with pytest.raises(ValueError, match="7x7 to 19x19"):
        Rules("tafl", 8)


def test_a_position_from_its_otn_record_for_lessons():
    text = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    pos = Position.from_text(text, "defenders")
    assert pos.text() == text and pos.to_move == 1 and pos.geo.name(pos.king) == "d4"
    assert Position.from_text(text).legal_moves() == Position(Rules("tafl", 7)).legal_moves()
