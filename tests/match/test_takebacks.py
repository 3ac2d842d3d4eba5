"""Takebacks in casual games by agreement (issue 39), for every game: the match's, tested on
the tiny game (``tests/match/tinygame.py``) and on talu, whose turns hold several steps.

Pure: no Django. The table of ``test_match_rules`` plays a game as the server does.
"""

from __future__ import annotations

from play.games.match.match import Match
from play.games.match.takebacks import standing
from play.games.protocol import (
    Decline,
    Event,
    GameOptions,
    IllegalCommand,
    Offer,
    PlayStep,
    Resign,
    player,
)
from play.games.registry import rules_for
from tests.match.test_match_rules import MATCH, Table, add, at

TAKEBACK = Offer("takeback")


def casual(variant: str = "duel", tc: str = "untimed") -> Table:
    return Table(variant, tc, takebacks=True)


def test_an_agreed_takeback_returns_the_asker_to_their_turn():
    g = casual()
    g.turns(("1", 1), ("2", 2))
    g.run(player("1"), add(2), 3)
    assert g.snap["counters"] == {"1": 3, "2": 1} and g.snap["to_act"] == ["2"]
    assert g.kinds(player("1"), TAKEBACK, 4) == ["offer"]
    assert g.snap["offer"] == {"what": "takeback", "side": "1", "seats": ["1"]}
    assert g.kinds(player("2"), TAKEBACK, 5) == ["takeback"]  # 2 accepts
    assert g.snap["counters"] == {"1": 1, "2": 1} and g.snap["to_act"] == ["1"]
    assert "offer" not in g.snap
    assert MATCH.notation(g.state) == "1 +1\n2 +1"
    # the game goes on from there, and a replay of the whole log agrees
    g.run(player("1"), add(1), 6)
    assert g.snap["counters"] == {"1": 2, "2": 1}
    assert MATCH.snapshot(g.replayed()) == g.snap


def test_asking_after_the_opponent_moved_takes_back_both_turns():
    g = casual()
    g.turns(("1", 1), ("2", 2), ("1", 3), ("2", 4))
    g.run(player("1"), TAKEBACK, 5)  # 1 is to move: its last turn was before 2's
    g.run(player("2"), TAKEBACK, 6)
    assert g.snap["counters"] == {"1": 1, "2": 1} and g.snap["to_act"] == ["1"]


def test_a_turn_begun_goes_with_the_takeback():
    g = casual()
    g.turns(("1", 1), ("2", 2))
    g.run(player("1"), add(1, again=True), 3)  # 1's turn is under way
    g.run(player("2"), TAKEBACK, 4)
    g.run(player("1"), TAKEBACK, 5)
    assert g.snap["counters"] == {"1": 1, "2": 0} and g.snap["to_act"] == ["2"]


def test_a_declined_takeback_changes_nothing_and_a_move_lets_it_lapse():
    g = casual()
    g.turns(("1", 1))
    g.run(player("1"), TAKEBACK, 2)
    assert g.kinds(player("2"), Decline(), 3) == ["decline"]
    assert "offer" not in g.snap and g.snap["counters"] == {"1": 1, "2": 0}
    g.run(player("1"), TAKEBACK, 4)
    g.run(player("2"), add(), 5)  # moving instead of answering lets it lapse
    assert "offer" not in g.snap
    assert "no offer stands" in g.refused(player("1"), Decline(), 6)


def test_refusals_say_why_and_change_nothing():
    rated = Table("duel")
    rated.turns(("1", 1))
    assert "casual games only: this game is rated" in rated.refused(player("1"), TAKEBACK, 2)
    event = Table("duel", in_event=True)
    event.turns(("1", 1))
    assert "this is an event's game" in event.refused(player("1"), TAKEBACK, 2)
    g = casual()
    assert "no turn to take back" in g.refused(player("1"), TAKEBACK, 1, IllegalCommand)
    g.turns(("1", 1))
    g.run(player("1"), TAKEBACK, 2)
    assert "already" in g.refused(player("1"), TAKEBACK, 3)
    g.run(player("2"), Resign(), 4)
    assert "over" in g.refused(player("1"), TAKEBACK, 5)


def test_three_seats_take_back_when_every_other_seat_agrees():
    g = casual("race")
    g.turns(("1", 1), ("2", 2), ("3", 3))
    g.run(player("3"), TAKEBACK, 4)
    g.run(player("1"), TAKEBACK, 5)
    assert g.snap["counters"] == {"1": 1, "2": 1, "3": 1}  # 2 has not agreed yet
    g.run(player("2"), TAKEBACK, 6)
    assert g.snap["counters"] == {"1": 1, "2": 1, "3": 0} and g.snap["to_act"] == ["3"]


def test_the_clock_passes_back_to_the_asker_without_an_increment():
    g = casual(tc="fischer 60+5")
    g.turns(("1", 1), ("2", 3))  # opening turns: not charged (R36)
    g.run(player("1"), add(), 13)  # 1 used 10 s and gained 5: 55 s
    assert g.snap["clock"]["remaining"]["1"] == 55_000
    g.run(player("1"), TAKEBACK, 14)
    g.run(player("2"), TAKEBACK, 20)  # 2's clock ran 7 s before it agreed
    clock = g.snap["clock"]
    assert clock["running"] == "1" and clock["remaining"]["2"] == 53_000
    assert clock["remaining"]["1"] == 55_000  # what it had; nothing back, nothing added


def test_readers_of_the_log_drop_the_taken_back_events():
    g = casual()
    g.turns(("1", 1), ("2", 2), ("1", 3))
    g.run(player("1"), TAKEBACK, 4)
    g.run(player("2"), TAKEBACK, 5)
    g.turns(("1", 6))
    numbered = [(v, e.kind, e.data) for v, e in enumerate(g.log, start=1)]
    kept = standing(numbered)
    assert [(k, d.get("add")) for k, d in kept if k == "add"] == [("add", 1)] * 3
    assert all(k != "takeback" for k, _ in kept)


def test_talu_takes_back_a_turn_of_several_steps():
    """Talu's turn is steps ended by ``end``: agreed, the takeback restores the board, the
    notation (R15's STGN lines) and the seat to move as before the asker's whole turn, and a
    replay of the log makes the same state."""
    match = Match(rules_for("talu/standard").rules)
    options = GameOptions(takebacks=True)
    state = match.new_state("standard", options)
    before = (state.engine.board(), match.notation(state))
    moves = [(PlayStep({"kind": "move", "from": "A2", "to": "A3"}), "I"),
             (PlayStep({"kind": "end"}), "I"), (TAKEBACK, "I"), (TAKEBACK, "O")]
    log: list[Event] = []
    for t, (command, seat) in enumerate(moves, start=1):
        log += match.run(state, player(seat), command, at(t))
    assert [e.kind for e in log][-2:] == ["offer", "takeback"]
    assert (state.engine.board(), match.notation(state)) == before
    assert match.to_act(state) == ("I",)
    fresh = match.new_state("standard", options)
    for event in log:
        match.evolve(fresh, Event.from_json(event.to_json()))
    assert match.snapshot(fresh) == match.snapshot(state)
