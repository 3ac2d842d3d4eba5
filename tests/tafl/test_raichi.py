"""T11 raichi and tuichi, and the exact return rule (T15)."""

from __future__ import annotations

import pytest

from play.games.tafl import IllegalMove

from .helpers import moves_from, names, play, setup

# the king on b7 between his soldiers; attacker A on a8 (T11's scenario, Tablut)
START = "K: b7, T: a7 d7 c6, t: a8 i1"


def test_raichi_and_tuichi():
    pos = setup("K: c3, t: a9 i9", n=9, game="tablut", to_move="defenders")
    assert names(pos, pos.raichi()) == ["c9", "c1", "a3", "i3"]  # four free lines: tuichi
    pos = setup("K: c7, T: a7 d7 c6, t: i1", n=9, game="tablut", to_move="defenders")
    assert names(pos, pos.raichi()) == ["c9"]
    camp = setup("K: b3, t: i9", n=9, game="tablut", to_move="defenders")
    assert "b9" not in names(pos, camp.raichi())  # b5 is a camp in the way


def test_the_king_may_not_go_back_to_s1_after_the_same_attacker_blocked_him_twice():
    pos = setup(START, n=9, game="tablut", to_move="defenders")
    play(pos, "Kb7-c7")  # S1: raichi up the c file
    assert pos.history[-1].raichi
    play(pos, "a8-c8")  # A blocks
    assert not pos.history[-1].raichi
    play(pos, "Kc7-b7")  # S2: raichi up the b file
    play(pos, "c8-b8")  # the same A blocks again
    assert pos.return_ban() == pos.geo.square("c7")
    assert "c7" not in moves_from(pos, "b7") and "b6" in moves_from(pos, "b7")
    with pytest.raises(IllegalMove, match=r"Kb7-c7: the king may not go back to c7.*\(T11\)"):
        play(pos, "Kb7-c7")
    # refused on the defenders' very next move only (T15)
    play(pos, "d7-d8")
    play(pos, "i1-i2")
    assert "c7" in moves_from(pos, "b7")


def test_another_attacker_does_not_make_the_rule():
    pos = setup("K: b7, T: a7 d7 c6, t: a8 a9 i1", n=9, game="tablut", to_move="defenders")
    play(pos, "Kb7-c7")
    play(pos, "a8-c8")
    play(pos, "Kc7-b7")
    play(pos, "a9-b9")  # a different attacker blocks the second time
    assert pos.return_ban() == -1 and "c7" in moves_from(pos, "b7")


def test_the_return_is_allowed_when_s1_is_no_raichi_square_after_it():
    # a second attacker stands on c9: back on c7 the king has no free line, so he may go
    pos = setup("K: b7, T: a7 d7 c6, t: a8 i1 c9", n=9, game="tablut", to_move="defenders")
    play(pos, "Kb7-c7")
    assert not pos.history[-1].raichi  # c9 blocks: no raichi, the rule never starts
    assert pos.return_ban() == -1
