"""T4 rook moves, T5 Tablut's throne and camps (with T15's detail), in a player's words."""

from __future__ import annotations

import pytest

from play.games.tafl import IllegalMove, Position, Rules

from .helpers import moves_from, piece, play, setup


def test_pieces_move_like_rooks_and_never_jump():  # T4
    pos = setup("t: a1, T: d2, K: d4", to_move="attackers")
    assert moves_from(pos, "a1") == ["a2", "a3", "a4", "a5", "a6", "a7", "b1", "c1", "d1",
                                     "e1", "f1", "g1"]
    pos = setup("t: a2 g7, T: d2, K: d4", to_move="attackers")
    assert "e2" not in moves_from(pos, "a2")
    with pytest.raises(IllegalMove, match=r"a2-e2: d2 is in the way.*\(T4\)"):
        play(pos, "a2-e2")
    with pytest.raises(IllegalMove, match="along its rank or its file"):
        play(pos, "a2-b3")
    with pytest.raises(IllegalMove, match="there is no piece on b1"):
        play(pos, "b1-b2")
    with pytest.raises(IllegalMove, match="the piece on d2 is the defenders'"):
        play(pos, "d2-d1")
    assert piece(pos, "a2") == "t" and pos.plies == 0  # nothing changed


def test_opening_move_counts():  # T4
    assert len(Position(Rules("tafl", 11)).legal_moves()) == 128
    assert len(Position(Rules("tafl", 7)).legal_moves()) == 48  # 12 per edge
    # Tablut's defenders: e4-style 3 + 3 sideways (a4 is a camp, e3 a defender), e3-style
    # 4 + 4 (e2 is a camp): (6 + 8) * 4
    assert len(Position(Rules("tablut", 9)).legal_moves()) == 56


def test_the_side_without_a_move_loses():  # T4
    # in Tablut (no T8) a king walled in a corner simply cannot move: with no soldier left
    tab = setup("t: a2 b1 i9 c5, K: a1", n=9, game="tablut", to_move="attackers")
    play(tab, "c5-c6")
    assert tab.result == (0, "no_moves")


def test_the_throne_once_left_is_closed_to_all_the_king_too():  # T5
    pos = setup("t: a1 a9, K: e5, T: c3", n=9, game="tablut", to_move="defenders")
    assert "e5" not in moves_from(pos, "c3")
    play(pos, "Ke5-e7")
    play(pos, "a9-a8")
    with pytest.raises(IllegalMove, match="Ke7-e5: the king may not return to the throne"):
        play(pos, "Ke7-e5")
    with pytest.raises(IllegalMove, match="e5 is the throne: once the king has left it, no "
                       "piece may pass through it"):
        play(pos, "Ke7-e3")
    pos2 = setup("t: c5 a9, K: g7", n=9, game="tablut", to_move="attackers")
    with pytest.raises(IllegalMove, match="e5 is the throne: only the king may stand on it"):
        play(pos2, "c5-e5")
    assert "d5" in moves_from(pos2, "c5") and "e5" not in moves_from(pos2, "c5")


def test_camps_are_closed_to_defenders():  # T5
    pos = setup("t: a9, T: c2, K: g7", n=9, game="tablut", to_move="defenders")
    with pytest.raises(IllegalMove, match="c2-e2: e2 is a camp: a defender may not enter it"):
        play(pos, "c2-e2")
    with pytest.raises(IllegalMove, match="e2 is a camp: a defender may not pass through it"):
        play(pos, "c2-g2")
    king = setup("t: a9, K: d3", n=9, game="tablut", to_move="defenders")
    with pytest.raises(IllegalMove, match="d1 is a camp: the king may not enter it"):
        play(king, "Kd3-d1")
    assert "d1" not in moves_from(king, "d3") and "d2" in moves_from(king, "d3")


def test_an_attacker_moves_within_its_camp_until_it_leaves_and_never_returns():  # T5, T15
    pos = setup("t: d1 a9, T: c7, K: g7", n=9, game="tablut", to_move="attackers")
    # within its own camp, and out over its own camp's empty squares
    assert {"e1", "f1"} <= set(moves_from(pos, "d1")) and "g1" in moves_from(pos, "d1")
    # never into another camp: d9 is the top camp
    assert "d9" not in moves_from(pos, "d1") and "d8" in moves_from(pos, "d1")
    with pytest.raises(IllegalMove, match="d9 is another camp: an attacker that has not left "
                       r"its camp moves only within its own \(T15\)"):
        play(pos, "d1-d9")
    play(pos, "d1-d3")  # out of its camp
    play(pos, "c7-c8")
    with pytest.raises(IllegalMove, match="d1 is a camp: an attacker that has left its camp "
                       "may never enter one again"):
        play(pos, "d3-d1")
    assert "d2" in moves_from(pos, "d3") and "d1" not in moves_from(pos, "d3")
