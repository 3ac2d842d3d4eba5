"""The clock inside talu's protocol (R36, R37, R40): pure, with the ``now`` of each command.

A timed game's steps carry their time; the clock switches when a turn ends, never between its
steps; a flag is a command the core checks against its own clock (an early claim is refused,
nothing changes); a side that does not complete its opening turn in time aborts the game; a
replay of the stored events gives the same clocks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from play import games
from play.games.clock import ms
from play.games.protocol import (
    CLOCK_ACTOR,
    Flag,
    GameOptions,
    PlayStep,
    Resign,
    TooEarly,
    player,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _new(tc: str = "fischer 60+2"):
    return games.new_state("standard", GameOptions(time_control=tc, started=ms(T0)))


def _quiet_turn(state, side: str, at: datetime, lag: int = 0) -> list:
    """``side`` plays one move and ends its turn at ``at``: the events stored."""
    move = next(s for s in state.engine.legal_steps() if s.kind == "move")
    events = games.run(state, player(side), PlayStep(move.to_dict(), lag), at)
    events += games.run(state, player(side), PlayStep({"kind": "end"}), at)
    return events


def test_clock_switches_per_turn_and_adds_increment():
    s = _new()
    _quiet_turn(s, "I", T0 + timedelta(seconds=5))
    _quiet_turn(s, "O", T0 + timedelta(seconds=8))
    clock = s.clock
    assert clock.remaining == {"I": 60_000, "O": 60_000}  # opening turns: never charged
    t = T0 + timedelta(seconds=8)
    move = next(x for x in s.engine.legal_steps() if x.kind == "move")
    games.run(s, player("I"), PlayStep(move.to_dict()), t + timedelta(seconds=3))
    assert clock.running == "I"  # a step inside the turn switches nothing
    games.run(s, player("I"), PlayStep({"kind": "end"}), t + timedelta(seconds=10))
    assert clock.running == "O"
    assert clock.remaining["I"] == 60_000 - 10_000 + 2_000
    snap = games.snapshot(s)["clock"]
    assert snap["running"] == "O" and snap["remaining"]["I"] == 52_000
    assert snap["control"] == "fischer 60+2"
    assert games.deadline(s) == ms(t + timedelta(seconds=10)) + 60_000


def test_early_flag_is_refused_and_changes_nothing():
    s = _new()
    _quiet_turn(s, "I", T0 + timedelta(seconds=5))
    _quiet_turn(s, "O", T0 + timedelta(seconds=8))
    version = s.version
    with pytest.raises(TooEarly, match="has not run out"):
        games.run(s, player("O"), Flag(), T0 + timedelta(seconds=60))
    assert s.version == version and s.result is None


def test_flag_at_deadline_wins_on_time():
    s = _new()
    _quiet_turn(s, "I", T0 + timedelta(seconds=5))
    _quiet_turn(s, "O", T0 + timedelta(seconds=8))
    events = games.run(s, CLOCK_ACTOR, Flag(), T0 + timedelta(seconds=68))
    assert [e.kind for e in events] == ["decide"]
    assert events[0].data["cause"] == "time" and events[0].actor == "clock"
    assert s.result.winner == "O" and s.result.reason == "decision"
    assert s.result.cause == "time"
    assert s.clock.remaining["I"] == 0 and games.deadline(s) is None


def test_a_late_step_loses_on_time_instead():
    s = _new()
    _quiet_turn(s, "I", T0 + timedelta(seconds=5))
    _quiet_turn(s, "O", T0 + timedelta(seconds=8))
    move = next(x for x in s.engine.legal_steps() if x.kind == "move")
    events = games.run(s, player("I"), PlayStep(move.to_dict()), T0 + timedelta(seconds=90))
    assert events[0].kind == "decide" and s.result.cause == "time"


def test_opening_turn_not_completed_aborts():
    s = _new("fischer 600+5")
    with pytest.raises(TooEarly):
        games.run(s, CLOCK_ACTOR, Flag(), T0 + timedelta(seconds=29))
    events = games.run(s, CLOCK_ACTOR, Flag(), T0 + timedelta(seconds=30))
    assert events[0].kind == "abort"
    assert s.result.reason == "aborted" and s.result.winner is None
    snap = games.snapshot(s)
    assert snap["outcome"]["reason"] == "aborted"
    # In words: aborted, not "Null game", and light, not "I" (read as the pronoun, issue 24).
    assert snap["outcome"]["text"] == ("Game aborted: light did not complete the opening turn "
                                       "in time (no result, no rating change)")


@pytest.mark.parametrize("late", ["I", "O"])
def test_event_game_opening_turn_not_completed_is_an_unplayed_loss(late):
    """R41: in an event's game the side that does not complete its opening turn in time loses
    it as an unplayed game (a decision, cause ``unplayed``), not an abort (R36, R37); the
    same flag in a casual game (above) aborts it. A replay of the log agrees."""
    options = GameOptions(time_control="fischer 600+5", started=ms(T0), in_event=True)
    s = games.new_state("standard", options)
    log: list = []
    start = T0
    if late == "O":  # I completes its opening turn; O's 30 s run from then
        start = T0 + timedelta(seconds=4)
        log += _quiet_turn(s, "I", start)
    with pytest.raises(TooEarly):
        games.run(s, CLOCK_ACTOR, Flag(), start + timedelta(seconds=29))
    events = games.run(s, CLOCK_ACTOR, Flag(), start + timedelta(seconds=30))
    log += events
    winner = "O" if late == "I" else "I"
    assert [(e.kind, e.side, e.data["cause"], e.data["winner"]) for e in events] == [
        ("decide", late, "unplayed", winner)]
    assert (s.result.winner, s.result.reason, s.result.cause) == (winner, "decision",
                                                                  "unplayed")
    outcome = games.snapshot(s)["outcome"]
    assert outcome["winner"] == winner and outcome["cause"] == "unplayed"
    assert games.deadline(s) is None
    replayed = games.new_state("standard", options)
    for e in log:
        games.evolve(replayed, e)
    assert replayed.result == s.result


def test_event_game_after_the_openings_flags_on_time():
    """The exception is the opening turn's alone: later an event game is lost on time."""
    s = games.new_state("standard", GameOptions(time_control="fischer 60+0", started=ms(T0),
                                                in_event=True))
    _quiet_turn(s, "I", T0 + timedelta(seconds=5))
    _quiet_turn(s, "O", T0 + timedelta(seconds=8))
    events = games.run(s, CLOCK_ACTOR, Flag(), T0 + timedelta(seconds=68))
    assert events[0].data["cause"] == "time" and s.result.winner == "O"


def test_resignation_cause():
    s = _new("untimed")
    games.run(s, player("I"), Resign(), T0)
    assert s.result.cause == "resignation"
    assert "clock" not in games.snapshot(s)
    assert games.snapshot(s)["outcome"]["cause"] == "resignation"


def test_untimed_game_has_no_flag():
    s = _new("untimed")
    with pytest.raises(Exception, match="untimed"):
        games.run(s, CLOCK_ACTOR, Flag(), T0 + timedelta(days=99))


def test_replay_gives_the_same_clock():
    s = _new("byoyomi 30 2x10")
    log = []
    log += _quiet_turn(s, "I", T0 + timedelta(seconds=1))
    log += _quiet_turn(s, "O", T0 + timedelta(seconds=2))
    log += _quiet_turn(s, "I", T0 + timedelta(seconds=45), lag=800)
    fresh = _new("byoyomi 30 2x10")
    for e in log:
        games.evolve(fresh, e)
    assert fresh.clock.snapshot() == s.clock.snapshot()
    assert s.clock.remaining["I"] == 0 and s.clock.periods["I"] == 1  # 42.2 s: one period
