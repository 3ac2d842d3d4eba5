"""Adjournment and sessions (R38) in talu's protocol: pure, with chosen times.

Offer and acceptance between players, or an arbiter; refused during a turn; the side to move
seals its turn (its steps visible to that side only, everyone else shown the position before
it, its time charged); the session ends with a ``seal``; resumption reveals the sealed turn and
starts the opponent's clock; a replay of the log is the same state.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from play import games
from play.games.clock import ms
from play.games.protocol import (
    CLOCK_ACTOR,
    Adjourn,
    BadCommand,
    CommandError,
    GameOptions,
    IllegalCommand,
    NotAllowed,
    PlayStep,
    Resume,
    TooEarly,
    arbiter,
    command_from_json,
    player,
    system,
    viewer_state,
)

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def _turn(state, side, frm, to, t, log):
    for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
        log += games.run(state, player(side), PlayStep(raw), at(t))


def _adjourned_game(tc="fischer 600+0"):
    """Two turns, then I offers and O accepts; I (to move) seals A2-A3 at 40 s."""
    log: list = []
    s = games.new_state("standard", GameOptions(time_control=tc, started=ms(T0)))
    _turn(s, "I", "A1", "B1", 5, log)
    _turn(s, "O", "A8", "B8", 10, log)
    log += games.run(s, player("I"), Adjourn(), at(20))
    assert s.sessions.offer == ("adjourn", "I") and not s.sessions.paused
    log += games.run(s, player("O"), Adjourn(), at(21))
    assert s.sessions.sealing == "I"
    return s, log


def test_offer_during_a_turn_is_refused_and_changes_nothing():
    s = games.new_state("standard", GameOptions())
    games.run(s, player("I"), PlayStep({"kind": "move", "from": "A2", "to": "A3"}))
    version = s.version
    for actor in (player("O"), player("I"), arbiter("ann")):
        with pytest.raises(IllegalCommand, match="between turns"):
            games.run(s, actor, Adjourn())
    assert s.version == version and s.sessions.offer is None


def test_sealed_turn_is_seen_by_its_side_only():
    s, _ = _adjourned_game()
    public = viewer_state(games.snapshot(s), None)
    before = public["board"]
    events = games.run(s, player("I"), PlayStep({"kind": "move", "from": "A2", "to": "A3"}),
                       at(30))
    assert events[0].visibility == "I"
    events = games.run(s, player("I"), PlayStep({"kind": "end"}), at(40))
    assert [e.kind for e in events] == ["step", "seal"]
    assert events[0].visibility == "I" and events[1].visibility == "all"
    snap = games.snapshot(s)
    for viewer in ("O", None):
        shown = viewer_state(snap, viewer)
        assert shown["board"] == before and "sealed" not in shown
        unclocked = {k: v for k, v in shown.items() if k not in ("clock", "adjournment")}
        assert unclocked == {k: v for k, v in public.items() if k not in ("clock",
                                                                          "adjournment")}
        assert shown["open_turn"]["steps"] == [] and shown["side_to_move"] == "I"
        assert shown["adjournment"] == {"sealing": "I", "adjourned": True, "session": 2,
                                        "resume_at": None}
    own = viewer_state(snap, "I")
    assert "A3" in own["board"]["I"] and "A2" not in own["board"]["I"]
    assert "A2-A3" not in games.rules_of(s).notation(s)
    # the session is over: no clock runs; I's turn, sealed, was charged (from O's end at
    # 10 s to the seal at 40 s)
    assert s.clock.running is None and games.deadline(s) is None
    assert s.clock.remaining["I"] == 600_000 - 30_000
    assert s.sessions.ended[0].clocks == {"I": 570_000, "O": 600_000}
    # play is refused until resumption
    with pytest.raises(IllegalCommand, match="adjourned"):
        games.run(s, player("O"), PlayStep({"kind": "move", "from": "A7", "to": "A6"}), at(50))


def test_illegal_sealed_turn_is_refused():
    s, _ = _adjourned_game()
    version = s.version
    with pytest.raises(CommandError):
        games.run(s, player("I"), PlayStep({"kind": "move", "from": "A2", "to": "A5"}), at(25))
    assert s.version == version and s.sessions.sealing == "I" and not s.sessions.adjourned


def test_resume_by_agreement_reveals_and_starts_the_clock():
    s, log = _adjourned_game()
    _turn(s, "I", "A2", "A3", 40, log)
    with pytest.raises(NotAllowed):
        games.run(s, system("x"), Resume())
    log += games.run(s, player("O"), Resume(), at(3600))
    assert s.sessions.paused
    events = games.run(s, player("I"), Resume(), at(3700))
    log += events
    assert events[0].kind == "resume" and events[0].data["text"].endswith("A2-A3")
    assert not s.sessions.paused and s.clock.running == "O"
    assert s.clock.since == ms(at(3700))
    snap = games.snapshot(s)
    assert "sealed" not in snap and "A3" in snap["board"]["I"]
    assert [d["action"] for d in snap["arbiter"]] == ["adjourn", "resume"]
    replayed = games.new_state("standard", GameOptions(time_control="fischer 600+0",
                                                       started=ms(T0)))
    for e in log:
        games.evolve(replayed, e)
    assert games.snapshot(replayed) == snap


def test_arbiter_adjourns_and_resumes_at_once():
    s = games.new_state("standard", GameOptions())
    with pytest.raises(IllegalCommand, match="not adjourned"):
        games.run(s, arbiter("ann"), Resume())
    games.run(s, arbiter("ann"), Adjourn("the hall closes"))
    assert s.sessions.sealing == "I"
    with pytest.raises(IllegalCommand, match="has not sealed"):
        games.run(s, arbiter("ann"), Resume())
    games.run(s, player("I"), PlayStep({"kind": "pass"}))
    assert s.sessions.adjourned
    games.run(s, arbiter("ann"), Resume("next morning"))
    assert not s.sessions.paused
    assert [d["reason"] for d in games.snapshot(s)["arbiter"]] == ["the hall closes",
                                                                  "next morning"]


def test_an_adjournment_reason_may_hold_joined_emoji_but_no_control():
    """Issue 41, finding 11: the arbiter's reason for an adjournment is checked as every
    external line is (``play.games.text``): joined emoji are words, a line break is not."""
    s = games.new_state("standard", GameOptions())
    with pytest.raises(BadCommand, match="reason"):
        games.run(s, arbiter("ann"), Adjourn("the hall\ncloses"))
    assert not s.sessions.paused
    games.run(s, arbiter("ann"), Adjourn("the hall closes 🧑‍🔧"))
    assert s.sessions.sealing == "I"


def test_no_warning_tells_of_the_sealed_turn():
    """R14's automatic warnings would reveal that the sealed turn was non-engaging: they wait
    for the resumption (R38)."""
    s = games.new_state("standard", GameOptions(auto_warn=True))
    log: list = []
    quiet = [("I", "A1", "B1"), ("O", "A8", "B8"), ("I", "C1", "D1"), ("O", "C8", "D8"),
             ("I", "E1", "F1")]
    for n, (side, frm, to) in enumerate(quiet):
        _turn(s, side, frm, to, n, log)
    games.run(s, player("I"), Adjourn(), at(10))
    games.run(s, player("O"), Adjourn(), at(11))
    _turn(s, "O", "E8", "F8", 12, log)  # the sealed turn flags the game
    assert s.sessions.adjourned and s.engine.flagged
    assert not s.engine.warned
    games.run(s, player("I"), Resume(), at(20))
    events = games.run(s, player("O"), Resume(), at(21))
    assert [e.kind for e in events] == ["resume", "warn", "warn"]


def test_arbiter_sets_the_resumption_time_and_the_clock_resumes_then():
    """R38: the arbiter sets the time play resumes (a ``schedule`` event everyone sees); the
    clock's ``resume`` is refused before it and opens the next session at it, the clocks
    restarting then; a replay of the log is the same state."""
    s, log = _adjourned_game()
    when = ms(at(7200))
    events = games.run(s, arbiter("ann"), Resume("round 2 resumes after lunch", when), at(30))
    log += events
    assert [(e.kind, e.data["resume_at"], e.visibility) for e in events] == [
        ("schedule", when, "all")]
    assert games.rules_of(s).resume_at(s) == when
    assert games.snapshot(s)["adjournment"]["resume_at"] == when
    # the sealed turn is not complete yet: the schedule stands, the seal comes first
    _turn(s, "I", "A2", "A3", 40, log)
    assert s.sessions.adjourned and games.deadline(s) is None
    version = s.version
    with pytest.raises(TooEarly, match="the time the arbiter set"):
        games.run(s, CLOCK_ACTOR, Resume(), at(7199))
    assert s.version == version and s.sessions.paused
    events = games.run(s, CLOCK_ACTOR, Resume(), at(7200.5))
    log += events
    assert [(e.kind, e.actor, e.data["by"]) for e in events] == [("resume", "clock", "arbiter")]
    assert not s.sessions.paused and games.rules_of(s).resume_at(s) is None
    assert s.clock.running == "O" and s.clock.since == ms(at(7200.5))
    assert games.deadline(s) == ms(at(7200.5)) + 600_000
    snap = games.snapshot(s)
    assert [(d["action"], d["reason"]) for d in snap["arbiter"]] == [
        ("adjourn", "adjourned by agreement"), ("resume", "round 2 resumes after lunch")]
    replayed = games.new_state("standard", GameOptions(time_control="fischer 600+0",
                                                       started=ms(T0)))
    for e in log:
        games.evolve(replayed, e)
    assert games.snapshot(replayed) == snap


def test_resumption_time_bad_input_changes_nothing():
    s, _ = _adjourned_game()
    _turn(s, "I", "A2", "A3", 40, [])
    version = s.version
    with pytest.raises(NotAllowed, match="only an arbiter sets the time"):
        games.run(s, player("O"), Resume("", ms(at(9000))), at(50))
    with pytest.raises(IllegalCommand, match="has passed"):
        games.run(s, arbiter("ann"), Resume("", ms(at(49))), at(50))
    with pytest.raises(BadCommand, match="at most 90 days"):
        games.run(s, arbiter("ann"), Resume("", ms(at(91 * 86_400))), at(50))
    with pytest.raises(IllegalCommand, match="no time is set"):
        games.run(s, CLOCK_ACTOR, Resume(), at(60))
    for bad in ("tomorrow", "2026-03-01T14:00:00", True, -5, {"x": 1}):
        with pytest.raises(BadCommand, match="resumption time"):
            command_from_json({"type": "resume", "reason": "", "at": bad})
    assert s.version == version and s.sessions.resume_at is None and s.sessions.paused
    parsed = command_from_json({"type": "resume", "at": "2026-03-01T02:00:00Z"})
    assert parsed.at == ms(at(7200))


def test_players_may_still_resume_sooner_by_agreement():
    """R38: both players present and agreeing resume at once; the arbiter's time lapses."""
    s, _ = _adjourned_game()
    _turn(s, "I", "A2", "A3", 40, [])
    games.run(s, arbiter("ann"), Resume("", ms(at(7200))), at(50))
    games.run(s, player("O"), Resume(), at(60))
    games.run(s, player("I"), Resume(), at(61))
    assert not s.sessions.paused and s.sessions.resume_at is None
    with pytest.raises(IllegalCommand, match="not adjourned"):
        games.run(s, CLOCK_ACTOR, Resume(), at(7200))
