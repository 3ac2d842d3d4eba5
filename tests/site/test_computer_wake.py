"""The worker is woken at once when a computer seat is to act, for every game (issue 37):
talu's between-turn state (``side_to_move``, ``steps_used`` 0), tafl's ``to_move``, Talat's
``to_act``; not while a talu turn is under way, not when a person is to act."""

from __future__ import annotations

from play.live.delivery import computer_to_move

PLAYERS = {"game": {"players": {"I": {"name": "ann"}, "O": {"name": "computer",
                                                                 "computer": True},
                                "attackers": {"name": "computer", "computer": True},
                                "defenders": {"name": "ann"},
                                "1": {"name": "ann"}, "2": {"name": "computer", "computer": True},
                                "3": {"name": "computer", "computer": True}}}}


def update(state: dict) -> dict:
    return {**PLAYERS, "state": state}


def test_each_games_way_of_saying_who_acts_wakes_the_computer():
    assert computer_to_move(update({"side_to_move": "O", "steps_used": 0}))  # talu
    assert computer_to_move(update({"to_move": "attackers"}))  # tafl
    assert computer_to_move(update({"to_act": ["3"], "to_move": "3"}))  # Talat
    assert not computer_to_move(update({"side_to_move": "O", "steps_used": 2}))
    assert not computer_to_move(update({"side_to_move": "I", "steps_used": 0}))
    assert not computer_to_move(update({"to_move": "defenders"}))
    assert not computer_to_move(update({"to_act": ["1"]}))
    assert not computer_to_move(update({"to_act": [], "to_move": None}))
