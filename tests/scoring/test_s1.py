"""S1 (R20, R21): raw points, added on a win, half subtracted on a loss."""

from __future__ import annotations

from registry.scoring.categories import category_counts
from registry.scoring.s1 import s1_new_rating, score_s1

from .helpers import make_tally


def test_r20_s1_s2_capture_counts_removed_pieces_not_capture_codes():
    # An end-of-game quad-lock is coded A.d (R18) but removes nothing: no S1/S2 capture.
    tally = make_tally({"A.d": 2, "A.b": 1}, captures=(1, 0))
    assert category_counts(tally, "I").capture == 1
    counts = category_counts(
        make_tally({"C.a": 1, "C.b": 2, "C.c": 3, "D.d": 1, "D.e": 1, "D.f": 1,
                    "E.a": 2, "E.b": 1, "E.c": 1, "B.a": 1, "B.b": 1, "B.c": 4}),
        "I",
    )  # fmt: skip
    assert (counts.invasion, counts.intrusion, counts.defense, counts.threat) == (6, 3, 4, 6)


def test_r21_s1_points_formula_and_loser_halves():
    tally = make_tally(
        {"C.a": 1, "D.f": 2, "E.c": 1, "B.b": 1},
        {"C.c": 1},
        captures=(3, 1),
        rounds=20,
        winner="I",
    )
    i = score_s1(tally, "I", 300)
    # 4x3 + 8x1 + 2x2 + 2x1 + 2x1 + (25 - 20) + 4
    assert i.points == 12 + 8 + 4 + 2 + 2 + 5 + 4 == 37
    assert i.new == 337
    o = score_s1(tally, "O", 300)
    assert o.points == 4 + 8 + 5 == 17
    assert o.new == 292  # 300 - 8.5 = 291.5, half up


def test_s1_speed_points_never_negative():
    assert score_s1(make_tally(rounds=40, winner="I"), "I", 250).breakdown.speed == 0
    assert score_s1(make_tally(rounds=24, winner="I"), "I", 250).breakdown.speed == 1


def test_s1_null_game_shows_points_but_keeps_rating():
    tally = make_tally(captures=(2, 0), rounds=10, winner=None, reason="null")
    result = score_s1(tally, "I", 250)
    assert result.points == 8 + 15  # no win bonus in a null game
    assert result.new == 250 and not result.rated


def test_s1_rating_floor_at_zero():
    assert s1_new_rating(5, 40, won=False) == 0
    assert s1_new_rating(20, 40, won=False) == 0
    assert s1_new_rating(21, 40, won=False) == 1


def test_s1_detail_lists_every_addend():
    tally = make_tally({"C.c": 1}, captures=(1, 0), rounds=20, winner="I")
    detail = score_s1(tally, "I", 250).detail()
    assert detail["category_points"]["capture"] == 4
    assert detail["category_points"]["invasion"] == 8
    assert detail["speed_points"] == 5 and detail["success_points"] == 4
    assert detail["points"] == 21 == detail["points_applied"]
