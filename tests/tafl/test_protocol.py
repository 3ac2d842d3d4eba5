"""The tafl games behind the site's contract (play.games.protocol): seats, the wire's steps,
the view's fixed keys, refusals that change nothing, a T8 removal as a second step of the
same turn, results as ranks, and a decision off the board."""

from __future__ import annotations

import pytest

from play.games.match.match import KINDS
from play.games.protocol import (
    BadCommand,
    CommandError,
    GameOptions,
    IllegalCommand,
    NotYourTurn,
    PlayStep,
    Resign,
    player,
)
from play.games.registry import DEFAULT_GAME, GAMES, game_of, rules_for, variant_of
from play.games.tafl.board import ATTACKERS, DEFENDERS
from play.games.tafl.game import TaflGame
from play.games.tafl.protocol import EVENT_KINDS, TABLUT, TAFL, TaflState

from .helpers import setup

VIEW_KEYS = {"game", "variant", "size", "immunity", "pieces", "to_move", "centre", "throne",
             "camps", "legal", "remove", "last", "raichi", "tuichi", "moves", "no_capture",
             "result"}


def _run(match, state, seat, step):
    return match.run(state, player(seat), PlayStep(step))


def test_the_catalogue_knows_both_games_and_talu_stays_the_default():
    assert DEFAULT_GAME == "talu" and {"tafl", "tablut"} <= set(GAMES)
    assert game_of("tafl/11x11") == "tafl" and rules_for("tablut/9x9") is TABLUT
    v = variant_of("tafl/11x11")
    assert [s.id for s in v.seats] == ["attackers", "defenders"] and v.offers == ("draw",)
    assert v.options == {"immunity": False} and v.title == "Tafl 11x11"
    assert [s.id for s in variant_of("tablut/9x9").seats] == ["defenders", "attackers"]
    assert list(TAFL.variants) == ["7x7", "9x9", "11x11", "13x13", "15x15", "17x17", "19x19"]
    assert not set(EVENT_KINDS) & set(KINDS)


def test_a_game_played_through_the_match():
    state = TAFL.new_state("tafl/7x7")
    view = TAFL.snapshot(state)
    assert set(view) >= VIEW_KEYS
    assert view["to_move"] == "attackers" and view["size"] == 7 and view["centre"] == "d4"
    assert view["throne"] is None and view["camps"] == [] and view["raichi"] == []
    assert view["pieces"]["d4"] == "K" and view["pieces"]["d1"] == "t"
    assert sorted(view["legal"]["d1"]) == ["a1", "b1", "c1", "e1", "f1", "g1"]
    events = _run(TAFL, state, "attackers", {"move": "d2-c2"})
    assert [e.kind for e in events] == ["move"] and state.version == 1
    view = TAFL.snapshot(state)
    assert view["moves"] == ["d2-c2"] and view["to_move"] == "defenders"
    assert view["last"] == {"from": "d2", "to": "c2", "captured": [], "record": "d2-c2"}
    assert TAFL.to_act(state) == ("defenders",)
    assert "1. d2-c2" in TAFL.notation(state)


@pytest.mark.parametrize("step,error,words", [
    ({"move": "d3-d2"}, IllegalCommand, "d3-d2: the piece on d3 is the defenders'"),
    ({"move": "b1-b2"}, IllegalCommand, "b1-b2: there is no piece on b1"),
    ({"move": "e4-e7x"}, BadCommand, "is not a move"),
    ({"move": "z9-z1"}, BadCommand, "is not a move"),
    ({"move": "a9-a8"}, BadCommand, "not a square of the 7x7 board"),
    ({"mov": "d2-c2"}, BadCommand, '{"move": "e4-e7"}'),
    ("d2-c2", BadCommand, '{"move": "e4-e7"}'),
    ({"remove": "a1"}, IllegalCommand, "no enclosed group"),
    ({"move": "Kd1-d3"}, IllegalCommand, "d2 is in the way"),
    ({"move": "Kc4-c3"}, IllegalCommand, "defenders'"),
])
def test_refusals_change_nothing(step, error, words):
    state = TAFL.new_state("tafl/7x7")
    before = TAFL.snapshot(state)
    with pytest.raises(error, match=words.replace("(", r"\(").replace("{", r"\{")):
        _run(TAFL, state, "attackers", step)
    assert TAFL.snapshot(state) == before and state.version == 0


def test_a_soldier_written_as_the_king_is_refused():  # T15
    state = TAFL.new_state("tafl/7x7")
    with pytest.raises(IllegalCommand, match="the piece on d2 is a soldier"):
        _run(TAFL, state, "attackers", {"move": "Kd2-c2"})


def test_the_wrong_seat_is_refused():
    state = TAFL.new_state("tafl/7x7")
    with pytest.raises(NotYourTurn, match=r"it is attackers's turn \(attackers\), not yours"):
        _run(TAFL, state, "defenders", {"move": "c4-c3"})
    assert TABLUT.to_act(TABLUT.new_state("tablut/9x9")) == ("defenders",)
    state = _state_with(TABLUT, setup("t: a9, T: c2, K: g7", n=9, game="tablut",
                                      to_move="defenders"))
    with pytest.raises(IllegalCommand, match="c2-e2: e2 is a camp: a defender may not enter"):
        _run(TABLUT, state, "defenders", {"move": "c2-e2"})


def _state_with(match, pos):
    state = match.new_state(f"{pos.rules.game}/{pos.rules.variant}")
    g = TaflGame(pos.rules)
    g.pos = pos
    state.engine = TaflState(g)
    return state


def test_a_t8_removal_is_a_second_step_of_the_same_turn():
    state = _state_with(TAFL, setup("t: b4 a3 c1 g1, K: a1, T: b1 a2 g7"))
    _run(TAFL, state, "attackers", {"move": "b4-b2"})
    view = TAFL.snapshot(state)
    assert view["remove"] == {"choices": ["b1", "a2"], "groups": [["a1", "b1", "a2"]]}
    assert view["legal"] == {} and view["to_move"] == "attackers"
    assert view["last"]["from"] == "b4" and view["last"]["record"] == ""
    assert TAFL.to_act(state) == ("attackers",) and not TAFL.rules.between_turns(state.engine)
    assert TAFL.rules.turns(state.engine) == 0
    with pytest.raises(IllegalCommand, match="the king is removed last"):
        _run(TAFL, state, "attackers", {"remove": "a1"})
    with pytest.raises(IllegalCommand, match="g7 is not a piece of an enclosed group"):
        _run(TAFL, state, "attackers", {"remove": "g7"})
    with pytest.raises(IllegalCommand, match="first remove a piece"):
        _run(TAFL, state, "attackers", {"move": "g1-g2"})
    events = _run(TAFL, state, "attackers", {"remove": "b1"})
    assert [e.kind for e in events] == ["remove"]
    view = TAFL.snapshot(state)
    assert view["remove"] is None and view["to_move"] == "defenders"
    assert view["moves"] == ["b4-b2xb1-"] and view["last"]["captured"] == ["b1"]
    assert TAFL.rules.between_turns(state.engine) and TAFL.rules.turns(state.engine) == 1


def test_results_are_ranks():
    state = _state_with(TAFL, setup("t: c4 e1 g7, K: d4, T: a7"))
    _run(TAFL, state, "attackers", {"move": "e1-e4"})
    r = state.result
    assert r.ranks == {"attackers": 1, "defenders": 2} and r.reason == "king_captured"
    assert TAFL.snapshot(state)["result"] == {"winner": "attackers", "reason": "king_captured"}
    assert TAFL.to_act(state) == ()
    draw = _state_with(TAFL, setup("t: a1, K: d4, T: g7"))
    for move in ("a1-a2", "Kd4-d5", "a2-a1", "Kd5-d4") * 2:
        seat = "attackers" if move[0] != "K" else "defenders"
        _run(TAFL, draw, seat, {"move": move})
    assert draw.result.ranks == {"attackers": 1, "defenders": 1}
    assert draw.result.reason == "repetition"
    assert TAFL.rules.describe(draw.result).startswith("Drawn")


def test_a_resignation_stops_the_moves_and_is_in_the_notation():
    state = TAFL.new_state("tafl/7x7")
    _run(TAFL, state, "attackers", {"move": "d2-c2"})
    TAFL.run(state, player("defenders"), Resign())
    assert state.result.winner == "attackers" and TAFL.to_act(state) == ()
    assert state.engine.game.to_move is None and TAFL.snapshot(state)["legal"] == {}
    assert "[result:1]" in TAFL.notation(state)
    with pytest.raises(CommandError):
        _run(TAFL, state, "defenders", {"move": "c4-c3"})


def test_options_immunity_and_unknown_values():
    state = TAFL.new_state("tafl/7x7", GameOptions(extra={"immunity": True}))
    assert TAFL.snapshot(state)["immunity"] is True
    assert "[options:immunity]" in TAFL.notation(state)
    for extra in ({"immunity": "yes"}, {"berserk": True}):
        with pytest.raises(ValueError):
            TAFL.new_state("tafl/7x7", GameOptions(extra=extra))
    with pytest.raises(ValueError, match="tablut has no option"):
        TABLUT.new_state("tablut/9x9", GameOptions(extra={"immunity": True}))


def test_tablut_view_shows_throne_camps_and_raichi():
    state = _state_with(TABLUT, setup("K: c3, t: a9 i9", n=9, game="tablut",
                                      to_move="defenders"))
    view = TABLUT.snapshot(state)
    assert view["throne"] == "e5" and len(view["camps"]) == 16 and "e2" in view["camps"]
    assert sorted(view["raichi"]) == ["a3", "c1", "c9", "i3"] and view["tuichi"] is True
    assert (ATTACKERS, DEFENDERS) == (0, 1)
