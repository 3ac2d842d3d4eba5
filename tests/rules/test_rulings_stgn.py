"""R15: the STGN grammar, the reader's tolerance, the canonical writer and its errors."""

import pytest

from play.games.talu import (
    NotationError,
    NotationRuleError,
    NotationSyntaxError,
    TaluGame,
    Termination,
    read_stgn,
)

from .helpers import play


def test_r15_reader_accepts_lower_case_zero_for_o_spaces_and_comments():
    g = read_stgn("# a comment\n\n001  i:  a2-a3   b2-b3\n001 0: a7-a6\n")
    assert g.stgn_lines() == ["001 I: A2-A3 B2-B3", "001 O: A7-A6"]


def test_r15_writer_is_canonical_and_round_trips():
    g = TaluGame()
    play(g, "A2-A3", "A3-A4", "C2-C3", "end")
    text = g.stgn()
    assert text == "001 I: A2-A3-A4 C2-C3\n"
    assert read_stgn(text).stgn() == text


def test_r15_capture_without_exit_before_a_capture_is_a_chain_link():
    text = "001 O: C4xD4 D4xD5-D6\n"
    g = TaluGame.from_position({"I": ["D4", "D3", "D5", "A1"], "O": ["C4", "E4", "E5", "H8"]}, "O")
    # read_stgn starts from the opening, so replay the body through the same reader path:
    from play.games.talu.stgn import _read_turn

    g.round = 1
    _read_turn(g, 1, text.strip())
    assert sorted(g.board()["I"]) == ["A1", "D3"]
    assert g.stgn_lines() == ["001 O: C4xD4 D4xD5-D6"]


def test_r15_capture_without_exit_and_no_capture_next_must_be_an_honor_capture():
    from play.games.talu.stgn import _read_turn

    g = TaluGame.from_position({"I": ["D4", "A1"], "O": ["C4", "E4", "H8"]}, "O")
    with pytest.raises(NotationRuleError, match="never closed"):
        _read_turn(g, 7, "001 O: C4xD4 H8-H7")
    h = TaluGame.from_position({"I": ["B1", "D1", "A4"], "O": ["C1", "H8"]}, "I")
    _read_turn(h, 1, "001 I: B1xC1 A4-A5")
    assert h.board()["O"] == ["H8"] and h.steps_used == 0


@pytest.mark.parametrize(("text", "line", "message"), [
    ("001 O: A7-A6\n", 1, "expected turn 001 I"),
    ("001 I: A2-A3\n002 I: A3-A4\n", 2, "expected turn 001 O"),
    ("01 I: A2-A3\n", 1, "at least three digits"),
    ("001 I: A2-A3 !\n", 1, "have not decided"),
    ("001 I: Z9-Z8\n", 1, "not a square"),
    ("001 I: A2A3\n", 1, "not a move"),
    ("001 I:\n", 1, "empty"),
    ("001 I: A2-A3 . \n", 1, "must be the whole turn"),
    ("001 I: A2-A3 A1-A2 C1-C2\n", 1, "C2 is occupied"),
    ("001 I: A2-A3 B2-B3 C2-C3 D2-D3 E2-E3\n", 1, "only 4 steps"),
    ("hello\n", 1, "not a turn line"),
    ("001 I: .\n001 O: .\n002 I: .\n!: I\n", 4, "claims I as winner"),
    ("001 I: .\n001 O: .\n002 I: .\n002 O: .\n", 4, "after the game was decided"),
    ("001 I: A2-A3\n!: I\n001 O: A7-A6\n", 3, "nothing may follow the result line"),
    ("!: X\n", 1, "not a result line"),
])
def test_r15_errors_name_the_line_and_the_reason(text, line, message):
    with pytest.raises(NotationError) as err:
        read_stgn(text)
    assert err.value.line == line
    assert message in err.value.reason


def test_r15_syntax_and_rule_errors_are_distinct_types():
    with pytest.raises(NotationSyntaxError):
        read_stgn("001 I: A2A3\n")
    with pytest.raises(NotationRuleError):
        read_stgn("001 I: A1-A2\n")


def test_r15_finished_game_without_markers_is_still_read_and_decided():
    g = read_stgn("001 I: .\n001 O: .\n002 I: .\n")
    assert g.outcome.reason is Termination.NULL
    assert g.stgn_lines()[-2:] == ["002 I: . !", "!: -"]


def test_r15_result_line_after_an_undecided_game_is_a_decision():
    g = read_stgn("001 I: A2-A3\n!: O\n")
    assert g.outcome.reason is Termination.DECISION and g.outcome.winner.value == "O"
    assert g.stgn() == "001 I: A2-A3\n!: O\n"


def test_r15_open_last_keeps_a_turn_in_progress():
    g = read_stgn("001 I: A2-A3\n001 O: A7-A6\n002 I: B2-B3\n", open_last=True)
    assert g.side_to_move.value == "I" and g.steps_used == 1
    play(g, "B3-B4", "end")
    assert g.stgn_lines()[-1] == "002 I: B2-B3-B4"
