"""The arbiter's actions in play (R39) and their replay from the records (R34, R12, R15).

Each action is decided by the game protocol (``play.games.talu.protocol``) for an actor of
kind arbiter, folded into the engine, and recorded as an item of the session entry's
``arbiter`` list; ``read_stgn`` given those items (what ``talu verify`` does with a session
entry) reaches the same result, and ``write_stgn`` writes an STGN that ``talu replay`` reads
without them (R15: a result resting on arbiter decisions is a decision off the board). Pure.
"""

from __future__ import annotations

import pytest

from play import games
from play.games.protocol import (
    BadCommand,
    DeclareNull,
    Forfeit,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    PlayStep,
    arbiter,
    player,
    system,
)
from play.games.talu import Side, Step, TaluGame, Termination, read_stgn, write_stgn
from play.games.talu.commands import CountAsPass, Warn
from play.games.talu.protocol import describe

from .helpers import play

REF = arbiter("carol")


def _state(*texts: str, auto_warn: bool = False):
    state = games.new_state("standard", GameOptions(auto_warn=auto_warn))
    for t in texts:
        side = state.engine.side_to_move.value
        if t in ("end", "pass"):
            raw = {"kind": t}
        else:
            a, b = t.split("-")
            raw = {"kind": "move", "from": a, "to": b}
        games.run(state, player(side), PlayStep(raw))
    return state


def _replay(state):
    """The records' replay: the notation and the arbiter items, as ``talu verify`` does."""
    engine = state.engine
    return read_stgn(engine.stgn(), arbiter=[d.to_dict() for d in engine.arbiter])


def _same(a, b) -> None:
    assert (a.outcome.winner, a.outcome.reason) == (b.outcome.winner, b.outcome.reason)
    assert a.pass_turns == b.pass_turns and a.board() == b.board()


# --- warn ---------------------------------------------------------------------------------------

def test_an_arbiters_warning_makes_that_sides_non_engaging_turns_count_as_passes():
    state = _state("A1-B1", "end", "A8-B8", "end")
    [event] = games.run(state, REF, Warn("I", "shuffling on the home row"))
    assert (event.kind, event.actor, event.data) == (
        "warn", "arbiter", {"side": "I", "reason": "shuffling on the home row", "by": "carol"})
    assert describe(event.kind, event.data) == (
        "Arbiter: light is warned for shuffling on the home row")
    for t in ("C1-D1", "end", "C8-D8", "end"):
        games.run(state, player(state.engine.side_to_move.value),
                  PlayStep({"kind": t} if t == "end" else
                           {"kind": "move", "from": t[:2], "to": t[3:]}))
    assert state.engine.pass_turns == ["002 I"]  # O was not warned
    assert state.engine.arbiter[0].to_dict() == {
        "turn": "001 O", "action": "warn", "side": "I", "reason": "shuffling on the home row"}
    _same_position = _replay(state)
    assert _same_position.pass_turns == ["002 I"]


def test_a_side_warned_already_is_not_warned_twice():
    state = _state()
    games.run(state, REF, Warn("O", "stalling"))
    with pytest.raises(IllegalCommand, match="warned already"):
        games.run(state, REF, Warn("O", "stalling"))
    assert state.version == 1


# --- count_as_pass ------------------------------------------------------------------------------

def test_count_as_pass_completing_three_own_passes_forfeits_at_once():
    # I passes twice, then moves; counting the move as a pass makes three (R12): I forfeits.
    state = _state("pass", "A7-A6", "end", "pass", "B7-B6", "end", "A2-A3", "end")
    assert state.engine.outcome is None and state.engine.pass_turns == ["001 I", "002 I"]
    [event] = games.run(state, REF, CountAsPass("003 I", "the move was a sham", "I"))
    assert event.kind == "count" and event.data["turn"] == "003 I"
    assert state.result.winner == "O" and state.result.reason == "forfeit"
    assert state.engine.stgn_lines()[-2:] == ["003 I: A2-A3 !", "!: O"]
    replayed = _replay(state)
    _same(replayed, state.engine)
    # Without the decision the notation alone is not decided there: the STGN file the site
    # writes is a decision off the board, which replays to the same winner (R15).
    text = write_stgn(state.engine)
    assert text.splitlines()[-2:] == ["003 I: A2-A3", "!: O"]
    plain = read_stgn(text)
    assert plain.outcome.winner is Side.O and plain.outcome.reason is Termination.DECISION


def test_count_as_pass_of_an_earlier_turn_rechecks_both_sides_and_replays_from_the_moment():
    # 001 I and 003 I are passes; 002 I is a move. Counting 002 I after 003 O was played makes
    # I's own last three passes: I forfeits then, and the replay applies it at 003 O, not 002 I.
    state = _state("pass", "A7-A6", "end", "A2-A3", "end", "B7-B6", "end", "pass",
                   "C7-C6", "end")
    games.run(state, REF, CountAsPass("002 I", "an empty move", ""))
    assert state.result.winner == "O" and state.result.reason == "forfeit"
    [item] = [d.to_dict() for d in state.engine.arbiter]
    assert item == {"turn": "002 I", "action": "count_as_pass", "side": "I",
                    "reason": "an empty move", "at": "003 O"}
    _same(_replay(state), state.engine)
    # recorded without its moment, the decision would have ended the game at 002 I: the
    # later turns then follow the end of the game, and the replay says so
    with pytest.raises(ValueError, match=r"after|follows|decided"):
        read_stgn(state.engine.stgn(), arbiter=[{**item, "at": ""}])


def test_count_as_pass_making_three_turns_in_a_row_passes_makes_the_game_null():
    state = _state("pass", "pass", "A2-A3", "end")
    games.run(state, REF, CountAsPass("002 I", "not a real move"))
    assert state.result.winner is None and state.result.reason == "null"
    _same(_replay(state), state.engine)


@pytest.mark.parametrize("turn, words", [
    ("005 I", "there is no turn 005 I"),
    ("002 O", "still in progress"),
    ("001 I", "counts as a pass already"),
    ("yesterday", "is not like '014 O'"),
])
def test_count_as_pass_of_a_turn_not_played_is_refused(turn, words):
    state = _state("pass", "A7-A6", "end", "A2-A3", "end", "B7-B6")  # 002 O in progress
    before = games.snapshot(state)
    with pytest.raises((IllegalCommand, BadCommand), match=words):
        games.run(state, REF, CountAsPass(turn, "a reason"))
    assert games.snapshot(state) == before and state.version == 6


def test_count_as_pass_with_a_forged_side_is_refused():
    state = _state("A2-A3", "end")
    with pytest.raises(IllegalCommand, match="played by I, not by O"):
        games.run(state, REF, CountAsPass("001 I", "a reason", "O"))
    assert state.engine.arbiter == [] and state.version == 2


# --- forfeit and null ---------------------------------------------------------------------------

def test_a_forfeit_mid_turn_discards_the_open_turn_and_replays_to_the_same_result():
    state = _state("A2-A3", "end", "A7-A6")  # O is mid-turn
    games.run(state, REF, Forfeit("O", "left the venue"))
    engine = state.engine
    assert state.result.winner == "I" and state.result.reason == "forfeit"
    assert engine.board()["O"] == read_stgn("001 I: A2-A3").board()["O"]  # A7-A6 undone
    assert engine.stgn_lines() == ["001 I: A2-A3 !", "!: I"]
    assert [d.to_dict() for d in engine.arbiter] == [
        {"turn": "001 I", "action": "forfeit", "side": "O", "reason": "left the venue"}]
    _same(_replay(state), engine)
    assert read_stgn(write_stgn(engine)).outcome.winner is Side.I


def test_a_forfeit_before_the_first_turn_replays_too():
    state = _state()
    games.run(state, REF, Forfeit("I", "did not come"))
    replayed = _replay(state)
    assert replayed.outcome.winner is Side.O and replayed.outcome.reason is Termination.FORFEIT
    assert write_stgn(state.engine) == "!: O\n"


def test_null_by_the_arbiter():
    state = _state("A2-A3", "end")
    [event] = games.run(state, REF, DeclareNull("the players agreed a draw"))
    assert describe(event.kind, event.data) == (
        "Arbiter: the game is null (the players agreed a draw)")
    assert state.result.winner is None and state.result.reason == "null"
    _same(_replay(state), state.engine)


# --- who, and bad input -------------------------------------------------------------------------

@pytest.mark.parametrize("actor", [player("I"), player("O"), system("auto")])
@pytest.mark.parametrize("command", [CountAsPass("001 I", "r"), Forfeit("I", "r"),
                                     DeclareNull("r")])
def test_only_an_arbiter_counts_forfeits_or_nulls(actor, command):
    state = _state("A2-A3", "end")
    with pytest.raises(NotAllowed):
        games.run(state, actor, command)
    assert state.version == 2 and state.result is None


@pytest.mark.parametrize("command", [Warn("I", " "), CountAsPass("001 I", ""),
                                     Forfeit("O", "\t"), DeclareNull("")])
def test_every_action_needs_a_reason(command):
    state = _state("A2-A3", "end")
    with pytest.raises(BadCommand, match="reason"):
        games.run(state, REF, command)
    assert state.version == 2


def test_a_reason_with_emoji_joined_by_zwj_is_words_and_a_hidden_control_is_not():
    """Issue 41, finding 11: emoji joined by U+200D (a family, a flag) are ordinary text in a
    reason, as in a name (``play.games.text``, the one check); a bidirectional override that
    would turn the shown line around is still refused, nothing changed."""
    state = _state("A2-A3", "end")
    reason = "left for the 👨‍👩‍👧 and the 🏳️‍🌈 parade"
    [event] = games.run(state, REF, Warn("O", reason))
    assert event.data["reason"] == reason
    state = _state("A2-A3", "end")
    with pytest.raises(BadCommand, match="reason"):
        games.run(state, REF, Warn("O", "slow ‮yalp"))
    assert state.version == 2


@pytest.mark.parametrize("command", [Warn("I", "r"), CountAsPass("001 I", "r"),
                                     Forfeit("O", "r"), DeclareNull("r")])
def test_no_action_on_a_finished_game(command):
    state = _state("pass", "pass", "pass")  # null by R12
    assert state.result is not None
    with pytest.raises(GameOver):
        games.run(state, REF, command)
    assert state.version == 3


@pytest.mark.parametrize("data, words", [
    ({"type": "forfeit", "side": "X", "reason": "r"}, "side"),
    ({"type": "forfeit", "side": "I"}, "reason"),
    ({"type": "warn", "side": "both", "reason": "r"}, "side"),
    ({"type": "count_as_pass", "reason": "r"}, "turn"),
    ({"type": "count_as_pass", "turn": "001 I", "side": 1, "reason": "r"}, "side"),
    ({"type": "null"}, "reason"),
])
def test_malformed_arbiter_commands_are_refused_with_words(data, words):
    # Refused off the wire or, for a seat the game does not have, by the match: either way
    # with words, nothing changed.
    state = games.new_state("standard")
    with pytest.raises(BadCommand, match=words):
        games.run(state, REF, games.parse_command("standard", data))
    assert state.version == 0


# --- the found bug: the site's STGN of a game ended after the automatic warnings ----------------

def test_stgn_of_a_game_ended_after_the_automatic_warnings_replays():
    # Six quiet turns flag the game, the automatic arbiter warns both (R14, R39); I's next
    # three non-engaging turns count as passes: I forfeits (R12).
    g = TaluGame()
    shuffle = ["A1-B1", "A8-B8", "C1-D1", "C8-D8", "E1-F1", "E8-F8"]
    for move in shuffle:
        play(g, move, "end")
    g.warn(Side.I)
    g.warn(Side.O)
    play(g, "G1-H1", "end", "A7-A6", "end", "B1-A1", "end", "B7-B6", "end", "D1-C1", "end")
    assert g.outcome.winner is Side.O and g.outcome.reason is Termination.FORFEIT
    with pytest.raises(ValueError, match="marks the end of the game"):
        read_stgn(g.stgn())  # what the site used to write: refused by `talu replay`
    text = write_stgn(g)
    assert text.splitlines()[-2:] == ["006 I: D1-C1", "!: O"]
    assert read_stgn(text).outcome.winner is Side.O
    # a game the rules decide alone keeps its canonical text
    h = TaluGame()
    h.warn(Side.I)
    play(h, "pass", "pass", "pass")
    assert write_stgn(h) == h.stgn()


def test_recorded_items_replay_through_the_engine_alone():
    g = TaluGame()
    play(g, "A2-A3", "end")
    g.count_as_pass("001 I", None, "sham")
    g2 = read_stgn(g.stgn(), arbiter=[d.to_dict() for d in g.arbiter])
    assert g2.pass_turns == g.pass_turns == ["001 I"]
    assert g.turns[0].counts_as_pass and Step("end")


def test_decisions_at_one_moment_replay_in_the_order_they_were_taken():
    # A warning of O, then I's last turn counted as a pass, both after 003 I: the count ends
    # the game; the warning before it is no decision after the end (the replay keeps order).
    state = _state("pass", "A7-A6", "end", "pass", "B7-B6", "end", "A2-A3", "end")
    games.run(state, REF, Warn("O", "non-engagement"))
    games.run(state, REF, CountAsPass("003 I", "a sham move"))
    assert state.result.winner == "O"
    assert [d.action for d in state.engine.arbiter] == ["warn", "count_as_pass"]
    _same(_replay(state), state.engine)


# --- the signs an arbiter watches (the console) ----------------------------------------------

def test_warning_signs_show_runs_passes_and_the_position_a_stall_repeats():
    from play.games.talu.signs import warning_signs

    g = TaluGame()
    play(g, "A1-B1", "end", "A8-B8", "end", "C1-D1", "end", "C8-D8", "end", "E1-F1", "end",
         "E8-F8", "end")
    signs = warning_signs(g)
    assert signs["flagged"] and signs["non_engaging_run"] == {"I": 3, "O": 3}
    assert signs["passes_in_a_row"] == {"I": 0, "O": 0} and signs["stalls"] == []
    g.warn(Side.I)
    play(g, "pass")
    signs = warning_signs(g)
    assert signs["passes_in_a_row"] == {"I": 1, "O": 0} and signs["warned"] == ["I"]
    assert signs["game_passes_in_a_row"] == 1 and signs["last_turn"] == "004 I"
    # R13: back to the opening, then to the position after 001 I
    h = TaluGame()
    play(h, "A2-A3", "end", "A7-A6", "end", "A3-A2", "end", "A6-A7", "end", "A2-A3", "end")
    assert warning_signs(h)["stalls"] == [
        {"turn": "002 O", "side": "O", "repeats": "the opening"},
        {"turn": "003 I", "side": "I", "repeats": "the position after 001 I"}]
    assert warning_signs(h)["passes_in_a_row"] == {"I": 1, "O": 1}


# --- what a client is shown: state.notation replays too (issue 27, finding 13) ----------------

@pytest.mark.parametrize("ending", ["automatic warnings", "arbiter's forfeit"])
def test_the_notation_a_client_is_shown_replays_for_an_arbitrated_game(ending):
    # docs/protocol.md: state.notation replays with `talu replay` for every game, an
    # arbitrated one included (the deciding turn without ' !', then the result line alone).
    quiet = ["A1-B1", "A8-B8", "C1-D1", "C8-D8", "E1-F1", "E8-F8"]
    moves = [m for move in quiet for m in (move, "end")]
    if ending == "automatic warnings":  # I's three non-engaging turns count as passes (R14)
        moves += ["G1-H1", "end", "A7-A6", "end", "B1-A1", "end", "B7-B6", "end", "D1-C1", "end"]
    state = _state(*moves, auto_warn=True)
    if ending == "arbiter's forfeit":
        games.run(state, REF, Forfeit("I", "left the hall"))
    assert state.engine.outcome is not None and state.engine.arbiter
    rules = games.rules_of(state)
    for text in (rules.notation(state), "\n".join(games.snapshot(state)["notation"]) + "\n"):
        replayed = read_stgn(text)
        assert replayed.outcome is not None, text
        assert replayed.outcome.winner == state.engine.outcome.winner, text
        assert replayed.board() == state.engine.board()
