"""The worked situations of book 4.7, built as positions and checked."""

import pytest

from play.games.talu import IllegalStepError, Side, Termination

from .helpers import play, position, steps_text


def test_4_7_3_1_orthogonal_attack_exits_up_or_down_only():
    # Dark pieces on C4 and E4 overlap on D4 where a light piece stands.
    g = position(i=["D4", "A1"], o=["C4", "E4", "H8"], to_move="O")
    assert "D4" in g.threatened("I")
    assert {"C4xD4", "E4xD4"} <= steps_text(g)
    play(g, "E4xD4")
    exits = {s.to for s in g.legal_steps() if s.kind == "exit"}
    assert exits == {"D5", "D3"}  # not back to E4, not onto C4 (occupied)
    with pytest.raises(IllegalStepError, match="came from"):
        play(g, "-E4")
    play(g, "-D5")
    assert g.board()["O"] == ["C4", "D5", "H8"]
    assert g.board()["I"] == ["A1"]


def test_4_7_3_2_diagonal_attack_exits_up_or_right():
    # Dark pieces on C4 and D3 (diagonal) overlap on D4.
    g = position(i=["D4", "A1"], o=["C4", "D3", "H8"], to_move="O")
    play(g, "D3xD4")
    assert {s.to for s in g.legal_steps() if s.kind == "exit"} == {"D5", "E4"}


def test_4_7_3_3_chained_attack_by_the_same_piece():
    g = position(i=["D4", "D5", "A1"], o=["D3", "C4", "E5", "H8"], to_move="O")
    play(g, "D3xD4")  # after this capture D5 lies in the overlap of D4 and E5
    assert "D4xD5" in steps_text(g)
    play(g, "D4xD5")
    assert {s.to for s in g.legal_steps() if s.kind == "exit"} == {"D6", "C5"}
    play(g, "-D6")
    assert g.steps_left == 1 and g.board()["I"] == ["A1"]
    assert g.board()["O"] == ["C4", "E5", "D6", "H8"]


def test_4_7_3_3_chain_by_another_piece_leaves_the_first_capturer_in_place():
    g = position(i=["D4", "D5", "A1"], o=["D3", "C4", "E5", "H8"], to_move="O")
    play(g, "D3xD4", "E5xD5")  # R7: any eligible piece may make the next capture
    assert {s.to for s in g.legal_steps() if s.kind == "exit"} == {"D6", "C5"}
    play(g, "-C5")
    assert g.board()["O"] == ["C4", "D4", "C5", "H8"]  # D4 stays where it captured


def test_4_7_3_3_chain_not_offered_without_steps_to_close_it():
    g = position(i=["D4", "D5", "A1"], o=["D3", "C4", "E5", "H7"], to_move="O")
    play(g, "H7-H6", "H6-H5")
    play(g, "D3xD4")  # 3 steps used, 1 left: only the exit remains possible
    assert "D4xD5" not in steps_text(g)
    with pytest.raises(IllegalStepError, match="needs 2 steps"):
        play(g, "D4xD5")


def test_4_7_4_1_orthogonal_defense_blocks_the_attack():
    g = position(i=["D4", "D3", "D5"], o=["C4", "E4"], to_move="O")
    assert "D4" in g.threatened("I") and "D4" in g.defended("I")
    assert not any(s.kind == "capture" for s in g.legal_steps())
    with pytest.raises(IllegalStepError, match="could not be closed"):
        play(g, "C4xD4")


def test_4_7_4_2_diagonal_defense_blocks_the_attack():
    g = position(i=["D4", "D5", "C4"], o=["D3", "E4"], to_move="O")
    assert "D4" in g.threatened("I") and "D4" in g.defended("I")
    assert not any(s.kind == "capture" for s in g.legal_steps())


def test_4_7_5_1_elimination():
    g = position(i=["D4"], o=["C4", "E4", "H8"], to_move="O")
    play(g, "E4xD4", "-D5", "end")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.ELIMINATION


def test_4_7_5_2_invasion_that_cannot_be_answered_wins_at_once():
    g = position(i=["A5", "B5", "C5", "D5"], o=["H2", "H8"], to_move="O")
    play(g, "H2-H1", "end")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.INVASION


def test_4_7_5_3_defended_invasion_is_captured_under_the_honor_rule():
    g = position(i=["B1", "E2", "A4"], o=["D2", "H8"], to_move="O")
    play(g, "D2-D1", "end")
    assert g.outcome is None  # light can form the overlap and still capture
    assert g.honor_targets() == ["D1"]
    play(g, "B1-C1", "E2-E1", "C1xD1", "stay")  # honor capture without exit, 2 steps (R8)
    assert g.outcome is None
    assert g.board()["O"] == ["H8"] and "D1" in g.board()["I"]
