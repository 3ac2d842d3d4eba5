"""R12-R14: passing conventions, stalling and non-engagement."""

from play.games.talu import Side, TaluGame, Termination, read_stgn

from .helpers import play


def test_r12_three_alternating_passes_make_a_null_game():
    g = TaluGame()
    play(g, "pass", "pass", "pass")
    assert g.outcome.winner is None and g.outcome.reason is Termination.NULL


def test_r12_three_own_passes_forfeit():
    g = TaluGame()
    play(g, "pass", "A7-A6", "end", "pass", "B7-B6", "end")
    assert g.outcome is None
    play(g, "pass")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.FORFEIT
    assert g.pass_turns == ["001 I", "002 I", "003 I"]


def test_r13_a_turn_that_changes_nothing_is_stalling():
    g = TaluGame()
    play(g, "A2-A3", "A3-A2", "end")
    assert g.turns[-1].stalling and g.pass_turns == ["001 I"]


def test_r13_repeating_an_earlier_position_is_stalling():
    g = TaluGame()
    play(g, "A2-A3", "end", "A7-A6", "end", "A3-A2", "end")
    assert not g.turns[-1].stalling
    play(g, "A6-A7", "end")  # back to the opening position with I to move
    assert g.turns[-1].stalling and g.pass_turns == ["002 O"]


def _shuffle(g: TaluGame, n: int) -> None:
    light = ["A1-B1", "C1-D1", "E1-F1", "G1-H1"]
    dark = ["A8-B8", "C8-D8", "E8-F8", "G8-H8"]
    for k in range(n):
        play(g, light[k], "end", dark[k], "end")


def test_r14_non_engaging_turns_flag_the_game_after_three_each():
    g = TaluGame()
    play(g, "A2-A3", "end")
    assert not g.turns[-1].non_engaging  # came nearer to the goal row
    g = TaluGame()
    _shuffle(g, 2)
    assert all(t.non_engaging for t in g.turns) and not g.flagged
    _shuffle_from(g, 2)
    assert g.flagged
    assert g.pass_turns == []  # nobody warned yet: nothing counts as a pass


def _shuffle_from(g: TaluGame, k: int) -> None:
    light = ["A1-B1", "C1-D1", "E1-F1", "G1-H1"]
    dark = ["A8-B8", "C8-D8", "E8-F8", "G8-H8"]
    play(g, light[k], "end", dark[k], "end")


def test_r14_warned_players_non_engaging_turns_count_as_passes():
    g = TaluGame()
    _shuffle(g, 3)
    g.warn(Side.I)
    play(g, "G1-H1", "end")
    assert g.pass_turns == ["004 I"]
    play(g, "G8-H8", "end")
    assert g.pass_turns == ["004 I"]  # O was not warned


def test_r14_recorded_warnings_replay_to_the_same_result():
    text = "\n".join([
        "001 I: A1-B1", "001 O: A8-B8", "002 I: C1-D1", "002 O: C8-D8",
        "003 I: E1-F1", "003 O: E8-F8", "004 I: G1-H1", "004 O: G8-H8",
    ])
    g = read_stgn(text, arbiter=[{"turn": "003 O", "action": "warn", "side": "I"}])
    assert g.pass_turns == ["004 I"]
    assert read_stgn(text).pass_turns == []
