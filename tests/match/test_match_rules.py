"""The match rules (``play.games.match``), tested once, against a tiny game of three seats.

Everything players and arbiters do around a game's rules (R36-R39 read per seat) is the
match's, written once for every game: resignation, clocks per seat and their flags, absence
claims, adjournment with a sealed turn and its resumption, the arbiter's forfeit, null and
added time, offers between players, announcements; results are ranks of seats with ties.
``tests/match/tinygame.py`` is the game (a race to a target, seats 1, 2, 3; a two-seat
variant and one with a neutral seat), so these tests say what every game gets. Pure: no
Django, chosen times.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.games.clock import ms
from play.games.match import MatchState
from play.games.match.match import Match
from play.games.protocol import (
    CLOCK_ACTOR,
    Actor,
    AddTime,
    Adjourn,
    Announce,
    BadCommand,
    ClaimAbsence,
    Command,
    CommandError,
    DeclareNull,
    Decline,
    Event,
    Flag,
    Forfeit,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    NotYourTurn,
    Offer,
    PlayStep,
    Resign,
    Result,
    Resume,
    TooEarly,
    arbiter,
    player,
    system,
    viewer_state,
)
from tests.match.tinygame import TinyRules

MATCH = Match(TinyRules())
T0 = datetime(2026, 3, 1, tzinfo=UTC)
LIVE = "fischer 60+0"  # an absence limit of 15 s + 10% of 60 s = 21 s (R37)
ARBITER = arbiter("ann")


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def add(n: int = 1, again: bool = False) -> PlayStep:
    return PlayStep({"add": n, "again": again} if again else {"add": n})


class Table:
    """One game and its log, as the server keeps them: ``run`` decides a command, folds its
    events and the follow-ups (``Match.run``, as ``play.games.run`` does)."""

    def __init__(self, variant: str = "race", tc: str = "untimed", **options: Any) -> None:
        self.variant = variant
        self.options = GameOptions(time_control=tc, started=ms(T0), **options)
        self.state: MatchState = MATCH.new_state(variant, self.options)
        self.log: list[Event] = []

    def run(self, actor: Actor, command: Command, t: float | None = None) -> list[Event]:
        events = MATCH.run(self.state, actor, command, at(t) if t is not None else None)
        self.log += events
        return events

    def kinds(self, actor: Actor, command: Command, t: float | None = None) -> list[str]:
        return [e.kind for e in self.run(actor, command, t)]

    def refused(self, actor: Actor, command: Command, t: float | None = None,
                error: type[CommandError] = CommandError) -> str:
        """The words of a refusal, checking that nothing changed."""
        version, snap = self.state.version, MATCH.snapshot(self.state)
        with pytest.raises(error) as refusal:
            self.run(actor, command, t)
        assert self.state.version == version
        assert MATCH.snapshot(self.state) == snap
        return str(refusal.value)

    def turns(self, *moves: tuple[str, float]) -> None:
        for seat, t in moves:
            self.run(player(seat), add(), t)

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def snap(self) -> dict[str, Any]:
        return MATCH.snapshot(self.state)

    def replayed(self) -> MatchState:
        """A fresh state with the stored log folded in (through the log's JSON)."""
        fresh = MATCH.new_state(self.variant, self.options)
        for event in self.log:
            MATCH.evolve(fresh, Event.from_json(event.to_json()))
        return fresh


# --- ranks -------------------------------------------------------------------------------------

def test_ranks_tie_as_competition_ranks():
    assert Result({"1": 1, "2": 1, "3": 3}, "x").winner is None
    assert Result({"1": 1, "2": 2, "3": 2}, "x").ranks == {"1": 1, "2": 2, "3": 2}
    assert Result({"1": 2, "2": 1}, "x").winner == "2"
    for wrong in ({"1": 1, "2": 1, "3": 2}, {"1": 2, "2": 2}, {"1": 1, "2": 3}, {"1": 0}):
        with pytest.raises(ValueError, match="1, 1, 3"):
            Result(wrong, "x")
    assert Result.by_order([["3"], ["1", "2"]], "x").ranks == {"3": 1, "1": 2, "2": 2}
    assert not Result({}, "null").ranked


def test_a_stopped_race_ranks_by_counters_with_ties():
    g = Table()
    g.run(player("1"), add(2), 1)
    g.run(player("2"), add(2), 2)
    g.run(player("3"), add(1), 3)
    assert g.kinds(player("1"), PlayStep({"stop": True}), 4) == ["stop"]
    assert g.result is not None and dict(g.result.ranks) == {"1": 1, "2": 1, "3": 3}
    assert g.snap["outcome"]["text"] == "ranks 1: 1, 2: 1, 3: 3 (stop)"
    assert MATCH.to_act(g.state) == ()
    assert "is over (ranks 1: 1" in g.refused(player("2"), add(), 5, GameOver)


def test_reaching_the_target_wins():
    g = Table("duel", extra={"target": 3})
    g.run(player("1"), add(2), 1)
    g.run(player("2"), add(1), 2)
    g.run(player("1"), add(1), 3)
    assert g.result is not None and g.result.winner == "1" and g.result.reason == "target"
    assert g.snap["outcome"]["winner"] == "1"


# --- resignation ------------------------------------------------------------------------------

def test_resigning_in_two_seats_the_other_wins():
    g = Table("duel")
    g.run(player("1"), add(), 1)
    assert g.kinds(player("1"), Resign(), 2) == ["decide"]
    r = g.result
    assert r is not None and dict(r.ranks) == {"2": 1, "1": 2} and r.winner == "2"
    assert r.cause == "resignation"
    assert g.snap["outcome"]["cause"] == "resignation"
    assert g.snap["outcome"]["text"] == "2 won (decision)"
    assert "the game is over (2 won" in g.refused(player("2"), add(), 3, GameOver)
    assert "over" in g.refused(player("2"), Resign(), 3, GameOver)


def test_resigning_in_three_seats_leaves_and_the_others_play_on():
    g = Table()
    g.turns(("1", 1))
    assert g.kinds(player("3"), Resign(), 2) == ["leave"]
    assert g.result is None and g.state.left == ["3"]
    assert g.snap["left"] == ["3"]
    g.turns(("2", 3))
    assert MATCH.to_act(g.state) == ("1",)  # 3 is skipped
    assert g.refused(player("3"), add(), 4, NotAllowed) == "you have left this game"
    assert g.refused(player("3"), Resign(), 4, NotAllowed) == "you have left this game"
    g.turns(("1", 4), ("2", 5))
    # the seat to move resigns: the turn passes on
    assert g.kinds(player("1"), Resign(), 6) == ["leave"]
    # one seat is left: the game ends, ranked by the order of leaving (the last best)
    r = g.result
    assert r is not None and dict(r.ranks) == {"2": 1, "1": 2, "3": 3}
    assert r.winner == "2" and r.cause == "resignation"
    assert MATCH.to_act(g.state) == ()
    assert g.snap["outcome"]["ranks"] == {"2": 1, "1": 2, "3": 3}


def test_the_seat_to_move_resigns_and_the_next_moves():
    g = Table()
    g.run(player("1"), Resign(), 1)
    assert MATCH.to_act(g.state) == ("2",)
    g.turns(("2", 2), ("3", 3), ("2", 4))
    assert g.state.engine.lines == ["2 +1", "3 +1", "2 +1"]


def test_a_seat_that_left_ranks_below_the_others_whatever_its_counter():
    g = Table(extra={"target": 3})
    g.run(player("1"), add(2), 1)
    g.run(player("1"), Resign(), 2)  # not its turn: it leaves with 2
    g.turns(("2", 3), ("3", 4))
    g.run(player("2"), add(2), 5)
    r = g.result
    assert r is not None and dict(r.ranks) == {"2": 1, "3": 2, "1": 3}
    assert r.reason == "target"


def test_only_a_player_resigns():
    g = Table()
    for actor in (ARBITER, system(), CLOCK_ACTOR):
        assert "only a player can resign" in g.refused(actor, Resign(), 1, NotAllowed)


# --- the clock per seat -----------------------------------------------------------------------

def test_the_clock_passes_in_seat_order_skipping_seats_that_left():
    g = Table(tc=LIVE)
    clock = g.state.clock
    assert clock is not None and clock.running == "1" and clock.seats == ("1", "2", "3")
    g.turns(("1", 5))
    assert (clock.running, clock.since) == ("2", ms(at(5)))
    g.turns(("2", 10), ("3", 12))  # opening turns: never charged (R36)
    assert (clock.running, clock.since) == ("1", ms(at(12)))
    assert g.snap["clock"]["remaining"] == {"1": 60_000, "2": 60_000, "3": 60_000}
    assert g.snap["clock"]["opening"] == []
    g.run(player("3"), Resign(), 20)
    assert clock.seats == ("1", "2") and clock.running == "1"
    g.turns(("1", 30))
    assert clock.running == "2" and clock.remaining["1"] == 42_000
    g.turns(("2", 40))
    assert clock.running == "1" and clock.remaining["2"] == 50_000  # not 3: it left
    assert MATCH.deadline(g.state) == ms(at(40 + 42))


def test_the_running_seat_leaving_starts_the_next_clock():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    g.run(player("1"), Resign(), 20)
    clock = g.state.clock
    assert clock is not None and (clock.running, clock.since) == ("2", ms(at(20)))
    assert clock.remaining["1"] == 52_000  # charged to when it left
    assert MATCH.to_act(g.state) == ("2",)


def test_a_flag_before_the_deadline_is_refused_then_the_seat_is_out():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    assert MATCH.deadline(g.state) == ms(at(72))
    assert g.refused(CLOCK_ACTOR, Flag(), 71, TooEarly) == \
        "1's clock has not run out: 1.0 s left"
    # three seats: the seat whose time ran out leaves, the others play on
    events = g.run(CLOCK_ACTOR, Flag(), 72)
    assert [(e.kind, e.data["seat"], e.data["cause"]) for e in events] == \
        [("leave", "1", "time")]
    assert g.result is None and MATCH.to_act(g.state) == ("2",)
    clock = g.state.clock
    assert clock is not None and clock.remaining["1"] == 0
    assert (clock.running, clock.since) == ("2", ms(at(72)))
    # a player may claim the flag too, checked on the clock
    assert "has not run out" in g.refused(player("3"), Flag(), 100, TooEarly)
    g.run(player("3"), Flag(), 132)
    r = g.result
    assert r is not None and dict(r.ranks) == {"3": 1, "2": 2, "1": 3} and r.cause == "time"
    assert g.snap["clock"]["running"] is None
    assert g.refused(CLOCK_ACTOR, Flag(), 200, GameOver).startswith("the game is over")


def test_a_flag_in_two_seats_loses_on_time():
    g = Table("duel", LIVE)
    g.turns(("1", 5), ("2", 10))
    g.run(CLOCK_ACTOR, Flag(), 70)
    r = g.result
    assert r is not None and r.winner == "2" and r.cause == "time"
    assert g.snap["outcome"]["cause"] == "time"
    assert g.snap["clock"]["remaining"]["1"] == 0


def test_a_step_after_the_deadline_is_the_flag_less_the_lag_credit():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    # 1's deadline is at 72 s; a second of lag is credited (R36)
    assert [e.kind for e in g.run(player("1"), PlayStep({"add": 1}, lag=1500), 72.5)] == \
        ["add"]
    assert g.log[-1].data["lag"] == 1500
    g2 = Table(tc=LIVE)
    g2.turns(("1", 5), ("2", 10), ("3", 12))
    assert g2.kinds(player("1"), add(), 73) == ["leave"]


def test_an_unfinished_opening_turn_aborts_the_game():
    g = Table(tc=LIVE)
    g.turns(("1", 5))
    assert "has not run out" in g.refused(CLOCK_ACTOR, Flag(), 34, TooEarly)
    assert g.kinds(CLOCK_ACTOR, Flag(), 35) == ["abort"]  # 2's opening turn: 30 s (R36)
    r = g.result
    assert r is not None and not r.ranked and r.reason == "aborted"
    assert g.snap["outcome"]["winner"] is None
    assert g.snap["outcome"]["reason"] == "aborted"
    assert g.snap["outcome"]["text"] == "no result (aborted)"


def test_an_unfinished_opening_turn_of_an_event_game_is_lost_unplayed():
    g = Table("duel", LIVE, in_event=True)
    g.turns(("1", 5))
    assert g.kinds(CLOCK_ACTOR, Flag(), 35) == ["decide"]
    r = g.result
    assert r is not None and r.winner == "1" and r.cause == "unplayed"


def test_an_untimed_game_has_no_flag():
    g = Table()
    assert "untimed" in g.refused(CLOCK_ACTOR, Flag(), 1000, IllegalCommand)


# --- absence claims (R37) ---------------------------------------------------------------------

def test_absence_claims_in_two_seats():
    g = Table("duel", LIVE)
    g.turns(("1", 5))
    assert "live timed games" in Table("duel").refused(
        player("1"), ClaimAbsence(absent_for=60_000), 1, IllegalCommand)
    assert g.refused(player("1"), ClaimAbsence(absent_for=None), 6, TooEarly) == \
        "2 is connected"
    assert g.refused(player("1"), ClaimAbsence(absent_for=20_000), 6, TooEarly) == \
        "2 has been gone 20 s; you may claim after 21 s"
    assert "only a player can claim" in g.refused(
        ARBITER, ClaimAbsence(absent_for=30_000), 6, NotAllowed)
    assert "another player" in g.refused(
        player("1"), ClaimAbsence(absent_for=30_000, seat="1"), 6, BadCommand)
    g.run(player("1"), ClaimAbsence(absent_for=21_000), 30)
    r = g.result
    assert r is not None and r.winner == "1" and r.cause == "abandonment"


def test_an_absence_claim_for_a_null_game():
    g = Table("duel", LIVE)
    g.run(player("2"), ClaimAbsence("null", absent_for=25_000), 20)
    r = g.result
    assert r is not None and not r.ranked and r.cause == "abandonment"


def test_an_absence_claim_in_three_seats_makes_the_absent_seat_leave():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10))
    # the claim names the seat to move by default
    events = g.run(player("1"), ClaimAbsence(absent_for=30_000), 40)
    assert [(e.kind, e.data["seat"], e.data["cause"]) for e in events] == \
        [("leave", "3", "abandonment")]
    assert g.result is None and MATCH.to_act(g.state) == ("1",)
    # or names it; the last one left wins
    g.run(player("1"), ClaimAbsence(absent_for=30_000, seat="2"), 41)
    r = g.result
    assert r is not None and dict(r.ranks) == {"1": 1, "2": 2, "3": 3}
    assert r.cause == "abandonment"


def test_a_claim_names_a_seat_still_playing():
    g = Table(tc=LIVE)
    g.run(player("3"), Resign(), 1)
    assert "another player still playing" in g.refused(
        player("1"), ClaimAbsence(absent_for=30_000, seat="3"), 40, BadCommand)
    assert g.refused(player("3"), ClaimAbsence(absent_for=30_000, seat="1"), 40,
                     NotAllowed) == "you have left this game"


# --- adjournment, the sealed turn, resumption (R38) -------------------------------------------

def _adjourned(tc: str = LIVE) -> Table:
    """Each seat has played +1; all three agree to adjourn; 1 (to move) seals +2 at 25 s."""
    g = Table(tc=tc)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    assert g.kinds(player("2"), Adjourn("dinner"), 15) == ["offer"]
    assert g.snap["offer"] == {"what": "adjourn", "side": "2", "seats": ["2"]}
    assert g.kinds(player("3"), Adjourn(), 16) == ["offer"]
    assert not g.state.sessions.paused  # two of three agreed: not yet
    assert g.snap["offer"]["seats"] == ["2", "3"]
    assert g.kinds(player("1"), Adjourn(), 17) == ["adjourn"]
    assert g.state.sessions.sealing == "1" and "offer" not in g.snap
    events = g.run(player("1"), add(2), 25)
    assert [(e.kind, e.visibility) for e in events] == [("add", "1"), ("seal", "all")]
    return g


def test_adjourning_needs_every_seat_still_playing():
    g = Table()
    g.run(player("1"), Adjourn(), 1)
    assert "already" in g.refused(player("1"), Adjourn(), 2, IllegalCommand)
    g.run(player("3"), Resign(), 3)  # a seat leaving withdraws the offer standing ...
    assert g.state.sessions.offer is None
    assert g.kinds(player("1"), Adjourn(), 4) == ["offer"]
    assert g.kinds(player("2"), Adjourn(), 5) == ["adjourn"]  # ... and has no say
    assert g.log[-1].data["by"] == "agreement"


def test_an_adjournment_is_refused_in_the_middle_of_a_turn():
    g = Table()
    g.run(player("1"), add(1, again=True), 1)
    assert MATCH.to_act(g.state) == ("1",)
    assert "between turns" in g.refused(player("2"), Adjourn(), 2, IllegalCommand)
    assert "between turns" in g.refused(ARBITER, Adjourn("storm"), 2, IllegalCommand)
    g.run(player("1"), add(1), 3)
    assert g.state.engine.lines == ["1 +1+1"]
    assert g.kinds(ARBITER, Adjourn("storm"), 4) == ["adjourn"]


def test_the_sealed_turn_is_seen_only_by_the_seat_that_sealed_it():
    g = _adjourned()
    s = g.state.sessions
    assert s.adjourned and s.sealing == "1"
    snap = g.snap
    assert snap["counters"] == {"1": 1, "2": 1, "3": 1}  # the position before the sealed turn
    assert snap["adjournment"] == {"sealing": "1", "adjourned": True, "session": 2,
                                   "resume_at": None}
    own = viewer_state(snap, "1")
    assert own is not None and own["counters"] == {"1": 3, "2": 1, "3": 1}
    assert own["clock"] == snap["clock"] and own["adjournment"] == snap["adjournment"]
    for seat in ("2", "3", None):
        seen = viewer_state(snap, seat)
        assert seen is not None and "sealed" not in seen
        assert seen["counters"] == {"1": 1, "2": 1, "3": 1}
    assert MATCH.notation(g.state) == "1 +1\n2 +1\n3 +1"  # without the sealed turn
    sealed = [e for e in g.log if e.kind == "add"][-1]
    assert sealed.visible_to("1") and not sealed.visible_to("2")
    assert not sealed.visible_to(None) and sealed.visible_to(None, arbiter=True)
    # the sealing seat's time is charged; no clock runs while adjourned
    clock = g.state.clock
    assert clock is not None and clock.running is None and clock.remaining["1"] == 47_000
    assert s.ended[0].clocks == {"1": 47_000, "2": 60_000, "3": 60_000}
    assert s.ended[0].mark == {"counters": {"1": 1, "2": 1, "3": 1}}
    assert MATCH.to_act(g.state) == () and MATCH.deadline(g.state) is None


def test_nothing_is_played_or_offered_while_adjourned():
    g = _adjourned()
    assert "adjourned" in g.refused(player("2"), add(), 30, IllegalCommand)
    assert "adjourned" in g.refused(player("2"), Offer("draw"), 30, IllegalCommand)
    assert "adjourned" in g.refused(player("2"), ClaimAbsence(absent_for=60_000), 30,
                                    IllegalCommand)
    assert g.refused(player("2"), Adjourn(), 30, IllegalCommand) == \
        "the game is already adjourned"


def test_resuming_by_agreement_reveals_the_sealed_turn():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    g.run(ARBITER, Adjourn("storm"), 15)
    assert g.refused(player("2"), Resume(), 16, IllegalCommand) == \
        "1 has not sealed the turn yet"
    g.run(player("1"), add(2), 25)
    assert g.kinds(player("1"), Resume(), 100) == ["offer"]
    assert g.kinds(player("3"), Resume(), 101) == ["offer"]
    assert g.state.sessions.adjourned
    events = g.run(player("2"), Resume(), 102)
    assert [e.kind for e in events] == ["resume"]
    assert events[0].data["sealed"] == "004" and events[0].data["text"] == "1 +2"
    assert events[0].data["by"] == "agreement"
    assert g.snap["counters"] == {"1": 3, "2": 1, "3": 1} and "adjournment" not in g.snap
    assert MATCH.notation(g.state).endswith("1 +2")
    clock = g.state.clock
    assert clock is not None and (clock.running, clock.since) == ("2", ms(at(102)))
    g.turns(("2", 110))
    assert clock.remaining["2"] == 52_000


def test_an_arbiter_resumes_at_once():
    g = _adjourned()
    assert "only the players or an arbiter" in g.refused(system(), Resume(), 50, NotAllowed)
    events = g.run(ARBITER, Resume("after the storm"), 50)
    assert events[0].data["by"] == "arbiter" and events[0].data["reason"] == "after the storm"
    assert MATCH.to_act(g.state) == ("2",)
    assert g.refused(ARBITER, Resume(), 51, IllegalCommand) == "the game is not adjourned"


def test_the_clock_resumes_at_the_time_the_arbiter_set():
    g = _adjourned()
    when = ms(at(3600))
    assert "only an arbiter sets" in g.refused(player("2"), Resume(at=when), 30, NotAllowed)
    assert "has passed" in g.refused(ARBITER, Resume(at=ms(at(20))), 30, IllegalCommand)
    assert g.kinds(ARBITER, Resume("round 2", at=when), 30) == ["schedule"]
    assert MATCH.resume_at(g.state) == when
    assert g.snap["adjournment"]["resume_at"] == when
    assert g.refused(CLOCK_ACTOR, Resume(), 3590, TooEarly) == \
        "play resumes at the time the arbiter set, 10 s from now"
    events = g.run(CLOCK_ACTOR, Resume(), 3600)
    assert [e.kind for e in events] == ["resume"]
    assert events[0].data["by"] == "arbiter" and events[0].data["reason"] == "round 2"
    assert MATCH.resume_at(g.state) is None
    clock = g.state.clock
    assert clock is not None and (clock.running, clock.since) == ("2", ms(at(3600)))


def test_the_clock_resumes_only_a_game_with_a_time_set():
    g = _adjourned()
    assert g.refused(CLOCK_ACTOR, Resume(), 5000, IllegalCommand) == \
        "no time is set for this game to resume"


def test_a_replay_of_an_adjourned_game_is_the_same():
    g = _adjourned()
    assert MATCH.snapshot(g.replayed()) == g.snap


# --- the arbiter (R39) ------------------------------------------------------------------------

def test_a_forfeit_in_two_seats_ends_the_game():
    g = Table("duel")
    g.run(ARBITER, Forfeit("2", "  no show "), 1)
    assert g.log[-1].data == {"side": "2", "reason": "no show", "by": "ann"}
    r = g.result
    assert r is not None and r.winner == "1" and r.reason == "forfeit"


def test_a_forfeit_in_three_seats_makes_the_seat_leave():
    g = Table(tc=LIVE)
    g.turns(("1", 5), ("2", 10), ("3", 12))
    g.run(ARBITER, Forfeit("1", "misconduct"), 20)  # the running seat
    assert g.result is None and g.state.left == ["1"]
    assert MATCH.to_act(g.state) == ("2",)
    clock = g.state.clock
    assert clock is not None and clock.running == "2" and clock.seats == ("2", "3")
    g.turns(("2", 30), ("3", 40))
    assert MATCH.to_act(g.state) == ("2",)
    g.run(ARBITER, Forfeit("3", "misconduct"), 50)
    r = g.result
    assert r is not None and dict(r.ranks) == {"2": 1, "3": 2, "1": 3}
    assert MATCH.snapshot(g.replayed()) == g.snap


def test_an_arbiter_declares_a_game_null():
    g = Table()
    g.run(ARBITER, DeclareNull("wrong pairing"), 1)
    r = g.result
    assert r is not None and not r.ranked and r.reason == "null"


def test_the_arbiters_refusals_change_nothing():
    g = Table()
    assert "only an arbiter can declare a forfeit" in g.refused(
        player("1"), Forfeit("2", "x"), 1, NotAllowed)
    assert g.refused(ARBITER, Forfeit("2", "  "), 1, BadCommand) == \
        "a forfeit needs a reason in words"
    assert g.refused(ARBITER, Forfeit("9", "x"), 1, BadCommand) == \
        "a forfeit names the side that loses, 1 or 2 or 3, not '9'"
    assert "one line" in g.refused(ARBITER, Forfeit("2", "a\nb"), 1, BadCommand)
    assert g.refused(ARBITER, DeclareNull(""), 1, BadCommand) == \
        "a null game needs a reason in words"
    assert "only an arbiter can declare the game null" in g.refused(
        system(), DeclareNull("x"), 1, NotAllowed)
    g.run(ARBITER, DeclareNull("wrong pairing"), 2)
    assert "over" in g.refused(ARBITER, Forfeit("2", "late"), 3, GameOver)
    assert "over" in g.refused(ARBITER, DeclareNull("again"), 3, GameOver)


def test_an_arbiter_adds_time_to_one_seat():
    g = Table(tc=LIVE)
    g.turns(("1", 5))
    assert "opening turn" in g.refused(ARBITER, AddTime("2", 30, "x"), 6, IllegalCommand)
    g.turns(("2", 10), ("3", 12))
    events = g.run(ARBITER, AddTime("1", 30, "noisy hall"), 20)
    assert events[0].data == {"side": "1", "seconds": 30, "reason": "noisy hall", "by": "ann",
                              "t": ms(at(20))}
    assert MATCH.deadline(g.state) == ms(at(72 + 30))
    g.run(ARBITER, AddTime("3", 60, "noisy hall"), 21)
    assert g.snap["clock"]["remaining"]["3"] == 120_000
    assert g.refused(ARBITER, AddTime("2", 0, "x"), 22, BadCommand) == \
        "the time to add is 1 to 3600 seconds (1 hour), not 0"
    assert g.refused(ARBITER, AddTime("2", 30, ""), 22, BadCommand) == \
        "adding time needs a reason in words"
    assert "only an arbiter can add time" in g.refused(
        player("2"), AddTime("2", 30, "x"), 22, NotAllowed)
    g.run(player("2"), Resign(), 23)
    assert g.refused(ARBITER, AddTime("2", 30, "x"), 24, BadCommand) == \
        "add_time names the side whose clock gets the time, 1 or 3, not '2'"
    assert "run out" in g.refused(ARBITER, AddTime("1", 30, "x"), 200, IllegalCommand)
    assert "untimed" in Table().refused(ARBITER, AddTime("1", 30, "x"), 1, IllegalCommand)


# --- offers between players -------------------------------------------------------------------

def test_a_draw_agreed_by_every_seat_ranks_them_all_first():
    g = Table()
    g.turns(("1", 1))
    assert g.kinds(player("1"), Offer("draw"), 2) == ["offer"]
    assert "already" in g.refused(player("1"), Offer("draw"), 3, IllegalCommand)
    assert g.kinds(player("3"), Offer("draw"), 3) == ["offer"]
    assert g.snap["offer"] == {"what": "draw", "side": "1", "seats": ["1", "3"]}
    assert g.kinds(player("2"), Offer("draw"), 4) == ["decide"]
    r = g.result
    assert r is not None and dict(r.ranks) == {"1": 1, "2": 1, "3": 1}
    assert r.winner is None and r.cause == "agreement"


def test_a_draw_after_a_seat_left_ranks_it_last():
    g = Table()
    g.run(player("3"), Resign(), 1)
    g.run(player("1"), Offer("draw"), 2)
    g.run(player("2"), Offer("draw"), 3)
    r = g.result
    assert r is not None and dict(r.ranks) == {"1": 1, "2": 1, "3": 3}
    assert g.snap["outcome"]["text"] == "ranks 1: 1, 2: 1, 3: 3 (decision)"


def test_an_offer_lapses_when_another_seat_moves():
    g = Table()
    g.run(player("1"), Offer("draw"), 1)
    g.turns(("1", 2))  # its own move: the offer stands
    assert g.snap["offer"]["what"] == "draw"
    g.run(player("2"), Offer("draw"), 3)
    g.turns(("2", 4))
    assert g.snap["offer"]["seats"] == ["1", "2"]
    g.turns(("3", 5))  # a seat that did not agree moved: it lapses
    assert "offer" not in g.snap and g.state.sessions.offer is None
    assert g.kinds(player("3"), Offer("draw"), 6) == ["offer"]  # a new offer, not acceptance
    assert g.result is None


def test_an_offer_is_declined_or_withdrawn():
    g = Table()
    assert g.refused(player("2"), Decline(), 1, IllegalCommand) == "no offer stands"
    g.run(player("1"), Offer("draw"), 1)
    assert g.kinds(player("2"), Decline(), 2) == ["decline"]
    assert "offer" not in g.snap
    g.run(player("1"), Adjourn(), 3)
    assert g.kinds(player("1"), Decline(), 4) == ["decline"]  # withdrawn
    assert g.state.sessions.offer is None
    assert "only the players decline" in g.refused(ARBITER, Decline(), 5, NotAllowed)


def test_a_null_game_only_where_the_variant_allows_it():
    assert Table().refused(player("1"), Offer("null"), 1, IllegalCommand) == \
        "Race has no null by agreement (offers it allows: draw)"
    assert Table("neutral").refused(player("1"), Offer("draw"), 1, IllegalCommand) == \
        "Race by a neutral seat has no draw by agreement (offers it allows: none)"
    g = Table("duel")
    g.run(player("2"), Offer("null"), 1)
    g.run(player("1"), Offer("null"), 2)
    r = g.result
    assert r is not None and not r.ranked and r.cause == "agreement"
    assert g.snap["outcome"]["text"] == "no result (decision)"


def test_only_players_offer():
    assert "only the players" in Table().refused(ARBITER, Offer("draw"), 1, NotAllowed)


# --- a neutral seat ---------------------------------------------------------------------------

def test_a_neutral_seat_never_acts_and_is_never_ranked():
    g = Table("neutral", LIVE)
    clock = g.state.clock
    assert clock is not None and clock.seats == ("1", "2")
    assert g.refused(player("z"), add(), 1, NotAllowed) == "'z' is not a seat of this game"
    assert g.refused(player("z"), Resign(), 1, NotAllowed) == "'z' is not a seat of this game"
    g.turns(("1", 5))
    assert MATCH.to_act(g.state) == ("2",) and clock.running == "2"
    assert "not yours" in g.refused(player("1"), add(), 6, NotYourTurn)
    g.turns(("2", 10))
    assert MATCH.to_act(g.state) == ("1",)
    g.run(player("1"), Resign(), 20)
    r = g.result
    assert r is not None and dict(r.ranks) == {"2": 1, "1": 2}
    assert g.refused(ARBITER, Forfeit("z", "x"), 21, BadCommand).endswith("not 'z'")


# --- announcements ----------------------------------------------------------------------------

def test_announcements_come_from_the_system():
    g = Table()
    events = g.run(system(), Announce("  the hall closes at ten  "), 1)
    assert [(e.kind, e.data) for e in events] == [("note", {"message": "the hall closes at ten"})]
    assert g.result is None and g.state.version == 1
    assert "only the system" in g.refused(player("1"), Announce("hi"), 2, NotAllowed)
    assert "only the system" in g.refused(ARBITER, Announce("hi"), 2, NotAllowed)
    assert g.refused(system(), Announce("   "), 2, BadCommand) == \
        "an announcement is 1 to 500 characters"
    assert "1 to 500" in g.refused(system(), Announce("x" * 501), 2, BadCommand)


def test_the_game_refuses_what_it_does_not_know():
    g = Table()
    assert "a move is" in g.refused(player("1"), PlayStep({"add": 3}), 1, BadCommand)
    assert "a move is" in g.refused(player("1"), PlayStep("stop"), 1, BadCommand)
    assert "not yours" in g.refused(player("2"), add(), 1, NotYourTurn)
    assert "only the players play steps" in g.refused(ARBITER, add(), 1, NotAllowed)


# --- replay (R40) -----------------------------------------------------------------------------

SEATS = ("1", "2", "3", "z")
#: What the random games are made of, by weight: mostly moves of the seat to act, and every
#: command of the match now and then (the ones that end a game rarely).
MIX = (("move",) * 20 + ("adjourn",) * 4 + ("offer",) * 2 + (
    "wrong move", "resign", "flag", "claim", "resume", "decline", "arbiter", "clock",
    "announce", "stop"))
#: While adjourned: mostly offers to resume.
PAUSED = ("resume",) * 8 + ("move", "arbiter", "clock", "resign", "decline", "offer", "flag")


def _command(data: st.DataObject, g: Table) -> tuple[Actor, Command]:
    """A random command of a random actor, drawn against the game as it stands."""
    to_act = MATCH.to_act(g.state) or g.state.rules.to_act(g.state.engine) or ("1",)
    what = data.draw(st.sampled_from(PAUSED if g.state.sessions.adjourned else MIX))
    # mostly a seat still playing that has not agreed to the offer standing, so that
    # agreements are reached
    pending = tuple(s for s in g.state.seats if s not in g.state.sessions.agreed)
    seat = data.draw(st.sampled_from(SEATS + pending * 4))
    if what == "move":
        step = data.draw(st.sampled_from(({"add": 1}, {"add": 2}, {"add": 1, "again": True})))
        return player(to_act[0]), PlayStep(step)
    if what == "stop":
        return player(to_act[0]), PlayStep({"stop": True})
    if what == "wrong move":
        return player(seat), data.draw(st.sampled_from((add(), PlayStep({"add": 5}))))
    if what == "claim":
        return player(seat), ClaimAbsence(data.draw(st.sampled_from(("win", "null"))),
                                          data.draw(st.sampled_from((None, 5_000, 30_000))),
                                          data.draw(st.sampled_from(("", *SEATS))))
    if what in ("arbiter", "clock", "announce"):
        if what == "announce":
            return system(), Announce("hello")
        if what == "clock":
            return CLOCK_ACTOR, data.draw(st.sampled_from((Flag(), Resume())))
        return ARBITER, data.draw(st.sampled_from((
            Forfeit(seat, "r"), DeclareNull("r"), AddTime(seat, 30, "r"), AddTime(seat, 0, "r"),
            Adjourn("r"), Resume("r"), Resume("r", at=ms(at(4000))))))
    by_seat = {"resign": Resign(), "flag": Flag(), "adjourn": Adjourn(), "resume": Resume(),
               "decline": Decline(), "offer": Offer(data.draw(st.sampled_from(("draw", "null"))))}
    return player(seat), by_seat[what]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(("race", "duel", "neutral")),
       tc=st.sampled_from(("untimed", LIVE, "correspondence 1d")),
       in_event=st.booleans(), target=st.sampled_from((6, 10, 30)), data=st.data())
def test_folding_the_stored_events_into_a_fresh_state_gives_the_same_game(
        variant: str, tc: str, in_event: bool, target: int, data: st.DataObject):
    """Random games, every command of the match among the moves: a refused command changes
    nothing, and the stored events folded into a fresh state (a replay of the log, R40) give
    the same game, as every seat and a spectator see it."""
    g = Table(variant, tc, in_event=in_event, extra={"target": target})
    t = 0.0
    for _ in range(data.draw(st.integers(0, 80))):
        if g.result is not None and data.draw(st.booleans()):
            break  # a refusal or two after the end is enough
        t += data.draw(st.sampled_from((0.0, 1.0, 2.0, 5.0, 5.0, 9.0, 9.0, 40.0, 4000.0)))
        actor, command = _command(data, g)
        version, snap = g.state.version, g.snap
        try:
            g.run(actor, command, t)
        except CommandError:
            assert g.state.version == version and g.snap == snap
    fresh = g.replayed()
    assert fresh.version == g.state.version == len(g.log)
    assert MATCH.snapshot(fresh) == g.snap
    for seat in (*SEATS, None):
        assert viewer_state(MATCH.snapshot(fresh), seat) == viewer_state(g.snap, seat)
    assert MATCH.notation(fresh) == MATCH.notation(g.state)
    assert fresh.result == g.result
    assert MATCH.deadline(fresh) == MATCH.deadline(g.state)
    assert MATCH.resume_at(fresh) == MATCH.resume_at(g.state)
    assert fresh.left == g.state.left
    if g.result is not None:
        assert MATCH.to_act(g.state) == ()


def test_a_seats_place_in_words_for_the_lists_of_games():
    """One reading of ranks for "My games" and a profile's recent games (issue 36)."""
    from play.games.protocol.result import place_of
    assert place_of({"1": 1, "2": 3, "3": 2}, "1") == "won"
    assert place_of({"1": 1, "2": 3, "3": 2}, "3") == "lost"
    assert place_of({"a": 1, "b": 1}, "a") == "drawn"
    assert place_of({}, "a") == "null" and place_of({"a": 1, "b": 2}, "z") == "null"
