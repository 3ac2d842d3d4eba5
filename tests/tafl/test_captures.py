"""T6 custodian capture and T7 the king's capture, with the issue's traps."""

from __future__ import annotations

from .helpers import piece, play, setup


def test_a_piece_between_the_moved_piece_and_a_friend_is_captured():  # T6
    pos = setup("t: c1 c5 g7, T: c4 a7, K: f6")
    assert play(pos, "c1-c3") == ["c4"] and piece(pos, "c4") == "."
    assert pos.no_capture == 0


def test_two_or_three_captures_at_once():  # T6
    pos = setup("t: d1 b4 f4 d6 g7, T: c4 e4 d5, K: a7")
    assert sorted(play(pos, "d1-d4")) == ["c4", "d5", "e4"]


def test_only_the_moved_piece_captures_and_no_shield_walls():  # T6
    pos = setup("t: c1 c5 g7, T: c3 c4 e7, K: f6")
    assert play(pos, "c1-c2") == [] and piece(pos, "c3") == "T" and piece(pos, "c4") == "T"
    # a piece standing between two enemies is not captured unless one of them just moved
    pos = setup("t: b3 d3 g7, T: c3, K: f6")
    assert play(pos, "g7-g6") == [] and piece(pos, "c3") == "T"


def test_the_king_is_armed():  # T6: the king captures with a defender
    pos = setup("t: c4 a7, T: b4, K: d3", to_move="defenders")
    assert play(pos, "Kd3-d4") == ["c4"]
    pos = setup("t: c4 a7, K: b4, T: d3", to_move="defenders")
    assert play(pos, "d3-d4") == ["c4"]  # a soldier captures against the king


def test_no_capture_against_an_edge_a_corner_the_throne_or_a_camp():  # T6, T5
    corner = setup("t: c2 g7, T: a1 b1, K: e5")
    assert play(corner, "c2-a2") == [] and piece(corner, "a1") == "T"
    edge = setup("t: c2 g7, T: b1, K: e5")
    assert play(edge, "c2-b2") == [] and piece(edge, "b1") == "T"
    throne = setup("t: g7 a9, T: e6, K: c7", n=9, game="tablut", to_move="attackers")
    assert play(throne, "g7-e7") == [] and piece(throne, "e6") == "T"  # e5: the empty throne
    camp = setup("t: g4 a9, T: e3, K: c7", n=9, game="tablut", to_move="attackers")
    assert play(camp, "g4-e4") == [] and piece(camp, "e3") == "T"  # e2: an empty camp
    manned = setup("t: g4 e2 a9, T: e3, K: c7", n=9, game="tablut", to_move="attackers")
    assert play(manned, "g4-e4") == ["e3"]  # an attacker standing in its camp is a piece


def test_tablut_a_piece_may_move_between_two_enemies():  # T6
    pos = setup("t: b3 d3 c1 i9, T: c6, K: g7", n=9, game="tablut", to_move="defenders")
    assert play(pos, "c6-c3") == [] and piece(pos, "c3") == "T"


def test_tafl_a_piece_ending_between_two_enemies_is_removed_too():  # T6 (the seed)
    pos = setup("t: b3 d3 g7, T: c6 a1, K: f6", to_move="defenders")
    assert play(pos, "c6-c3") == ["c3"] and piece(pos, "c3") == "."
    # and after capturing, if it still stands in a sandwich: recorded at its own square
    pos = setup("t: c1 c5 g1, T: b3 d3 c4 a7, K: f6", to_move="attackers")
    assert play(pos, "c1-c3") == ["c4", "c3"]
    assert piece(pos, "c3") == "." and piece(pos, "c4") == "."


def test_tafl_immunity_a_peaceful_king_stays_a_capturing_one_does_not():  # T6
    plain = setup("t: b3 d3 g7, K: c6, T: a7", to_move="defenders")
    assert play(plain, "Kc6-c3") == ["c3"] and plain.result == (0, "king_captured")
    peace = setup("t: b3 d3 g7, K: c6, T: a7", immunity=True, to_move="defenders")
    assert play(peace, "Kc6-c3") == [] and piece(peace, "c3") == "K" and peace.result is None
    # a king that captures on the way in has no immunity: he is removed too
    war = setup("t: b3 d3 c2 g7, K: c6, T: c1 a7", immunity=True, to_move="defenders")
    assert play(war, "Kc6-c3") == ["c2", "c3"] and war.result == (0, "king_captured")


def test_tablut_king_on_the_throne_needs_four():  # T7
    three = setup("t: e4 d5 f5 g6 a9, K: e5, T: a1", n=9, game="tablut", to_move="attackers")
    assert play(three, "g6-e6") == ["e5"] and three.result == (0, "king_captured")
    held = setup("t: e4 f5 g6 a9, T: d5 a1, K: e5", n=9, game="tablut", to_move="attackers")
    assert play(held, "g6-e6") == [] and held.result is None
    two = setup("t: e4 g6 a9, K: e5, T: a1", n=9, game="tablut", to_move="attackers")
    assert play(two, "g6-e6") == []


def test_tablut_king_beside_the_throne_falls_to_two():  # T7
    pos = setup("t: d4 g3 a9, K: e4, T: a1", n=9, game="tablut", to_move="attackers")
    assert play(pos, "g3-g4") == []  # g4 is not next to him
    pos = setup("t: d4 g4 a9, K: e4, T: a1", n=9, game="tablut", to_move="attackers")
    assert play(pos, "g4-f4") == ["e4"] and pos.result == (0, "king_captured")
    # against the empty throne he is not captured: e3 below, the throne above
    pos = setup("t: c3 a9, K: e4, T: a1", n=9, game="tablut", to_move="attackers")
    assert play(pos, "c3-e3") == [] and pos.result is None


def test_tafl_king_is_captured_as_a_soldier():  # T7
    pos = setup("t: c4 e1 g7, K: d4, T: a7")
    assert play(pos, "e1-e4") == ["d4"] and pos.result == (0, "king_captured")


def test_immunity_is_lost_only_by_a_custodian_capture_not_by_a_t8_removal():  # T15
    immune = setup("t: a1 a3 g7, T: b1 e7, K: c2", immunity=True, to_move="defenders")
    assert play(immune, "Kc2-a2") == ["a1"]  # a1 enclosed (T8); the king stays between
    assert piece(immune, "a2") == "K" and immune.result is None
    plain = setup("t: a1 a3 g7, T: b1 e7, K: c2", to_move="defenders")
    assert play(plain, "Kc2-a2") == ["a2"] and plain.result == (0, "king_captured")
    assert piece(plain, "a1") == "t"  # his square is empty again: a1 is not enclosed
