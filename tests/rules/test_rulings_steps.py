"""R5-R9: moves, captures and exits, chains, honor captures, using steps."""

import pytest

from play.games.talu import IllegalStepError, Step, TaluGame

from .helpers import play, position, steps_text


def test_r05_move_one_square_orthogonally_to_an_empty_square():
    g = TaluGame()
    with pytest.raises(IllegalStepError, match="is occupied"):
        play(g, "A1-A2")
    with pytest.raises(IllegalStepError, match="not next to"):
        play(g, "A2-B3")
    with pytest.raises(IllegalStepError, match="no piece on"):
        play(g, "D4-D5")
    with pytest.raises(IllegalStepError, match="holds a piece of dark"):
        play(g, "A7-A6")
    play(g, "A2-A3")
    assert g.steps_used == 1 and "A3" in g.board()["I"]


def test_r06_capture_needs_overlap_and_adjacency_and_exit_not_back():
    g = position(i=["D4", "A1"], o=["C4", "E4", "F4", "H8"], to_move="O")
    with pytest.raises(IllegalStepError, match="not next to D4"):
        play(g, "F4xD4")
    g2 = position(i=["D4", "A1"], o=["C4", "H8"], to_move="O")
    with pytest.raises(IllegalStepError, match="not in an overlap of dark's pieces"):
        play(g2, "C4xD4")
    play(g, "C4xD4")
    with pytest.raises(IllegalStepError, match="may not return to C4"):
        play(g, "-C4")
    with pytest.raises(IllegalStepError, match="must be closed before a move"):
        play(g, "H8-H7")
    with pytest.raises(IllegalStepError, match="never closed"):
        play(g, "end")


def test_r07_capture_offered_only_when_its_chain_can_be_closed():
    # Capturing D4 from C4 would leave no exit (D3, D5 light; E4 dark), but a second capture
    # (D5, in the overlap of D4 and E5) can exit: the first capture is legal as a chain link.
    g = position(i=["D4", "D3", "D5", "A1"], o=["C4", "E4", "E5", "H8"], to_move="O")
    assert "C4xD4" in steps_text(g)
    play(g, "C4xD4")
    assert not any(s.kind == "exit" for s in g.legal_steps())
    assert "D4xD5" in steps_text(g)
    play(g, "D4xD5", "-D6")
    assert sorted(g.board()["I"]) == ["A1", "D3"]


def test_r07_dynamic_caps_a_chain_at_three_captures():
    # A line of light pieces each capturable in turn by the previous capturer.
    i = ["B4", "C4", "D4", "E4", "A1"]
    o = ["A4", "B3", "C3", "D3", "E3", "H8"]
    g = position(i=i, o=o, to_move="O", variant="dynamic")
    play(g, "A4xB4", "B4xC4", "C4xD4")
    assert not any(s.kind == "capture" for s in g.legal_steps())
    with pytest.raises(IllegalStepError, match="at most 3 captures"):
        play(g, "D4xE4")
    g2 = position(i=i, o=o, to_move="O", variant="grand-master")
    # grand-master: captures cost 2 each, so 6 steps allow 2 links + exit only; no cap applies.
    play(g2, "A4xB4", "B4xC4")
    assert not any(s.kind == "capture" for s in g2.legal_steps())
    assert g2.steps_left == 2


def test_r08_honor_capture_may_stay_and_costs_the_full_attack_cost():
    g = position(i=["B1", "D1", "A4"], o=["C1", "H8"], to_move="I")
    assert g.honor_targets() == ["C1"]
    play(g, "B1xC1")
    assert any(s.kind == "stay" for s in g.legal_steps())
    play(g, "stay")
    assert g.steps_used == 2  # 1 for the capture + 1: the full attack cost of standard talu
    # A non-honor capture may not stay.
    g2 = position(i=["D4", "A1"], o=["C4", "E4", "H8"], to_move="O")
    play(g2, "C4xD4")
    with pytest.raises(IllegalStepError, match="only an honor capture"):
        play(g2, "stay")


def test_r08_honor_capture_with_exit_is_also_allowed():
    g = position(i=["B1", "D1", "A4"], o=["C1", "H8"], to_move="I")
    play(g, "B1xC1", "-C2")
    assert g.steps_used == 2 and "C2" in g.board()["I"]


def test_r09_turn_ends_when_steps_run_out_and_pass_spends_none():
    g = TaluGame()
    play(g, "A2-A3", "A3-A4", "B2-B3", "B3-B4")
    assert g.side_to_move.value == "O" and g.steps_used == 0  # ended by itself
    play(g, "pass")
    assert g.side_to_move.value == "I" and g.pass_turns == ["001 O"]
    play(g, "C2-C3")
    assert {s.kind for s in g.legal_steps()} >= {"end", "move"}
    assert "pass" not in {s.kind for s in g.legal_steps()}
    with pytest.raises(IllegalStepError, match="a pass spends no step"):
        g.play(Step.pass_())
    play(g, "end")
    assert g.stgn_lines() == ["001 I: A2-A3-A4 B2-B3-B4", "001 O: .", "002 I: C2-C3"]
