"""Talat behind the site's contract, played through the match (``play.games.match``): the
variants and seats (Zihin neutral), the wire's steps, refusals that change nothing, passes
made at once in the same batch with the clock moving on (A4), a seat that leaves (A8), the
view's legal actions, the notation, results as ranks with scores."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from play.games.match.match import KINDS, Match
from play.games.protocol import (
    NEUTRAL,
    BadCommand,
    CommandError,
    GameOptions,
    IllegalCommand,
    NotYourTurn,
    PlayStep,
    Resign,
    player,
)
from play.games.talat.protocol import EVENT_KINDS, TalatRules

from .helpers import game

TALAT = Match(TalatRules())
T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _run(state, seat, action, t=None):
    now = T0 + timedelta(seconds=t) if t is not None else None
    return TALAT.run(state, player(seat), PlayStep({"action": action}), now)


def test_variants_seats_and_no_offers():
    three, two = TALAT.variant("talat/three"), TALAT.variant("two")
    assert [s.id for s in three.seats] == ["1", "2", "3"] and three.offers == ()
    assert [s.id for s in two.seats] == ["1", "2", "Z"] and two.played == ("1", "2")
    assert two.seat("Z").kind == NEUTRAL and two.offers == ()
    assert not set(EVENT_KINDS) & set(KINDS)
    with pytest.raises(ValueError, match="Talat has no options"):
        TALAT.new_state("three", GameOptions(extra={"size": 7}))


def test_placements_through_the_match_and_the_view():
    state = TALAT.new_state("talat/two")
    view = TALAT.snapshot(state)
    assert view["phase"] == "placement" and view["to_move"] == "1" and view["placing"] == "Z"
    assert view["to_place"]["Z"] == ["S3", "S4", "S6", "M3", "M4", "M6", "L3", "L4", "L6"]
    assert len(view["legal"]) == 10 * 9 and "@2Z:a5 S3" in view["legal"]
    events = _run(state, "1", "@2Z:a5 S3")
    assert [(e.kind, e.side, e.data["action"], e.text) for e in events] == [
        ("turn", "1", "@2Z:a5 S3", "1>Z @2Z:a5 S3")]
    view = TALAT.snapshot(state)
    assert view["towers"] == {"2Z:a5": "Z:S3"} and view["to_move"] == "2"
    assert view["last"] == {"number": 1, "line": "1>Z @2Z:a5 S3"}
    assert TALAT.notation(state).endswith("\n1. 1>Z @2Z:a5 S3\n")


@pytest.mark.parametrize("step, error, words", [
    ({"action": "@12:a1 M6"}, IllegalCommand, "@12:a1 M6: 12:a1 is not on Zihin's start lines"),
    ({"action": "@2Z:a5 Q6"}, BadCommand, "'Q6' is not a tower"),
    ({"action": "b2-c3"}, BadCommand, "not an action"),
    ({"move": "12:b2-c3"}, BadCommand, 'a Talat step is {"action": "12:b2-c3"}'),
])
def test_refusals_change_nothing(step, error, words):
    state = TALAT.new_state("two")
    before = TALAT.snapshot(state)
    with pytest.raises(error) as err:
        TALAT.run(state, player("1"), PlayStep(step))
    assert words in str(err.value)
    assert TALAT.snapshot(state) == before and state.version == 0
    with pytest.raises(NotYourTurn, match="it is seat 1's turn"):
        _run(state, "2", "@2Z:a5 S3")


PASSING = {"12:a1": "1:M3", "12:e3": "2:S4", "23:c5": "2:S3", "23:b5": "3:M4",
           "31:c1": "3:L4", "31:c5": "1:M4"}


def _table(towers, to_move="1", variant="three", tc="untimed"):
    state = TALAT.new_state(variant, GameOptions(time_control=tc,
                                                 started=int(T0.timestamp() * 1000)))
    state.engine.game = game(towers, to_move, variant)
    return state


def test_a_seat_that_cannot_act_passes_in_the_same_batch_and_its_clock_moves_on():  # A4
    state = _table(PASSING, tc="fischer 60+0")
    assert TALAT.to_act(state) == ("1",)
    events = _run(state, "1", "31:c5-c4", t=5)
    assert [(e.side, e.data["action"]) for e in events] == [("1", "31:c5-c4"), ("2", "pass")]
    assert events[1].data["t"] == events[0].data["t"]
    assert TALAT.to_act(state) == ("3",) and state.clock.running == "3"
    assert state.clock.remaining["2"] == 60_000  # seat 2 waited for nothing
    assert TALAT.notation(state).endswith("1. 1 31:c5-c4\n2. 2 pass\n")
    view = TALAT.snapshot(state)
    assert view["to_move"] == "3" and "23:b5xc5" in view["legal"]
    with pytest.raises(IllegalCommand, match="seat 3 has a move or a capture"):
        _run(state, "3", "pass")


def test_a_seat_that_leaves_takes_no_more_turns_and_is_ranked_last():  # A8
    towers = {"12:c3": "1:M6", "12:c4": "2:S6", "23:c1": "2:L3", "23:c5": "3:M6",
              "31:c1": "3:L4", "31:c5": "1:M4"}
    state = _table(towers)
    _run(state, "1", "31:c5-c4")
    assert TALAT.to_act(state) == ("2",)
    TALAT.run(state, player("2"), Resign())
    assert TALAT.to_act(state) == ("3",) and state.result is None
    _run(state, "3", "31:c1-c2")
    events = _run(state, "1", "12:c3xc4")  # seat 2's towers can still be captured
    assert events[0].text == "1 12:c3xc4" and TALAT.to_act(state) == ("3",)
    TALAT.run(state, player("3"), Resign())
    r = state.result
    assert r is not None and r.ranks == {"1": 1, "3": 2, "2": 3}
    assert r.scores == {"1": 5.0, "2": 0.0, "3": 0.0}
    text = TALAT.notation(state)
    assert '[Left "2:1 3:3"]' in text and '[Ranks "1 3 2"]' in text
    assert text.endswith("\n3. 1 12:c3xc4\n")
    with pytest.raises(CommandError):
        _run(state, "1", "12:c4-c5")


def test_the_end_on_the_board_is_a_result_with_ranks_and_scores():  # A8
    towers = {"12:a1": "1:M3", "12:e3": "2:S4", "23:c1": "2:L3", "23:c5": "3:M6",
              "31:c1": "3:L4", "31:c5": "1:M4", "31:c2": "1:L6"}
    state = _table(towers)
    _run(state, "1", "31:c2xc1")  # onto seat 3's start line: 5 + 3 (A6)
    r = state.result
    assert r is not None and r.reason == "frozen" and r.ranks == {"1": 1, "2": 2, "3": 2}
    assert r.scores == {"1": 8.0, "2": 0.0, "3": 0.0}
    assert TALAT.to_act(state) == () and TALAT.snapshot(state)["legal"] == []
    assert TALAT.rules.describe(r) == ("1. seat 1 (8 points), 2. seat 2 and seat 3 (0 points): "
                                       "two boards are frozen")


def test_a_two_seat_resignation_is_a_decision():
    state = TALAT.new_state("two")
    _run(state, "1", "@2Z:a5 S3")
    TALAT.run(state, player("1"), Resign())
    r = state.result
    assert r.ranks == {"1": 2, "2": 1} and r.reason == "decision"
    assert TALAT.to_act(state) == ()
    assert '[Ranks "2 1"]' in TALAT.notation(state)
