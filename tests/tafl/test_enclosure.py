"""T8 immobilisation (tafl only): enclosed groups lose one piece a turn, the mover's choice,
the king last; single pieces at once; the turn is not over until every removal is chosen."""

from __future__ import annotations

import pytest

from play.games.tafl import IllegalMove

from .helpers import names, piece, play, setup


def test_a_group_of_three_loses_one_piece_a_turn_the_king_last():
    pos = setup("t: b4 a3 c1 g1, K: a1, T: b1 a2 g7")
    assert play(pos, "b4-b2") == []  # the group a1 b1 a2 is enclosed: the mover chooses
    assert names(pos, pos.removal_choices()) == ["b1", "a2"]  # never the king, T8
    assert [names(pos, list(g)) for g in pos.groups] == [["a1", "b1", "a2"]]
    assert pos.to_move == 0 and pos.plies == 0  # still the attackers' turn
    assert pos.legal_moves() == []
    with pytest.raises(IllegalMove, match=r"xa1: the king is removed last.*\(T8\)"):
        pos.remove(pos.geo.square("a1"))
    with pytest.raises(IllegalMove, match="first remove a piece of each enclosed group"):
        play(pos, "g1-g2")
    pos.remove(pos.geo.square("a2"))
    assert pos.to_move == 1 and pos.history[-1].captured == ((pos.geo.square("a2"), 2),)
    assert pos.no_capture == 0
    play(pos, "g7-g6")
    # a3 closes the gap: the king and b1 are enclosed; b1 is the only valid choice, at once
    assert play(pos, "a3-a2") == ["b1"] and piece(pos, "a1") == "K" and pos.result is None
    play(pos, "g6-g7")
    assert play(pos, "c1-b1") == ["a1"]  # the king alone, enclosed: removed, captured (T7)
    assert pos.result == (0, "king_captured")


def test_a_single_piece_is_removed_at_once():
    pos = setup("t: a2 c1 g7, T: a1, K: d4")
    assert play(pos, "c1-b1") == ["a1"] and not pos.pending and pos.to_move == 1


def test_a_group_with_a_free_square_is_not_enclosed():
    pos = setup("t: a3 c2 g7, T: a1 b1 a2, K: d4")
    assert play(pos, "g7-g6") == [] and not pos.pending  # c1 is still empty


def test_a_move_that_captures_the_king_still_makes_its_t8_removals():  # T15
    # a1 stands enclosed (by b1 and a2): at the end of this turn it is removed, with the king
    pos = setup("t: c4 e1 b1 a2 g7, K: d4, T: a1")
    assert play(pos, "e1-e4") == ["d4", "a1"] and pos.result == (0, "king_captured")
    # a group of two waits for the mover's choice: the game ends when the turn does
    pos = setup("t: c4 e1 b1 a3 g7 b2, K: d4, T: a1 a2")
    assert play(pos, "e1-e4") == ["d4"] and pos.pending and pos.result is None
    pos.remove(pos.geo.square("a2"))
    assert pos.result == (0, "king_captured")
    assert [pos.geo.name(s) for s, _ in pos.history[-1].captured] == ["d4", "a2"]
