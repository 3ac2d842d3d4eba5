"""R10-R11: invasion, the honor rule, and the order of end-of-turn checks."""

from play.games.talu import Side, Termination
from play.games.talu.invasion import can_remove_all_invaders
from play.games.talu.turn import TurnState

from .helpers import play, position


def test_r10_unanswered_invader_loses_by_the_honor_rule():
    g = position(i=["B1", "E2", "A4"], o=["D2", "H8"], to_move="O")
    play(g, "D2-D1", "end")
    assert g.outcome is None  # I could remove it...
    play(g, "A4-A5", "end")  # ...but does not
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.INVASION
    assert g.turns[-1].decisive


def test_r10_search_counts_every_step_of_the_reply():
    # One step short: the defenders need 3 moves to form an overlap on D1, then 2 to capture.
    g = position(i=["A1", "E3", "A4"], o=["D2", "H8"], to_move="O")
    play(g, "D2-D1", "end")
    assert g.outcome is not None and g.outcome.winner is Side.O


def test_r10_all_invaders_must_be_removable_in_the_same_turn():
    # Two invaders, each capturable alone, but not both within 4 steps.
    g = position(i=["A1", "C1", "F1", "H3", "A4"], o=["B2", "G2", "H8"], to_move="O")
    alone = position(i=["A1", "C1", "F1", "H3", "A4"], o=["B2", "G1", "H8"], to_move="I")
    assert can_remove_all_invaders(alone.turn)
    play(g, "B2-B1", "G2-G1", "end")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.INVASION


def test_r10_search_finds_a_chain_through_both_invaders():
    # B1 and C1 invaders; A1 and B2/C2 light pieces allow A1xB1 then B1xC1 and stay.
    g = position(i=["A1", "B2", "C2", "A4"], o=["B1", "C1", "H8"], to_move="I")
    st = g.turn
    assert can_remove_all_invaders(st)
    play(g, "A1xB1", "B1xC1", "stay")
    assert g.outcome is None and g.board()["O"] == ["H8"]


def test_r10_search_on_a_copy_leaves_the_state_alone():
    g = position(i=["B1", "E2", "A4"], o=["D1", "H8"], to_move="I")
    st: TurnState = g.turn
    before = (st.me, st.op, st.used)
    assert can_remove_all_invaders(st)
    assert (st.me, st.op, st.used) == before


def test_r11_elimination_is_checked_before_invasion():
    g = position(i=["D2"], o=["C2", "E2", "H8"], to_move="O")
    play(g, "E2xD2", "-D1", "end")
    assert g.outcome.reason is Termination.ELIMINATION


def test_r11_honor_failure_beats_a_new_invasion():
    g = position(i=["A7", "B4"], o=["C1", "H5"], to_move="I")
    play(g, "A7-A8", "end")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.INVASION
