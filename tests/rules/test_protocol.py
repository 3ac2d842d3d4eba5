"""The game protocol (``play.games``) is the rules engine seen through commands and events.

Random command sequences, legal and not, sent through ``decide``/``evolve`` (``games.run``)
give, after every command, the same state and outcome as the rules engine played directly with
the site's automatic arbiter of before the command path (warn both players when a turn ends
with the game flagged, R14, R39); a command the engine refuses is refused with the same words
and changes nothing; and the events folded into a fresh state (a replay of the log, R40) give
the same state again. Pure: no Django.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play import games
from play.games.protocol import (
    Announce,
    CommandError,
    DeclareNull,
    Forfeit,
    GameOptions,
    NotAllowed,
    PlayStep,
    Resign,
    arbiter,
    player,
    system,
)
from play.games.talu import Side, Step, TaluError, TaluGame, write_stgn
from play.games.talu.commands import CountAsPass, Warn

VARIANTS = ("standard", "grand-master", "dynamic")


def _board(snapshot: dict) -> dict:
    """A snapshot as the bare engine gives it: without the decision's cause (R37), which
    the protocol adds to an outcome."""
    if snapshot.get("outcome"):
        snapshot = {**snapshot, "outcome": {k: v for k, v in snapshot["outcome"].items()
                                            if k != "cause"}}
    return snapshot


def _engine_snapshot(engine: TaluGame) -> dict:
    """The bare engine's snapshot as the protocol shows it: a finished game's notation in
    the text that replays (``write_stgn``: a result resting on arbiter decisions as decided
    off the board, R15; issue 27)."""
    snapshot = engine.snapshot()
    if engine.outcome is not None:
        snapshot["notation"] = write_stgn(engine).splitlines()
    return snapshot


def _engine_turn(engine: TaluGame, side: str, raw) -> str | None:
    """The command path of before issue 19, on a bare engine: the error's words, or None."""
    if engine.side_to_move is None:
        return "over"
    if engine.side_to_move.value != side:
        return "turn"
    try:
        step = Step.from_dict(raw)
        turns = len(engine.turns)
        engine.play(step)
    except TaluError as err:
        return str(err)
    if len(engine.turns) > turns and engine.outcome is None and engine.flagged:
        for s in ("I", "O"):
            if Side(s) not in engine.warned:
                engine.warn(s, "non-engagement")
    return None


def _command(data: st.DataObject, engine: TaluGame):
    """A random command: mostly a legal step of the side to move (half of them quiet ones, so
    that games get flagged and warned), sometimes a step of the wrong side, a malformed or
    illegal one, a resignation, a warning or an announcement."""
    legal = engine.legal_steps()
    kind = data.draw(st.sampled_from(["legal"] * 6 + ["quiet"] * 6 + [
        "wrong_side", "junk", "resign", "warn", "announce", "count", "count", "forfeit",
        "null"]))
    mover = engine.side_to_move.value if engine.side_to_move else "I"
    if kind == "quiet":  # sideways moves, turns ended early: games that get flagged (R14)
        quiet = [s for s in legal if s.kind == "end" or (s.kind == "move"
                                                         and s.frm[1:] == s.to[1:])]
        legal = quiet or legal
    if kind in ("legal", "quiet") and legal:
        return player(mover), PlayStep(data.draw(st.sampled_from(legal)).to_dict())
    if kind == "wrong_side":
        other = "O" if mover == "I" else "I"
        step = legal[0].to_dict() if legal else {"kind": "pass"}
        return player(other), PlayStep(step)
    if kind == "junk":
        junk = data.draw(st.sampled_from([
            {"kind": "move", "from": "A1", "to": "H8"}, {"kind": "teleport"}, None,
            {"kind": "move", "from": "Z9", "to": "A3"}, {"kind": "exit", "to": "D4"},
            {"kind": "end"}, {"kind": "stay"}, "A2-A3"]))
        return player(mover), PlayStep(junk)
    if kind == "resign":
        return player(data.draw(st.sampled_from(["I", "O"]))), Resign()
    if kind == "warn":
        return arbiter("test"), Warn(data.draw(st.sampled_from(["I", "O"])), "stalling")
    if kind == "count":  # R39: a turn played (or not yet, or in progress) counts as a pass
        turn = data.draw(st.sampled_from([t.label for t in engine.turns[-6:]]
                                         + ["001 I", "099 O", f"{engine.round:03d} {mover}"]))
        return arbiter("test"), CountAsPass(turn, "stalling")
    if kind == "forfeit":
        return arbiter("test"), Forfeit(data.draw(st.sampled_from(["I", "O"])), "absent")
    if kind == "null":
        return arbiter("test"), DeclareNull("the board was knocked over")
    return system("test"), Announce("the server restarts at noon")


def _reference(engine: TaluGame, actor, command) -> str | None:
    """What the engine itself does with ``command`` (the error's words, or None)."""
    if isinstance(command, PlayStep):
        return _engine_turn(engine, actor.side, command.step)
    if isinstance(command, Resign):
        if engine.outcome is not None:
            return "over"
        engine.decide(Side(actor.side).other, f"{actor.side} resigned")
        return None
    if isinstance(command, Warn):
        if engine.outcome is not None:
            return "over"
        if Side(command.side) in engine.warned:
            return "already"
        engine.warn(command.side, command.reason)
        return None
    if isinstance(command, CountAsPass):
        if engine.outcome is not None:
            return "over"
        try:
            engine.count_as_pass(command.turn, None, command.reason)
        except TaluError as err:
            return str(err)
        return None
    if isinstance(command, Forfeit):
        if engine.outcome is not None:
            return "over"
        engine.arbiter_end("forfeit", command.side, command.reason)
        return None
    if isinstance(command, DeclareNull):
        if engine.outcome is not None:
            return "over"
        engine.arbiter_end("null", None, command.reason)
        return None
    return None  # an announcement changes nothing


# Sideways moves on the home rows: no capture, no new threat, no progress (R14), no repeated
# position (R13). After three such turns each the game is flagged.
QUIET = [("I", "A1", "B1"), ("O", "A8", "B8"), ("I", "C1", "D1"), ("O", "C8", "D8"),
         ("I", "E1", "F1"), ("O", "E8", "F8")]


QUIET_COMMANDS = [(player(side), PlayStep(raw)) for side, frm, to in QUIET
                  for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"})]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_commands_give_the_engines_states_and_outcomes(data):
    variant = data.draw(st.sampled_from(VARIANTS))
    state = games.new_state(variant, GameOptions(auto_warn=True))
    engine = TaluGame(variant)
    log = []
    # Half the 8x8 games open with six quiet turns, which flag them (R14): the automatic
    # arbiter's warnings, and warned players' turns counting as passes, then get exercised.
    prefix = QUIET_COMMANDS if variant != "grand-master" and data.draw(st.booleans()) else []
    for n in range(len(prefix) + data.draw(st.integers(20, 160))):
        actor, command = prefix[n] if n < len(prefix) else _command(data, engine)
        before = games.snapshot(state)
        try:
            events = games.run(state, actor, command)
        except CommandError as err:
            refused = _reference(engine, actor, command)
            assert refused is not None, (actor, command, err)
            if refused not in ("over", "turn", "already"):
                assert str(err) == refused
            assert games.snapshot(state) == before  # nothing changed
        else:
            assert _reference(engine, actor, command) is None, (actor, command)
            log.extend(events)
        assert _board(games.snapshot(state)) == _engine_snapshot(engine)
        assert state.version == len(log)
        if engine.outcome is not None:
            assert state.result is not None
            assert (state.result.winner, state.result.reason) == (
                engine.outcome.winner.value if engine.outcome.winner else None,
                engine.outcome.reason.value)
            break
    replayed = games.new_state(variant, GameOptions(auto_warn=True))
    for event in log:
        games.evolve(replayed, event)
    assert games.snapshot(replayed) == games.snapshot(state)


def test_a_refused_command_leaves_the_state_as_it_was():
    state = games.new_state("standard")
    before = copy.deepcopy(games.snapshot(state))
    with pytest.raises(CommandError) as err:
        games.run(state, player("I"), PlayStep({"kind": "move", "from": "A2", "to": "A4"}))
    assert err.value.code == "illegal" and "A4 is not next to A2" in str(err.value)
    assert games.snapshot(state) == before and state.version == 0


@pytest.mark.parametrize("actor, command", [
    (system("x"), PlayStep({"kind": "pass"})),  # only players play steps
    (arbiter("x"), Resign()),  # only a player resigns
    (player("I"), Warn("O", "stalling")),  # only an arbiter warns
    (player("I"), Announce("hello")),  # only the system announces
])
def test_each_actor_may_send_only_its_own_commands(actor, command):
    state = games.new_state("standard")
    with pytest.raises(NotAllowed):
        games.run(state, actor, command)
    assert state.version == 0


def test_events_say_who_caused_them_and_who_may_see_them():
    state = games.new_state("standard")
    step, = games.run(state, player("I"), PlayStep({"kind": "move", "from": "A2", "to": "A3"}))
    note, = games.run(state, system("ops"), Announce("the server restarts at noon"))
    assert (step.kind, step.side, step.actor, step.visibility) == ("step", "I", "player", "all")
    assert (note.kind, note.side, note.actor, note.data) == (
        "note", "", "system", {"message": "the server restarts at noon"})
    assert step.visible_to(None) and note.visible_to("O")


def test_the_automatic_arbiter_warns_both_with_the_turn_that_flags_the_game():
    state, engine = games.new_state("standard"), TaluGame("standard")
    for side, frm, to in QUIET:
        for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
            events = games.run(state, player(side), PlayStep(raw))
            assert _engine_turn(engine, side, raw) is None
    assert [(e.kind, e.data["side"], e.actor) for e in events[1:]] == [
        ("warn", "I", "system"), ("warn", "O", "system")]
    assert games.snapshot(state) == engine.snapshot()
    assert games.snapshot(state)["warned"] == ["I", "O"]


def test_an_event_policy_off_warns_nobody():
    state = games.new_state("standard", GameOptions(auto_warn=False))
    for side, frm, to in QUIET:
        for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
            events = games.run(state, player(side), PlayStep(raw))
    assert [e.kind for e in events] == ["step"]
    assert games.snapshot(state)["flagged"] and games.snapshot(state)["warned"] == []
